/**
 * tenantform_tenant_setting: validation of a configuration, and the whole life of an own
 * setting against the emulator over real HTTP (create, read, update, delete so that the
 * tenant inherits again, import, and a value locked by an ancestor).
 */
import { PlatformClient } from '../../api';
import { startEmulator } from '../../emulator';
import type { State } from '../declaration';
import { createResource, deleteResource, importResource, readResource, updateResource } from '../operations';
import { planResource } from '../plan';
import { validateConfig } from '../validate';
import { Unknown } from '../values';
import { tenantSetting } from './tenant-setting';

const ADDRESS = 'tenantform_tenant_setting.window';
const APP = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const TENANT = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('validation', () => {
  const valid = { application_id: APP, tenant_id: TENANT, name: 'retention_days', value: '30' };

  it('accepts a valid configuration', () => {
    expect(validateConfig(tenantSetting, valid, ADDRESS)).toEqual([]);
  });

  it('requires uuids for the application and the tenant', () => {
    const problems = validateConfig(tenantSetting, { ...valid, tenant_id: 'ACME' }, ADDRESS);
    expect(problems).toEqual([expect.objectContaining({ address: ADDRESS, path: ['tenant_id'], code: 'invalid_value' })]);
  });

  it('requires the value to be JSON', () => {
    const problems = validateConfig(tenantSetting, { ...valid, value: '{days: 30' }, ADDRESS);
    expect(problems).toEqual([expect.objectContaining({ address: ADDRESS, path: ['value'], code: 'invalid_json' })]);
  });

  it('requires a name without a slash (it is part of the id)', () => {
    const problems = validateConfig(tenantSetting, { ...valid, name: 'a/b' }, ADDRESS);
    expect(problems).toEqual([expect.objectContaining({ address: ADDRESS, path: ['name'], code: 'invalid_value' })]);
  });

  it('refuses computed attributes in the configuration', () => {
    const problems = validateConfig(tenantSetting, { ...valid, effective_value: '1' }, ADDRESS);
    expect(problems).toEqual([expect.objectContaining({ address: ADDRESS, path: ['effective_value'], code: 'computed_attribute' })]);
  });

  it('reports every problem of a configuration at once', () => {
    const problems = validateConfig(tenantSetting, { application_id: 'x', value: 'nope', lock: 'yes' }, ADDRESS);
    expect(problems.map((p) => [p.address, p.path?.join('.'), p.code])).toEqual([
      [ADDRESS, 'application_id', 'invalid_value'],
      [ADDRESS, 'tenant_id', 'required'],
      [ADDRESS, 'name', 'required'],
      [ADDRESS, 'value', 'invalid_json'],
      [ADDRESS, 'lock', 'invalid_type'],
    ]);
  });

  it('parses the import id', () => {
    expect(tenantSetting.importId.parse(`${APP}/${TENANT}/backup_window`)).toEqual({
      application_id: APP,
      tenant_id: TENANT,
      name: 'backup_window',
    });
    expect(tenantSetting.importId.parse(`${APP}/backup_window`)).toBeUndefined();
  });
});

