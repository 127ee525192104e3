import { useEmulator } from '../testing';

describe("emulator: the reads of a tenant's surroundings the vendor's clients make", () => {
  const fixture = useEmulator(34, 'root');
  const { tenant, app } = fixture;

  test("a tenant's children, deleted ones with allow_deleted; an unimplemented parameter refused by name", async () => {
    const partner = tenant('Northwind Partner');
    const res = await fixture.api.get(`/api/2/tenants/${partner}/children`);
    expect(res.status).toBe(200);
    expect(res.json.items).toEqual(expect.arrayContaining([tenant('Acme Manufacturing'), tenant('Globex Retail')]));
    const made = (await fixture.api.post('/api/2/tenants', { name: 'Short-lived Customer', parent_id: partner, kind: 'customer' })).json;
    expect((await fixture.api.get(`/api/2/tenants/${partner}/children`)).json.items).toContain(made.id);
    const off = await fixture.api.put(`/api/2/tenants/${made.id}`, { version: made.version, enabled: false });
    expect((await fixture.api.delete(`/api/2/tenants/${made.id}?version=${off.json.version}`)).status).toBe(204);
    expect((await fixture.api.get(`/api/2/tenants/${partner}/children`)).json.items).not.toContain(made.id);
    expect((await fixture.api.get(`/api/2/tenants/${partner}/children?allow_deleted=true`)).json.items).toContain(made.id);
    const ordered = await fixture.api.get(`/api/2/tenants/${partner}/children?order=name`);
    expect(ordered.status).toBe(400);
    expect(ordered.json.error.details.info).toBe('order');
  });

  test("a tenant's usages, one per offering item, and several tenants' at once; never taken for a tenant named usages", async () => {
    const partner = tenant('Northwind Partner');
    const own = await fixture.api.get(`/api/2/tenants/${partner}/usages`);
    expect(own.status).toBe(200);
    const items = (await fixture.api.get(`/api/2/tenants/${partner}/offering_items?edition=*`)).json.items;
    expect(own.json.items).toHaveLength(items.length);
    for (const u of own.json.items) expect(u).toMatchObject({ tenant_id: partner, value: 0, absolute_value: 0, offering_item: { status: expect.any(Number) } });
    const acme = await fixture.api.put(`/api/2/tenants/${tenant('Acme Manufacturing')}/offering_items`, {
      offering_items: [{ application_id: app('backup'), name: 'servers', status: 1 }],
    });
    expect(acme.status).toBe(200);
    const both = await fixture.api.get(`/api/2/tenants/usages?tenants=${partner},${tenant('Acme Manufacturing')}`);
    expect(both.status).toBe(200);
    expect(new Set(both.json.items.map((u: { tenant_id: string }) => u.tenant_id))).toEqual(new Set([partner, tenant('Acme Manufacturing')]));
    expect((await fixture.api.get('/api/2/tenants/usages')).json.error.details.info).toBe('tenants');
  });

  test('one infrastructure component by id', async () => {
    const made = await fixture.api.post('/api/2/infra', {
      owner_tenant_id: tenant('Northwind Partner'),
      name: 'Read by id',
      url: 'https://read-by-id.example.com',
      capabilities: ['backup'],
      location_id: '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f',
    });
    const one = await fixture.api.get(`/api/2/infra/${made.json.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: made.json.id, name: 'Read by id' });
    expect((await fixture.api.get('/api/2/infra/00000000-0000-4000-8000-000000000000')).json.error.code).toBe('infra_not_found');
  });
});

describe('emulator: locations and stored reports', () => {
  const fixture = useEmulator(35, 'root');

  test("the caller's locations; a report's stored reports (none: the emulator generates none)", async () => {
    const locations = await fixture.api.get('/api/2/locations');
    expect(locations.status).toBe(200);
    expect(locations.json.items[0]).toMatchObject({ id: expect.any(String), owner_tenant_id: fixture.emulator.rootTenantId });
    const report = await fixture.api.post('/api/2/reports', {
      result_action: 'save',
      parameters: { tenant_id: fixture.tenant('Acme Manufacturing'), kind: 'usage_summary', level: 'accounts' },
      schedule: { type: 'monthly' },
    });
    expect((await fixture.api.get(`/api/2/reports/${report.json.id}/stored`)).json).toEqual({ items: [] });
    expect((await fixture.api.get(`/api/2/reports/${report.json.id}/stored/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fixture.api.get('/api/2/reports/00000000-0000-4000-8000-000000000000/stored')).status).toBe(404);
  });
});
