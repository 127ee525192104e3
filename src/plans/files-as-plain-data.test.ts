import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Unknown } from '../resources/values';
import { loadPlan } from './planfile';
import { parseState } from '../state/state';
import { changeAt } from '../engine/testing';

/** State and plan files are read as plain data: no inherited names, no unbounded nesting. */
describe('state and plan files as plain data', () => {
  const state = (attributes: string) =>
    `{"version":4,"serial":1,"lineage":"l","outputs":{},"resources":[{"mode":"managed","type":"tenantform_infra_component","name":"a","provider":"p","instances":[{"schema_version":0,"attributes":${attributes},"sensitive_attributes":[]}]}]}`;

  it('reads __proto__ and constructor in a state as ordinary keys', () => {
    const doc = parseState('s.tfstate', state('{"id":"real","__proto__":{"id":"x"},"constructor":"c"}'));
    const attributes = doc.resources[0].instances[0].attributes;
    expect('toString' in attributes || 'hasOwnProperty' in attributes).toBe(false);
    expect(attributes.id).toBe('real');
    expect(Object.keys(attributes)).toEqual(['id', '__proto__', 'constructor']);
    expect(doc.outputs.toString).toBeUndefined();
  });

  it('refuses a state nested too deeply, saying where', () => {
    expect(() => parseState('s.tfstate', state(`{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}`))).toThrow(
      /s\.tfstate: nested more than \d+ levels deep at resources\.0\.instances\.0\.attributes\.x\.0/,
    );
  });

  it('reads a plan file with unknown values and refuses one nested too deeply', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tenantform-planfile-'));
    try {
      const file = join(dir, 'p.plan');
      // As a saved plan writes a value known only after apply.
      const change = changeAt('tenantform_infra_component.a', 'create', { after: { id: { $tenantform: 'unknown' } } });
      const plan = { stack: 'main', configHash: 'h', priorState: null, changes: [change], drift: [], diagnostics: [], refreshOnly: false };
      writeFileSync(file, JSON.stringify({ format: 'tenantform-plan', version: 1, plan, data: {} }));
      const loaded = loadPlan(file);
      expect((loaded.plan.changes[0].after as Record<string, unknown>).id).toBe(Unknown);
      writeFileSync(file, `{"format":"tenantform-plan","version":1,"data":{},"plan":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
      expect(() => loadPlan(file)).toThrow(/Cannot read the plan file/);
      expect(() => loadPlan(file)).not.toThrow(/call stack/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
