import { startEmulator, type RunningEmulator } from './index';
import { createClient, TestClient } from './testing';

const LISTS = { contextKeys: [], searchableDetails: [], supportedOS: [] };

const BASE = '/api/alert_manager/v1';

describe('emulator: alerts', () => {
  let e: RunningEmulator;
  let api: TestClient;

  beforeAll(async () => {
    e = await startEmulator({ account: 'root', seed: 51 });
    api = new TestClient(e);
  });
  afterAll(() => e.close());

  test('an unknown alert type answers 404 UnknownAlertType; a registered one is returned', async () => {
    const missing = await api.get(`${BASE}/types/TenantformDrift`);
    expect(missing.status).toBe(404);
    expect(missing.json).toMatchObject({ domain: 'AlertManager', code: 'UnknownAlertType' });
    expect(missing.json).toHaveProperty('kbLink');
    expect(missing.json).toHaveProperty('debug');

    const reg = await api.post(`${BASE}/types`, {
      items: [{ id: 'TenantformDrift', severity: 'warning', enabled: true, category: 'Configuration', ...LISTS }],
    });
    expect(reg.status).toBe(204);
    const found = await api.get(`${BASE}/types/TenantformDrift`);
    expect(found.status).toBe(200);
    expect(found.json).toMatchObject({ id: 'TenantformDrift', severity: 'warning', enabled: true, category: 'Configuration' });
    expect((await api.post(`${BASE}/types`, { items: [{ severity: 'warning' }] })).status).toBe(400);
    // The reference requires the three lists.
    expect((await api.post(`${BASE}/types`, { items: [{ id: 'NoLists', severity: 'warning', enabled: true, category: 'Configuration' }] })).status).toBe(400);
  });

  test('raising an alert of an unregistered type answers 400 InvalidContext', async () => {
    const res = await api.post(`${BASE}/alerts`, { type: 'NoSuchType', tenantID: e.rootTenantId, severity: 'warning', details: {} });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ domain: 'AlertManager', code: 'InvalidContext', context: { type: 'NoSuchType' } });
    expect(Array.isArray(res.json.context.missing)).toBe(true);
  });

  test('alerts are raised (200 {id}) and listed with type, tenant and limit filters', async () => {
    await api.post(`${BASE}/types`, {
      items: [
        { id: 'DriftA', severity: 'warning', enabled: true, category: 'Configuration', ...LISTS },
        { id: 'DriftB', enabled: true, category: 'Configuration', ...LISTS },
      ],
    });
    const acme = e.world().tenants['Acme Manufacturing']?.id;
    const a1 = await api.post(`${BASE}/alerts`, { type: 'DriftA', tenantID: acme, severity: 'error', details: { resources: 3 } });
    expect(a1.status).toBe(200);
    expect(a1.json.id).toMatch(/^[0-9a-f-]{36}$/);
    await api.post(`${BASE}/alerts`, { type: 'DriftA', tenantID: e.rootTenantId, severity: 'warning', details: {} });
    await api.post(`${BASE}/alerts`, { type: 'DriftB', tenantID: e.rootTenantId, severity: 'critical', details: {} });
    expect((await api.post(`${BASE}/alerts`, { type: 'DriftB', tenantID: e.rootTenantId, severity: 'loud' })).status).toBe(400);

    const byType = await api.get(`${BASE}/alerts?type=DriftA`);
    expect(byType.status).toBe(200);
    expect(byType.json.items).toHaveLength(2);
    expect(byType.json.paging).toEqual({ cursors: {} });
    const byTenant = await api.get(`${BASE}/alerts?tenant=${acme}`);
    expect(byTenant.json.items).toHaveLength(1);
    const view = byTenant.json.items[0];
    expect(view).toMatchObject({
      id: a1.json.id,
      type: 'DriftA',
      category: 'Configuration',
      severity: 'error',
      tenant: { id: acme },
      details: { resources: 3 },
    });
    expect(view.tenant.locator).toContain(acme);
    for (const f of ['createdAt', 'updatedAt', 'receivedAt']) expect(typeof view[f]).toBe('string');
    expect((await api.get(`${BASE}/alerts?limit=1`)).json.items).toHaveLength(1);
  });

  test('a viewer may list but not raise alerts', async () => {
    const viewer = await createClient(e, ['urn:vendor::alert_manager::viewer']);
    expect((await viewer.get(`${BASE}/alerts`)).status).toBe(200);
    const res = await viewer.post(`${BASE}/alerts`, { type: 'DriftA', tenantID: e.rootTenantId, severity: 'warning', details: {} });
    expect(res.status).toBe(403);
    expect(res.json.domain).toBe('AlertManager');
  });
});

describe('emulator: alert reads the vendor clients make', () => {
  let e: RunningEmulator;
  let api: TestClient;
  const ns = (iso: string) => String(BigInt(Date.parse(iso)) * 1_000_000n);

  beforeAll(async () => {
    e = await startEmulator({ account: 'root', seed: 52 });
    api = new TestClient(e);
    await api.post(`${BASE}/types`, { items: [{ id: 'Reads', severity: 'warning', enabled: true, category: 'Configuration', ...LISTS }] });
  });
  afterAll(() => e.close());

  test('one alert by id; the registered types listed', async () => {
    const raised = await api.post(`${BASE}/alerts`, { type: 'Reads', tenantID: e.rootTenantId, severity: 'error', details: { n: 1 } });
    const one = await api.get(`${BASE}/alerts/${raised.json.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: raised.json.id, type: 'Reads', severity: 'error', details: { n: 1 } });
    expect((await api.get(`${BASE}/alerts/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const types = await api.get(`${BASE}/types`);
    expect(types.json.items.map((t: { id: string }) => t.id)).toContain('Reads');
    expect((await api.get(`${BASE}/types?os_type=linux`)).json).toMatchObject({
      context: { parameter: 'os_type' },
      debug: { msg: expect.stringMatching(/not implemented/) },
    });
  });

  test('updated_at filters on the last change (raised or dismissed) and order sorts; unimplemented filters are refused by name', async () => {
    const createdAt = (day: number) => `2026-01-0${day}T00:00:00.000Z`;
    const ids: string[] = [];
    for (const day of [3, 1, 2]) {
      ids.push((await api.post(`${BASE}/alerts`, { type: 'Reads', tenantID: e.rootTenantId, severity: 'warning', createdAt: createdAt(day) })).json.id);
    }
    const listed = async (query: string) => {
      const res = await api.get(`${BASE}/alerts?type=Reads&${query}`);
      expect(res.status).toBe(200);
      return (res.json.items as Array<{ id: string; createdAt: string }>).filter((a) => ids.includes(a.id));
    };
    expect((await listed('order=desc(created_at)')).map((a) => a.createdAt)).toEqual([createdAt(3), createdAt(2), createdAt(1)]);
    expect((await listed('order=created_at')).map((a) => a.createdAt)).toEqual([createdAt(1), createdAt(2), createdAt(3)]);
    // All three were raised now: updated at or after a moment before them.
    expect(await listed(`updated_at=ge(${ns(createdAt(4))})`)).toHaveLength(3);
    expect(await listed(`created_at=ge(${ns(createdAt(2))})`)).toHaveLength(2);
    for (const [query, named] of [
      ['source=drift', 'source'],
      ['planName=x', 'planName'],
      ['before=abc', 'before'],
    ]) {
      const refused = await api.get(`${BASE}/alerts?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.json.context.parameter).toBe(named);
    }
    expect((await api.get(`${BASE}/alerts?order=desc(colour)`)).status).toBe(400);
  });
});
