import { useEmulator } from '../testing';

describe('emulator: offering items', () => {
  const fixture = useEmulator(32);
  const { tenant, app } = fixture;

  const items = async (tenantId: string, query = ''): Promise<Array<Record<string, any>>> => (await fixture.api.get(`/api/2/tenants/${tenantId}/offering_items${query}`)).json.items;

  test('seeded: the root has every item, partners the items of their applications with a few quotas', async () => {
    const root = await items(fixture.emulator.rootTenantId, '?edition=*');
    expect(new Set(root.map((i) => i.application_id)).size).toBeGreaterThanOrEqual(7);
    const partner = await items(tenant('Northwind Partner'));
    expect(partner.every((i) => i.application_id === app('backup'))).toBe(true);
    expect(partner.find((i) => i.name === 'storage')).toMatchObject({ status: 1, type: 'count', quota: { value: 10240, overage: 1024, version: 1 } });
    expect(partner.find((i) => i.name === 'servers')?.quota).toEqual({ value: null, overage: null, version: 0 });
  });

  test('the edition defaults to standard; edition=* lists every edition', async () => {
    const standard = await items(tenant('Northwind Partner'));
    const all = await items(tenant('Northwind Partner'), '?edition=*');
    expect(standard.some((i) => i.edition === 'advanced')).toBe(false);
    expect(all.some((i) => i.name === 'workstations_advanced' && i.edition === 'advanced')).toBe(true);
    expect(await items(tenant('Northwind Partner'), '?usage_names=storage')).toHaveLength(1);
  });

  test('set items: named items change, others stay; quota versions are checked (409 code 1001)', async () => {
    const customer = tenant('Acme Manufacturing');
    const on = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'storage', status: 1, quota: { value: 100, overage: 10, version: 0 } }],
    });
    expect(on.status).toBe(200);
    expect(on.json.items).toEqual([expect.objectContaining({ name: 'storage', status: 1, tenant_id: customer, quota: { value: 100, overage: 10, version: 1 } })]);
    const second = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, { offering_items: [{ application_id: app('backup'), name: 'servers', status: 1 }] });
    expect(second.json.items.map((i: { name: string }) => i.name).sort()).toEqual(['servers', 'storage']);
    const stale = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'storage', quota: { value: 200, overage: null, version: 0 } }],
    });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({ code: 1001, context: { version: 1, requested_version: 0 } });
    const bad = await fixture.api.put(`/api/2/tenants/${customer}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'storage', quota: { value: -1, version: 1 } }],
    });
    expect(bad.json.error.details.info).toBe('offering_items[0].quota.value');
  });

  test('an item the parent does not have on answers 400 code 1021 with the item in the context', async () => {
    const res = await fixture.api.put(`/api/2/tenants/${tenant('Acme Manufacturing')}/offering_items`, {
      offering_items: [{ application_id: app('monitoring'), name: 'monitored_workloads', status: 1 }],
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 1021, context: { tenant_id: tenant('Acme Manufacturing'), item: { application_id: app('monitoring'), name: 'monitored_workloads' } } });
    const unknown = await fixture.api.put(`/api/2/tenants/${tenant('Acme Manufacturing')}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'no_such_item', status: 1 }],
    });
    expect(unknown.json.error.code).toBe(1021);
  });

  test('available_for_child lists what the tenant has on', async () => {
    const res = await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/offering_items/available_for_child?kind=customer&edition=*`);
    expect(res.status).toBe(200);
    expect(res.json.items.map((i: { name: string }) => i.name)).toContain('workstations_advanced');
    expect((await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/offering_items/available_for_child`)).status).toBe(400);
  });
});
