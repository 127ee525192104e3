import { startEmulator, type RunningEmulator } from './index';
import { call, issueToken, TestClient } from './testing';

describe('emulator: fault injection and control endpoints', () => {
  let e: RunningEmulator;
  let api: TestClient;

  beforeAll(async () => {
    e = await startEmulator({ account: 'root', seed: 61 });
    api = new TestClient(e);
    await api.accessToken();
  });
  afterEach(() => e.setFaults({ latency_ms: 0, rate_429: 0, rate_5xx: 0, drop_rate: 0, retry_after_seconds: 1 }));
  afterAll(() => e.close());

  test('429 carries Retry-After, and context.retry_after where the body has a context', async () => {
    e.setFaults({ rate_429: 1, retry_after_seconds: 7 });
    const account = await api.get('/api/2/applications');
    expect(account.status).toBe(429);
    expect(account.headers['retry-after']).toBe('7');
    expect(account.json.error.context.retry_after).toBe(7);
    const agents = await api.get('/api/agent_manager/v2/agents');
    expect(agents.status).toBe(429);
    expect(agents.headers['retry-after']).toBe('7');
    expect(agents.json.domain).toBe('AGENT_MANAGER');
    const alerts = await api.get('/api/alert_manager/v1/alerts');
    expect(alerts.headers['retry-after']).toBe('7');
    expect(alerts.json.context.retry_after).toBe(7);
    const events = await api.get('/api/event_manager/v1/topics');
    expect(events.status).toBe(429);
    expect(events.json.error.domain).toBe('EventManager');
    // the token endpoint is never throttled
    expect((await issueToken(e.url, e.clientId, e.clientSecret)).status).toBe(200);
  });

  test('5xx faults answer 500, 502, 503 or 504 in the interface shape', async () => {
    e.setFaults({ rate_5xx: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 24; i++) {
      const res = await api.get('/api/2/applications');
      statuses.add(res.status);
      expect(res.json.error.domain).toBe('PlatformAccountServer');
    }
    for (const s of statuses) expect([500, 502, 503, 504]).toContain(s);
    expect(statuses.size).toBeGreaterThan(1);
  });

  test('a dropped connection closes the socket without a response', async () => {
    e.setFaults({ drop_rate: 1 });
    await expect(api.get('/api/2/applications')).rejects.toThrow();
    e.setFaults({ drop_rate: 0 });
    expect((await api.get('/api/2/applications')).status).toBe(200);
  });

  test('latency delays /api responses', async () => {
    e.setFaults({ latency_ms: 150 });
    const started = Date.now();
    expect((await api.get('/api/2/applications')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  test('fault decisions are deterministic under a seed', async () => {
    const run = async (seed: number): Promise<number[]> => {
      const em = await startEmulator({ account: 'root', seed, faults: { rate_429: 0.3, rate_5xx: 0.3 } });
      try {
        const client = new TestClient(em);
        const out: number[] = [];
        for (let i = 0; i < 40; i++) out.push((await client.get('/api/2/applications')).status);
        return out;
      } finally {
        await em.close();
      }
    };
    const a = await run(99);
    const b = await run(99);
    const c = await run(100);
    expect(a).toEqual(b);
    expect(new Set(a).has(200)).toBe(true);
    expect(a.some((s) => s === 429)).toBe(true);
    expect(a.some((s) => s >= 500)).toBe(true);
    expect(c).not.toEqual(a);
  });

  test('faults are read and changed through the control endpoints; absent members stay unchanged', async () => {
    const put = await call(e.url, 'PUT', '/_emulator/faults', { body: { rate_429: 0.5 } });
    expect(put.status).toBe(200);
    const got = await call(e.url, 'GET', '/_emulator/faults');
    expect(got.json).toEqual({
      latency_ms: 0,
      rate_429: 0.5,
      retry_after_seconds: 1,
      rate_5xx: 0,
      drop_rate: 0,
      lost_answer_rate: 0,
      token_lifetime_seconds: 7200,
      limit_per_second: 0,
      limit_burst: 0,
    });
    expect((await call(e.url, 'PUT', '/_emulator/faults', { body: { rate_429: 2 } })).status).toBe(400);
    expect((await call(e.url, 'PUT', '/_emulator/faults', { body: { nonsense: 1 } })).status).toBe(400);
    e.setFaults({ rate_429: 0 });
  });

  test('the world summary and reset', async () => {
    const world = await call(e.url, 'GET', '/_emulator/world');
    expect(world.status).toBe(200);
    expect(world.json.rootTenantId).toBe(e.rootTenantId);
    expect(world.json.tenants['Initech Finance']).toMatchObject({ kind: 'customer', parent_id: world.json.tenants['Northwind Partner'].id });
    expect(world.json.applications.backup.name).toBe('Cyber Protection');
    expect(world.json.agents['Acme Manufacturing']).toHaveLength(3);

    const created = await api.post('/api/2/infra', {
      owner_tenant_id: e.rootTenantId,
      location_id: '11111111-2222-4333-8444-555555555555',
      name: 'x',
      url: 'https://x',
      capabilities: [],
    });
    expect(created.status).toBe(201);
    const reset = await call(e.url, 'POST', '/_emulator/reset');
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual(world.json);
    expect((await api.get(`/api/2/infra?uuids=${created.json.id}`)).status).toBe(404);
  });
});