describe('against the emulator', () => {
  let emu: Awaited<ReturnType<typeof startEmulator>>;
  let client: PlatformClient;
  let ctx: { client: PlatformClient };
  let backup: string;
  let root: string;
  let northwind: string;

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, seed: 1 });
    client = new PlatformClient({ baseUrl: emu.url, clientId: emu.clientId, clientSecret: emu.clientSecret });
    ctx = { client };
    const world = emu.world();
    backup = world.applications.backup.id;
    root = world.rootTenantId;
    northwind = world.tenants['Northwind Partner'].id;
  });

  afterAll(async () => {
    await client?.close();
    await emu?.close();
  });

  const base = { kind: tenantSetting, address: ADDRESS };
  const plan = (config: State | null, prior: State | null) => planResource({ ...base, config, prior });

  it('creates, reads, updates, deletes (the tenant inherits again) and imports an own setting', async () => {
    const config = () => ({ application_id: backup, tenant_id: northwind, name: 'backup_window', value: '{"start":"02:00","end":"06:00"}' });

    // Before: Northwind inherits the root's value and has none of its own.
    expect((await readResource({ ...base, ctx, state: config() })).value).toBeNull();

    const create = await plan(config(), null);
    expect(create.action).toBe('create');
    const created = await createResource({ ...base, ctx, planned: create.planned! });
    expect(created.diagnostics).toEqual([]);
    expect(created.value).toEqual({
      id: `${backup}/${northwind}/backup_window`,
      application_id: backup,
      tenant_id: northwind,
      name: 'backup_window',
      value: '{"start":"02:00","end":"06:00"}',
      lock: false,
      exclusive: false,
      effective_value: expect.any(String),
      effective_owner_id: northwind,
    });
    expect(JSON.parse(created.value!.effective_value as string)).toEqual({ start: '02:00', end: '06:00' });

    const read = await readResource({ ...base, ctx, state: created.value! });
    expect(read).toEqual({ value: created.value, diagnostics: [] });

    // Key order never makes a diff.
    expect((await plan({ ...config(), value: '{ "end": "06:00", "start": "02:00" }' }, read.value!)).action).toBe('no-op');

    const change = await plan({ ...config(), value: '{"start":"03:00","end":"07:00"}', lock: true }, read.value!);
    expect(change.action).toBe('update');
    expect(change.changed).toEqual(['value', 'lock']);
    expect(change.planned).toMatchObject({ effective_value: Unknown, effective_owner_id: Unknown });
    const updated = await updateResource({ ...base, ctx, prior: read.value!, planned: change.planned! });
    expect(updated.diagnostics).toEqual([]);
    expect(updated.value).toMatchObject({ value: '{"start":"03:00","end":"07:00"}', lock: true, exclusive: false });
    const reread = await readResource({ ...base, ctx, state: updated.value! });
    expect(reread.value).toEqual(updated.value);

    // The identity forces replacement.
    const rename = await plan({ ...config(), name: 'backup_window_2' }, reread.value!);
    expect(rename.action).toBe('replace');
    expect(rename.requiresReplace).toEqual([['name']]);

    const removal = await plan(null, reread.value!);
    expect(removal.action).toBe('delete');
    expect((await deleteResource({ ...base, ctx, prior: reread.value! })).diagnostics).toEqual([]);
    expect(await readResource({ ...base, ctx, state: reread.value! })).toEqual({ value: null, diagnostics: [] });
    const inherited = await client.getSetting(backup, northwind, 'backup_window');
    expect(inherited.own).toBeNull();
    expect(inherited.effective).toMatchObject({ owner: { type: 'tenant', id: root }, value: { start: '01:00', end: '05:00' } });

    // Nothing of its own to import any more.
    const id = `${backup}/${northwind}/backup_window`;
    const gone = await importResource({ ...base, ctx, id });
    expect(gone.value).toBeUndefined();
    expect(gone.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'import_not_found', address: ADDRESS })]);

    // An own value set by hand imports as a read shows it.
    await client.putSetting(backup, northwind, 'backup_window', { value: { end: '04:00', start: '00:00' }, lock: false, exclusive: true });
    const imported = await importResource({ ...base, ctx, id });
    expect(imported.diagnostics).toEqual([]);
    expect(imported.value).toEqual((await readResource({ ...base, ctx, state: imported.value! })).value);
    expect(imported.value).toMatchObject({ id, exclusive: true, effective_owner_id: northwind });
    expect(JSON.parse(imported.value!.value as string)).toEqual({ start: '00:00', end: '04:00' });
    await deleteResource({ ...base, ctx, prior: imported.value! });
  });

  it('deleting a setting that is already gone succeeds', async () => {
    const prior = { application_id: backup, tenant_id: northwind, name: 'never_set_here' };
    expect((await deleteResource({ ...base, ctx, prior })).diagnostics).toEqual([]);
  });

  it('explains a value locked by an ancestor, naming the tenant that holds the lock', async () => {
    const config = { application_id: backup, tenant_id: northwind, name: 'encryption_required', value: 'false' };
    const create = await plan(config, null);
    const result = await createResource({ ...base, ctx, planned: create.planned! });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'setting_locked', address: ADDRESS, path: ['value'], retryable: false }),
    ]);
    expect(result.diagnostics[0].detail).toContain(`locked by tenant ${root}`);
  });
});
