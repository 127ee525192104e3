import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientEndpoints } from './client-endpoints';
import { Contract } from './openapi';

const contract = new Contract();
const SAMPLE_ID = '6c287abf-0f88-4e1b-b457-68edf053d3da';
const endpoints = clientEndpoints();

describe("the platform client's endpoints", () => {
  it('are found in the source', () => {
    // A guard on the reading itself: the client calls far more than a handful of endpoints.
    expect(endpoints.length).toBeGreaterThan(40);
    expect(endpoints).toContainEqual({ method: 'GET', path: '/api/2/applications/{application_id}/settings/tenants/{tenant_id}/{setting_name}' });
  });

  it.each(endpoints.map((e) => [`${e.method} ${e.path}`, e] as const))('%s is an operation of the reference', (_name, e) => {
    const found = contract.operationOf(e.method, e.path.replace(/\{[^}]+\}/g, SAMPLE_ID));
    expect(found).toBeDefined();
  });

  it('are each named with their reference operation in docs/platform-interface.md', () => {
    const doc = readFileSync(join(__dirname, '../../docs/platform-interface.md'), 'utf8');
    const missing = endpoints.filter((e) => {
      const found = contract.operationOf(e.method, e.path.replace(/\{[^}]+\}/g, SAMPLE_ID));
      return found === undefined || !doc.includes(`| \`${e.method} ${e.path}\` | ${found.compiled.operationId} |`);
    });
    expect(missing).toEqual([]);
  });
});
