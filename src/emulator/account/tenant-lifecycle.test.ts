import { TestClient, useEmulator } from '../testing';

describe('emulator: tenant lifecycle', () => {
  const fixture = useEmulator(31, 'root');
  const { tenant } = fixture;

  const create = (body: Record<string, unknown>) => fixture.api.post('/api/2/tenants', body);

  test('create answers 201 with the whole tenant at version 1; the schema is closed; name, parent and kind are required', async () => {
    const res = await create({
      name: 'Contoso',
      parent_id: tenant('Northwind Partner'),
      kind: 'customer',
      language: 'de',
      contact: { email: 'it@contoso.example', types: ['primary'] },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: 'Contoso',
      kind: 'customer',
      version: 1,
      enabled: true,
      language: 'de',
      pricing_mode: 'trial',
      has_children: false,
    });
    // The contact as the reference answers it: every required member, unset ones null.
    expect(res.json.contact).toMatchObject({ id: expect.any(String), email: 'it@contoso.example', types: ['primary'], firstname: null, lastname: null });
    const read = await fixture.api.get(`/api/2/tenants/${res.json.id}`);
    expect(read.json).toMatchObject({ id: res.json.id, version: 1 });

    const unknown = await create({ name: 'X', parent_id: tenant('Northwind Partner'), kind: 'customer', version: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: 400, details: { info: 'version' } });
    const missing = await create({ parent_id: tenant('Northwind Partner'), kind: 'customer' });
    expect(missing.json.error.details.info).toBe('name');
    const badKind = await create({ name: 'U', parent_id: tenant('Northwind Partner'), kind: 'unit' });
    expect(badKind.status).toBe(400);
    expect(badKind.json.error.details.info).toBe('kind');
    const noParent = await create({ name: 'Y', parent_id: '00000000-0000-4000-8000-000000000000', kind: 'customer' });
    expect(noParent.status).toBe(404);
    expect(noParent.json.error.code).toBe(1104);
  });

  test('a sibling with the same name answers 409 code 1004', async () => {
    const res = await create({ name: 'Globex Retail', parent_id: tenant('Northwind Partner'), kind: 'customer' });
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: 1004, context: { name: 'Globex Retail' } });
  });

  test('update needs the current version: members sent change, a stale version answers 409 code 1001', async () => {
    const t = (await create({ name: 'Versioned', parent_id: tenant('Northwind Partner'), kind: 'customer', contact: { email: 'a@b.example', city: 'Oslo' } }))
      .json;
    const noVersion = await fixture.api.put(`/api/2/tenants/${t.id}`, { name: 'Renamed' });
    expect(noVersion.status).toBe(400);
    expect(noVersion.json.error.details.info).toBe('version');
    const ok = await fixture.api.put(`/api/2/tenants/${t.id}`, { version: 1, internal_tag: 'gold', contact: { city: 'Bergen' } });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ version: 2, internal_tag: 'gold', name: 'Versioned', contact: { email: 'a@b.example', city: 'Bergen' } });
    const stale = await fixture.api.put(`/api/2/tenants/${t.id}`, { version: 1, name: 'Lost update' });
    expect(stale.status).toBe(409);
    expect(stale.json.error).toMatchObject({ code: 1001, context: { id: t.id, version: 2, requested_version: 1 } });
    const kind = await fixture.api.put(`/api/2/tenants/${t.id}`, { version: 2, kind: 'partner' });
    expect(kind.json.error.details.info).toBe('kind');
  });

  test('delete: an enabled tenant answers 409 code 1006; disabled, it goes with its sub-tenants, users and items', async () => {
    const t = (await create({ name: 'Leaving', parent_id: tenant('Northwind Partner'), kind: 'customer' })).json;
    const unit = (await create({ name: 'Leaving unit', parent_id: t.id, kind: 'unit' })).json;
    const user = (await fixture.api.post('/api/2/users', { tenant_id: unit.id, login: 'leaving-admin' })).json;
    const enabled = await fixture.api.delete(`/api/2/tenants/${t.id}?version=1`);
    expect(enabled.status).toBe(409);
    expect(enabled.json.error).toMatchObject({ code: 1006, context: { id: t.id } });
    const disabled = await fixture.api.put(`/api/2/tenants/${t.id}`, { version: 1, enabled: false });
    expect(disabled.json.version).toBe(2);
    expect((await fixture.api.delete(`/api/2/tenants/${t.id}?version=1`)).json.error.code).toBe(1001);
    expect((await fixture.api.delete(`/api/2/tenants/${t.id}`)).json.error.details.info).toBe('version');
    expect((await fixture.api.delete(`/api/2/tenants/${t.id}?version=2`)).status).toBe(204);
    expect((await fixture.api.get(`/api/2/tenants/${t.id}`)).status).toBe(404);
    expect((await fixture.api.get(`/api/2/tenants/${unit.id}`)).status).toBe(404);
    expect((await fixture.api.get(`/api/2/users/${user.id}`)).status).toBe(404);
    const soft = await fixture.api.get(`/api/2/tenants/${t.id}?allow_deleted=true`);
    expect(soft.status).toBe(200);
    expect(typeof soft.json.deleted_at).toBe('string');
  });

  test('pricing: customers only (403 otherwise), its own version, trial to production once and never back', async () => {
    const t = (await create({ name: 'Trialist', parent_id: tenant('Northwind Partner'), kind: 'customer' })).json;
    const pricing = await fixture.api.get(`/api/2/tenants/${t.id}/pricing`);
    // A trial answers the day it ends, as live does (the vendor's example reads it).
    const trialEnd = new Date(Date.parse(t.created_at) + 30 * 86_400_000).toISOString();
    expect(pricing.json).toEqual({ mode: 'trial', currency: 'USD', version: 1, production_start_date: trialEnd });
    // Put back as read, as the vendor's example does: accepted.
    expect((await fixture.api.put(`/api/2/tenants/${t.id}/pricing`, { ...pricing.json, currency: 'USD' })).status).toBe(200);
    expect((await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/pricing`)).status).toBe(403);
    const prod = await fixture.api.put(`/api/2/tenants/${t.id}/pricing`, { version: 2, mode: 'production' });
    expect(prod.status).toBe(200);
    expect(prod.json).toMatchObject({ mode: 'production', version: 3 });
    // The reference: a date-time.
    expect(prod.json.production_start_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    const back = await fixture.api.put(`/api/2/tenants/${t.id}/pricing`, { version: 3, mode: 'trial' });
    expect(back.status).toBe(409);
    expect(back.json.error.code).toBe('conflict');
    expect((await fixture.api.put(`/api/2/tenants/${t.id}/pricing`, { version: 1, currency: 'EUR' })).json.error.code).toBe(1001);
    const tenantNow = await fixture.api.get(`/api/2/tenants/${t.id}`);
    expect(tenantNow.json).toMatchObject({ pricing_mode: 'production', version: 1 });
  });

  test("update_lock takes the string boolean the vendor's example sends", async () => {
    const t = (await create({ name: 'String Lock', parent_id: tenant('Northwind Partner'), kind: 'customer', update_lock: { enabled: 'true' } })).json;
    expect(t.update_lock).toEqual({ enabled: true, owner_id: fixture.emulator.rootTenantId });
    const off = await fixture.api.put(`/api/2/tenants/${t.id}`, { version: t.version, update_lock: { enabled: 'false' } });
    expect(off.json.update_lock).toEqual({ enabled: false, owner_id: null });
    expect((await fixture.api.put(`/api/2/tenants/${t.id}`, { version: off.json.version, update_lock: { enabled: 'yes' } })).status).toBe(400);
  });

  test('an update lock lets only the locking tenant change the tenant (403 code 1012)', async () => {
    const t = (await create({ name: 'Locked', parent_id: tenant('Northwind Partner'), kind: 'customer', update_lock: { enabled: true } })).json;
    expect(t.update_lock).toEqual({ enabled: true, owner_id: fixture.emulator.rootTenantId });
    const partnerClient = (await fixture.api.post('/api/2/clients', { tenant_id: tenant('Northwind Partner') })).json;
    const partner = new TestClient(fixture.emulator, partnerClient.client_id, partnerClient.client_secret);
    const refused = await partner.put(`/api/2/tenants/${t.id}`, { version: 1, name: 'Mine now' });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe(1012);
    expect((await fixture.api.put(`/api/2/tenants/${t.id}`, { version: 1, name: 'Still ours' })).status).toBe(200);
  });

  test('a tenant moved to another parent is listed under its new parent only', async () => {
    const moving = (await create({ name: 'Moving Co', parent_id: tenant('Northwind Partner'), kind: 'customer' })).json;
    const children = async (parent: string) =>
      ((await fixture.api.get(`/api/2/tenants?parent_id=${parent}`)).json.items as Array<{ id: string }>).map((t) => t.id);
    expect(await children(tenant('Northwind Partner'))).toContain(moving.id);
    const target = (await create({ name: 'Target Partner', parent_id: fixture.world.rootTenantId, kind: 'partner' })).json;
    const moved = await fixture.api.put(`/api/2/tenants/${moving.id}`, { version: moving.version, parent_id: target.id });
    expect(moved.status).toBe(200);
    expect(await children(tenant('Northwind Partner'))).not.toContain(moving.id);
    expect(await children(target.id)).toEqual([moving.id]);
  });
});
