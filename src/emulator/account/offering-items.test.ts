import { useEmulator } from '../testing';
import type { OfferingItem } from '../world';

describe('emulator: offering items', () => {
  const fixture = useEmulator(32, 'root');
  const { tenant, app } = fixture;

  const items = async (tenantId: string, query = ''): Promise<Array<Record<string, any>>> =>
    (await fixture.api.get(`/api/2/tenants/${tenantId}/offering_items${query}`)).json.items;

  const TIB = 2 ** 40;
  /** The seeded storage infrastructure component (the one storage item of the root carries it). */
  const storageId = async (): Promise<string> => (await items(fixture.emulator.rootTenantId, '?usage_names=storage'))[0]?.infra_id as string;
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  test('seeded: the root has every item, partners the items of their applications with a few quotas', async () => {
    const root = await items(fixture.emulator.rootTenantId, '?edition=*');
    expect(new Set(root.map((i) => i.application_id)).size).toBeGreaterThanOrEqual(7);
    const partner = await items(tenant('Northwind Partner'));
    expect(partner.every((i) => i.application_id === app('backup'))).toBe(true);
    expect(partner.find((i) => i.name === 'storage')).toMatchObject({
      status: 1,
      type: 'infra',
      measurement_unit: 'bytes',
      infra_id: await storageId(),
      quota: { value: 10 * TIB, overage: TIB, version: 1 },
    });
    expect(partner.find((i) => i.name === 'servers')).toMatchObject({
      type: 'count',
      measurement_unit: 'quantity',
      quota: { value: null, overage: null, version: 0 },
    });
    expect(partner.find((i) => i.name === 'servers')).not.toHaveProperty('infra_id');
  });

  test('storage is offered per storage infrastructure component: type infra, in bytes, with its infra_id', async () => {
    const id = await storageId();
    expect(id).toMatch(UUID);
    const [component] = (await fixture.api.get(`/api/2/infra?uuids=${id}`)).json.items;
    expect(component).toMatchObject({
      id,
      owner_tenant_id: fixture.emulator.rootTenantId,
      platform_owned: true,
      capabilities: expect.arrayContaining(['backup', 'files_cloud']),
    });
    const root = await items(fixture.emulator.rootTenantId, '?edition=*');
    const storage = root.filter((i) => /storage/.test(i.usage_name));
    expect(storage.map((i) => i.name).sort()).toEqual(['fc_storage', 'storage', 'storage_total']);
    for (const i of storage) expect(i).toMatchObject({ type: 'infra', measurement_unit: 'bytes', infra_id: id });
    for (const i of root) expect(['bytes', 'quantity', 'seconds', 'n/a']).toContain(i.measurement_unit);
    expect(await items(fixture.emulator.rootTenantId, `?edition=*&infra_uuid=${id}`)).toHaveLength(3);
  });

  test('lists and set answers carry a timestamp beside the items', async () => {
    const list = await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/offering_items`);
    expect(list.json.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    const set = await fixture.api.put(`/api/2/tenants/${tenant('Globex Retail')}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'servers', status: 1 }],
    });
    expect(set.status).toBe(200);
    expect(set.json.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    const child = await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/offering_items/available_for_child?kind=customer`);
    expect(child.json.timestamp).toEqual(expect.any(String));
    expect(child.json.items.every((i: { tenant_id: string }) => i.tenant_id === tenant('Northwind Partner'))).toBe(true);
  });

  test('the edition defaults to standard; edition=* lists every edition', async () => {
    const standard = await items(tenant('Northwind Partner'));
    const all = await items(tenant('Northwind Partner'), '?edition=*');
    expect(standard.some((i) => i.edition === 'advanced')).toBe(false);
    expect(all.some((i) => i.name === 'workstations_advanced' && i.edition === 'advanced')).toBe(true);
    expect(await items(tenant('Northwind Partner'), '?usage_names=storage')).toHaveLength(1);
  });

  test('a storage item is named by its infra_id: without one 400 at offering_items[N].infra_id, another component 1021', async () => {
    const customer = tenant('Initech Finance');
    const missing = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [
        { application_id: app('backup'), name: 'servers', status: 1 },
        { application_id: app('backup'), name: 'storage', status: 1, quota: { value: TIB, overage: null, version: 0 } },
      ],
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error.details.info).toBe('offering_items[1].infra_id');
    const other = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'storage', infra_id: '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f', status: 1 }],
    });
    expect(other.status).toBe(400);
    expect(other.json.error).toMatchObject({ code: 1021, context: { item: { name: 'storage', infra_id: '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f' } } });
    const countWithInfra = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'servers', infra_id: await storageId(), status: 1 }],
    });
    expect(countWithInfra.json.error.code).toBe(1021);
    // Nothing of a refused request was kept.
    expect(await items(customer, '?edition=*')).toEqual([]);
  });

  test('a storage quota of 1 TiB is set in bytes on the item of its component', async () => {
    const customer = tenant('Stark Logistics');
    const id = await storageId();
    const res = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'storage', infra_id: id, status: 1, quota: { value: TIB, overage: null, version: 0 } }],
    });
    expect(res.status).toBe(200);
    expect(res.json.items).toEqual([
      {
        application_id: app('backup'),
        name: 'storage',
        edition: 'standard',
        usage_name: 'storage',
        tenant_id: customer,
        status: 1,
        type: 'infra',
        measurement_unit: 'bytes',
        infra_id: id,
        quota: { value: TIB, overage: null, version: 1 },
      },
    ]);
    const again = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'storage', infra_id: id, quota: { value: 2 * TIB, overage: null, version: 1 } }],
    });
    expect(again.json.items).toHaveLength(1);
    expect(again.json.items[0].quota).toEqual({ value: 2 * TIB, overage: null, version: 2 });
  });

  test('set items: named items change, others stay; quota versions are checked (409 code 1001)', async () => {
    const customer = tenant('Acme Manufacturing');
    const infra_id = await storageId();
    const on = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'storage', infra_id, status: 1, quota: { value: 100 * TIB, overage: 10 * TIB, version: 0 } }],
    });
    expect(on.status).toBe(200);
    expect(on.json.items).toEqual([
      expect.objectContaining({ name: 'storage', infra_id, status: 1, tenant_id: customer, quota: { value: 100 * TIB, overage: 10 * TIB, version: 1 } }),
    ]);
    const second = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'servers', status: 1 }],
    });
    expect(second.json.items.map((i: { name: string }) => i.name).sort()).toEqual(['servers', 'storage']);
    const stale = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'storage', infra_id, quota: { value: 200, overage: null, version: 0 } }],
    });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({ code: 1001, context: { version: 1, requested_version: 0 } });
    const bad = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'storage', infra_id, quota: { value: -1, version: 1 } }],
    });
    expect(bad.json.error.details.info).toBe('offering_items[0].quota.value');
  });

  test('an item the parent does not have on answers 400 code 1021 with the item in the context', async () => {
    const res = await fixture.api.put(`/api/2/tenants/${tenant('Acme Manufacturing')}/offering_items`, {
      offering_items: [{ application_id: app('monitoring'), name: 'monitored_workloads', status: 1 }],
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: 1021,
      context: { tenant_id: tenant('Acme Manufacturing'), item: { application_id: app('monitoring'), name: 'monitored_workloads' } },
    });
    const unknown = await fixture.api.put(`/api/2/tenants/${tenant('Acme Manufacturing')}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'no_such_item', status: 1 }],
    });
    expect(unknown.json.error.code).toBe(1021);
  });

  test('available_for_child lists what the tenant has on, as live does: on, unlimited, unlocked; kind is optional', async () => {
    const res = await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/offering_items/available_for_child?kind=customer&edition=*`);
    expect(res.status).toBe(200);
    expect(res.json.items.map((i: { name: string }) => i.name)).toContain('workstations_advanced');
    for (const item of res.json.items) expect(item).toMatchObject({ status: 1, quota: { value: null, overage: null, version: 0 }, locked: false });
    const anyKind = await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/offering_items/available_for_child?edition=*`);
    expect(anyKind.json.items).toEqual(res.json.items);
    expect((await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/offering_items/available_for_child?kind=galaxy`)).status).toBe(400);
  });

  test("the vendor's canonical flow: everything available to a new customer, put back as listed, turns it all on", async () => {
    const partner = tenant('Northwind Partner');
    const customer = (await fixture.api.post('/api/2/tenants', { name: 'Canonical Flow Customer', parent_id: partner, kind: 'customer' })).json.id;
    const available = (await fixture.api.get(`/api/2/tenants/${partner}/offering_items/available_for_child?kind=customer&edition=*`)).json;
    // As the vendor's example sends it: the listing's timestamp, and every item with its read-only members.
    const put = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, { timestamp: available.timestamp, offering_items: available.items });
    expect(put.status).toBe(200);
    const on = await items(customer, '?edition=*&status=1');
    expect(on.map((i) => `${i.name}/${i.infra_id ?? ''}`).sort()).toEqual(available.items.map((i: OfferingItem) => `${i.name}/${i.infra_id ?? ''}`).sort());
    // A member the platform does not have is still refused, naming it.
    const odd = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, { offering_items: [{ ...available.items[0], colour: 'red' }] });
    expect(odd.json.error.details.info).toBe('offering_items[0].colour');
  });

  test('lists the current editions, and refuses one the platform does not offer', async () => {
    for (const edition of ['per_workload', 'pck_per_gigabyte', 'pck_per_workload']) {
      expect((await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/offering_items?edition=${edition}`)).status).toBe(200);
    }
    const unknown = await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/offering_items?edition=premium`);
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.details.info).toBe('edition');
  });
});

describe("emulator: switching a service's edition, as the vendor's guide does", () => {
  const fixture = useEmulator(36, 'root');
  const { tenant, app } = fixture;
  const items = async (tenantId: string) =>
    ((await fixture.api.get(`/api/2/tenants/${tenantId}/offering_items?edition=*&status=1`)).json.items as OfferingItem[]).filter(
      (i) => i.application_id === app('backup') && i.infra_id === undefined,
    );

  test('moves each item that is on to its counterpart in the target edition, switches off those without one, and back', async () => {
    const acme = tenant('Acme Manufacturing');
    await fixture.api.put(`/api/2/tenants/${acme}/offering_items`, {
      offering_items: ['workstations', 'servers'].map((name) => ({ application_id: app('backup'), name, status: 1 })),
    });
    const advanced = await fixture.api.put(`/api/2/tenants/${acme}/edition`, { target_edition: 'advanced', application_id: app('backup') });
    expect(advanced.status).toBe(200);
    expect((await items(acme)).map((i) => `${i.name}:${i.edition}`)).toEqual(['workstations_advanced:advanced']);
    expect((await fixture.api.get(`/api/2/tenants/${acme}/edition`)).json.items).toContainEqual({ application_id: app('backup'), edition: 'advanced' });
    await fixture.api.put(`/api/2/tenants/${acme}/edition`, { target_edition: 'standard', application_id: app('backup') });
    expect((await items(acme)).map((i) => `${i.name}:${i.edition}`)).toEqual(['workstations:standard']);
  });

  test('refuses an edition the platform does not offer and a service without editions', async () => {
    const acme = tenant('Acme Manufacturing');
    expect((await fixture.api.put(`/api/2/tenants/${acme}/edition`, { target_edition: 'gold', application_id: app('backup') })).json.error.details.info).toBe(
      'target_edition',
    );
    expect(
      (await fixture.api.put(`/api/2/tenants/${acme}/edition`, { target_edition: 'advanced', application_id: app('platform') })).json.error.details.info,
    ).toBe('application_id');
  });
});
