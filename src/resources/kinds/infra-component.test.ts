/**
 * tenantform_infra_component: validation of a configuration, and the life of a component
 * against the emulator over real HTTP: create, read, update, replacement, a concurrent
 * change refused as a version conflict, delete, import and adoption after an interrupted create.
 */
import { randomUUID } from 'node:crypto';
import { PlatformClient } from '../../api';
import { startEmulator } from '../../emulator';
import type { State } from '../declaration';
import { adoptResource, createResource, deleteResource, importResource, readResource, updateResource } from '../operations';
import { planResource } from '../plan';
import { validateConfig } from '../validate';
import { Unknown } from '../values';
import { infraComponent } from './infra-component';
import { stateOf } from '../testing';

const ADDRESS = 'tenantform_infra_component.primary';
const OWNER = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

describe('validation', () => {
  const valid = { owner_tenant_id: OWNER, name: 'Primary', url: 'https://storage.example.com', capabilities: ['backup'] };
  const problems = (config: State) => validateConfig(infraComponent, config, ADDRESS);

  it('accepts a valid configuration', () => {
    expect(problems({ ...valid, url: 'sftp+ssh://10.0.0.1:22', content_url: 'https://c.example.com', backend_type: 'azure' })).toEqual([]);
  });

  it('requires uuids for the owner and the location', () => {
    expect(problems({ ...valid, owner_tenant_id: OWNER.toUpperCase(), location_id: 'eu-1' })).toEqual([
      expect.objectContaining({ address: ADDRESS, path: ['owner_tenant_id'], code: 'invalid_value' }),
      expect.objectContaining({ address: ADDRESS, path: ['location_id'], code: 'invalid_value' }),
    ]);
  });

  it.each([
    ['url', 'HTTPS://storage.example.com'],
    ['url', 'storage.example.com'],
    ['url', 'https:// storage'],
    ['content_url', 'https://'],
    ['content_mobile_url', '1ftp://mobile.example.com'],
  ])('checks the address form of %s (%s)', (name, value) => {
    expect(problems({ ...valid, [name]: value })).toEqual([expect.objectContaining({ address: ADDRESS, path: [name], code: 'invalid_value' })]);
  });

  it('checks each capability against the enumeration', () => {
    expect(problems({ ...valid, capabilities: ['backup', 'archive'] })).toEqual([
      expect.objectContaining({ address: ADDRESS, path: ['capabilities', 1], code: 'invalid_value' }),
    ]);
  });

  it('refuses a repeated capability', () => {
    expect(problems({ ...valid, capabilities: ['backup', 'vcd', 'backup'] })).toEqual([
      expect.objectContaining({ address: ADDRESS, path: ['capabilities', 2], code: 'duplicate' }),
    ]);
  });

  it('reports every problem of a configuration at once', () => {
    const found = problems({ name: '', url: 'ftp:/x', capabilities: ['dr'], version: 3 });
    expect(found.map((p) => [p.address, p.path?.join('.'), p.code])).toEqual([
      [ADDRESS, 'owner_tenant_id', 'required'],
      [ADDRESS, 'name', 'too_small'],
      [ADDRESS, 'url', 'invalid_value'],
      [ADDRESS, 'capabilities.0', 'invalid_value'],
      [ADDRESS, 'version', 'computed_attribute'],
    ]);
  });

  it('takes a uuid as import id', () => {
    expect(infraComponent.importId.parse(OWNER)).toEqual({ id: OWNER });
    expect(infraComponent.importId.parse('primary')).toBeUndefined();
  });
});

