import type { Application } from '../../api';
import { readDataSource } from '../operations';
import { validateConfig } from '../validate';
import { useEmulatorClient } from '../testing';
import kind, { matchApplications } from './data-application';

const ADDRESS = 'data.tenantform_application.test';

describe('tenantform_application validation', () => {
  it('needs exactly one of type and name', () => {
    expect(validateConfig(kind, { type: 'backup' }, ADDRESS)).toEqual([]);
    expect(validateConfig(kind, {}, ADDRESS)).toMatchObject([{ code: 'exactly_one_of', address: ADDRESS, path: ['type'] }]);
    expect(validateConfig(kind, { type: 'backup', name: 'Cyber Protection' }, ADDRESS)).toMatchObject([
      { code: 'exactly_one_of', address: ADDRESS, path: ['name'] },
    ]);
  });

  it('refuses computed attributes in the configuration', () => {
    expect(validateConfig(kind, { type: 'backup', usages: [] }, ADDRESS)).toMatchObject([{ code: 'computed_attribute', address: ADDRESS, path: ['usages'] }]);
  });

  it('reports several applications of one name as ambiguous', () => {
    const app = (id: string, type: string): Application => ({ id, type, name: 'Storage', usages: [], api_base_url: '/x' });
    const apps = [app('a', 'storage'), app('b', 'hci')];
    expect(() => matchApplications(apps, 'name', 'Storage')).toThrow(expect.objectContaining({ code: 'data_source_ambiguous' }));
    expect(matchApplications(apps, 'type', 'hci').id).toBe('b');
  });
});

describe('tenantform_application against the emulator', () => {
  const platform = useEmulatorClient(1);

  const read = (config: Record<string, unknown>) => readDataSource({ kind, address: ADDRESS, ctx: { client: platform.client }, config });

  it('finds an application by type', async () => {
    const backup = platform.emulator.world().applications.backup;
    const r = await read({ type: 'backup' });
    expect(r.diagnostics).toEqual([]);
    expect(r.value).toEqual({
      id: backup.id,
      type: 'backup',
      name: backup.name,
      usages: (await platform.client.getApplication(backup.id)).usages,
      api_base_url: '/api/backup/v1',
    });
  });

  it('finds an application by name', async () => {
    const notary = platform.emulator.world().applications.notary;
    const r = await read({ name: notary.name });
    expect(r.diagnostics).toEqual([]);
    expect(r.value).toMatchObject({ id: notary.id, type: 'notary', name: notary.name });
  });

  it('reports no match, naming what exists', async () => {
    const r = await read({ name: 'cyber protection' });
    expect(r.value).toBeUndefined();
    expect(r.diagnostics).toMatchObject([{ severity: 'error', code: 'data_source_not_found', address: ADDRESS }]);
    expect(r.diagnostics[0].detail).toContain('Cyber Protection');
  });
});