describe('against the emulator', () => {
  let emu: Awaited<ReturnType<typeof startEmulator>>;
  let client: PlatformClient;
  let ctx: { client: PlatformClient };
  let northwind: string;
  let southridge: string;
  const location = randomUUID();

  beforeAll(async () => {
    emu = await startEmulator({ port: 0, seed: 1 });
    client = new PlatformClient({ baseUrl: emu.url, clientId: emu.clientId, clientSecret: emu.clientSecret });
    ctx = { client };
    northwind = emu.world().tenants['Northwind Partner'].id;
    southridge = emu.world().tenants['Southridge Partner'].id;
  });

  afterAll(async () => {
    await client?.close();
    await emu?.close();
  });

  const base = { kind: infraComponent, address: ADDRESS };
  const plan = (config: State | null, prior: State | null) => planResource({ ...base, config, prior });
  const declared = () => ({
    owner_tenant_id: northwind,
    name: 'Northwind storage',
    url: 'https://storage.northwind.example.com',
    capabilities: ['backup'],
    location_id: location,
    backend_type: 'acronis',
  });

  it('creates, reads, updates in place, plans a replacement, deletes and imports a component', async () => {
    const create = await plan(declared(), null);
    expect(create.action).toBe('create');
    expect(create.planned).toMatchObject({ id: Unknown, version: Unknown });
    const created = await createResource({ ...base, ctx, planned: create.planned! });
    expect(created.diagnostics).toEqual([]);
    expect(created.value).toEqual({
      ...declared(),
      id: expect.any(String),
      content_url: null,
      content_mobile_url: null,
      force_delete: false,
      version: 1,
      platform_owned: false,
      readonly: false,
    });

    const read = await readResource({ ...base, ctx, state: created.value! });
    expect(read).toEqual({ value: created.value, diagnostics: [] });
    expect((await plan(declared(), read.value!)).action).toBe('no-op');

    const changed = {
      ...declared(),
      name: 'Northwind storage (EU)',
      capabilities: ['backup', 'disaster_recovery'],
      content_url: 'https://content.northwind.example.com',
    };
    const update = await plan(changed, read.value!);
    expect(update.action).toBe('update');
    expect(update.changed).toEqual(['name', 'capabilities', 'content_url']);
    expect(update.planned).toMatchObject({ id: read.value!.id, version: Unknown });
    const updated = await updateResource({ ...base, ctx, prior: read.value!, planned: update.planned! });
    expect(updated.diagnostics).toEqual([]);
    expect(updated.value).toEqual({ ...read.value, ...changed, version: 2 });
    const reread = await readResource({ ...base, ctx, state: updated.value! });
    expect(reread.value).toEqual(updated.value);

    // The platform cannot clear a content address (the reference's infraPut takes links only):
    // the plan refuses it, naming the attribute, before any request.
    const clearUrl = await plan({ ...changed, content_url: null }, reread.value!);
    expect(clearUrl.diagnostics).toEqual([expect.objectContaining({ severity: 'error', address: ADDRESS, path: ['content_url'] })]);
    // A backend type (nullable in the reference) is cleared on the platform.
    const cleared = await plan({ ...changed, backend_type: null }, reread.value!);
    expect(cleared.diagnostics).toEqual([]);
    const afterClear = await updateResource({ ...base, ctx, prior: reread.value!, planned: cleared.planned! });
    expect(afterClear.value).toMatchObject({ backend_type: null, content_url: 'https://content.northwind.example.com', version: 3 });

    const move = await plan({ ...changed, backend_type: null, owner_tenant_id: southridge }, afterClear.value!);
    expect(move.action).toBe('replace');
    expect(move.requiresReplace).toEqual([['owner_tenant_id']]);

    const imported = await importResource({ ...base, ctx, id: stateOf(infraComponent, created.value).id });
    expect(imported.diagnostics).toEqual([]);
    expect(imported.value).toEqual((await readResource({ ...base, ctx, state: { id: created.value!.id } })).value);
    expect(imported.value).toEqual(afterClear.value);

    expect((await plan(null, afterClear.value!)).action).toBe('delete');
    expect((await deleteResource({ ...base, ctx, prior: afterClear.value! })).diagnostics).toEqual([]);
    expect(await readResource({ ...base, ctx, state: afterClear.value! })).toEqual({ value: null, diagnostics: [] });
    const gone = await importResource({ ...base, ctx, id: stateOf(infraComponent, created.value).id });
    expect(gone.diagnostics).toEqual([expect.objectContaining({ code: 'import_not_found', address: ADDRESS })]);
  });

  it('refuses to overwrite a concurrent change, naming both versions, and keeps the other change', async () => {
    const created = stateOf(
      infraComponent,
      (await createResource({ ...base, ctx, planned: (await plan({ ...declared(), name: 'Shared' }, null)).planned! })).value,
    );
    const { id, ...rest } = created;

    // Someone else renames it: version 1 -> 2.
    const other = await client.updateInfra(id, {
      name: 'Renamed by hand',
      url: rest.url,
      capabilities: ['backup'],
      location_id: location,
      version: 1,
    });
    expect(other.version).toBe(2);

    // tenantform's plan was made against version 1.
    const update = await plan({ ...declared(), name: 'Shared', capabilities: ['backup', 'vcd'] }, created);
    const result = await updateResource({ ...base, ctx, prior: created, planned: update.planned! });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics).toEqual([expect.objectContaining({ severity: 'error', code: 'version_conflict', address: ADDRESS, retryable: false })]);
    expect(result.diagnostics[0].detail).toMatch(/at version 2 on the platform.*planned against version 1/);

    const live = (await readResource({ ...base, ctx, state: created })).value!;
    expect(live).toMatchObject({ name: 'Renamed by hand', capabilities: ['backup'], version: 2 });

    // A delete planned against the old version is refused too, and deletes nothing.
    const stale = await deleteResource({ ...base, ctx, prior: created });
    expect(stale.diagnostics).toEqual([expect.objectContaining({ code: 'version_conflict', address: ADDRESS })]);
    expect(stale.diagnostics[0].detail).toContain('version 2');
    expect((await readResource({ ...base, ctx, state: created })).value).toEqual(live);

    expect((await deleteResource({ ...base, ctx, prior: live })).diagnostics).toEqual([]);
  });

  it('adopts the component of an interrupted create, and finds none when there is none', async () => {
    const pending = (await plan({ ...declared(), name: 'Interrupted', capabilities: ['files_cloud', 'backup'] }, null)).planned!;
    expect(infraComponent.nonIdempotentCreate).toBe(true);
    expect(await adoptResource({ ...base, ctx, pending, held: new Set() })).toEqual({ value: null, diagnostics: [] });

    // The POST reached the platform but its answer never reached the state.
    const made = await client.createInfra({
      owner_tenant_id: northwind,
      name: 'Interrupted',
      url: 'https://storage.northwind.example.com',
      capabilities: ['backup', 'files_cloud'],
      location_id: location,
      backend_type: 'acronis',
    });
    // A different component of the same owner is not mistaken for it.
    await client.createInfra({
      owner_tenant_id: northwind,
      name: 'Interrupted',
      url: 'https://other.example.com',
      capabilities: ['backup', 'files_cloud'],
      location_id: location,
    });

    const adopted = await adoptResource({ ...base, ctx, pending, held: new Set() });
    expect(adopted.diagnostics).toEqual([]);
    expect(adopted.value).toMatchObject({ id: made.id, name: 'Interrupted', version: 1 });
    expect(adopted.value).toEqual((await readResource({ ...base, ctx, state: { id: made.id } })).value);
  });
});
