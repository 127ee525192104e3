import { emulatorEnvLines, startEmulator, type RunningEmulator } from './index';
import { call, createClient, issueToken, TestClient } from './testing';

describe('emulator authentication and gateway rules', () => {
  let e: RunningEmulator;
  let admin: TestClient;
  const logLines: string[] = [];

  beforeAll(async () => {
    e = await startEmulator({ seed: 11, log: (l) => logLines.push(l) });
    admin = new TestClient(e);
  });
  afterAll(() => e.close());

  test('emulatorEnvLines prints exactly the four export lines', () => {
    const lines = emulatorEnvLines(e);
    expect(lines).toEqual([
      `export TENANTFORM_BASE_URL=${e.url}`,
      `export TENANTFORM_CLIENT_ID=${e.clientId}`,
      `export TENANTFORM_CLIENT_SECRET=${e.clientSecret}`,
      `export TENANTFORM_TENANT_ID=${e.tenantId}`,
    ]);
    expect(e.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(e.clientId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('both token endpoints issue a bearer token with an expiry two hours ahead', async () => {
    for (const path of ['/api/2/idp/token', '/bc/idp/token']) {
      const res = await call(e.url, 'POST', path, {
        raw: 'grant_type=client_credentials',
        contentType: 'application/x-www-form-urlencoded',
        headers: { authorization: `Basic ${Buffer.from(`${e.clientId}:${e.clientSecret}`).toString('base64')}` },
      });
      expect(res.status).toBe(200);
      expect(res.json.token_type).toBe('bearer');
      expect(typeof res.json.access_token).toBe('string');
      expect(typeof res.json.id_token).toBe('string');
      const now = Date.now() / 1000;
      expect(res.json.expires_on).toBeGreaterThan(now + 7190);
      expect(res.json.expires_on).toBeLessThan(now + 7210);
    }
  });

  test('wrong credentials and a wrong grant type are refused', async () => {
    const bad = await issueToken(e.url, e.clientId, 'not-the-secret');
    expect(bad.status).toBe(401);
    expect(bad.json).toEqual({ error: 'access_denied', error_description: 'Invalid client credentials' });
    const grant = await call(e.url, 'POST', '/api/2/idp/token', {
      raw: 'grant_type=password',
      contentType: 'application/x-www-form-urlencoded',
      headers: { authorization: `Basic ${Buffer.from(`${e.clientId}:${e.clientSecret}`).toString('base64')}` },
    });
    expect(grant.status).toBe(400);
    expect(grant.json).toMatchObject({ error: 'invalid_request' });
  });

  test('a disabled client cannot obtain a token', async () => {
    const res = await call(e.url, 'POST', '/_emulator/clients', { body: { scopes: [], status: 'disabled' } });
    const token = await issueToken(e.url, res.json.client_id, res.json.client_secret);
    expect(token.status).toBe(401);
  });

  test('a missing or unknown token answers 401 in each interface shape (event manager: 403 bearerTokenMissing when absent)', async () => {
    const account = await call(e.url, 'GET', '/api/2/applications');
    expect(account.status).toBe(401);
    expect(account.json.error.code).toBe('unauthorized');
    expect(account.json.error.details).toHaveProperty('info');

    const agent = await call(e.url, 'GET', '/api/agent_manager/v2/agents', { token: 'nope' });
    expect(agent.status).toBe(401);
    expect(agent.json).toMatchObject({ domain: 'GENERAL', code: 'UNAUTHORIZED_REQUEST' });
    expect(agent.json.debug).toHaveProperty('msg');

    const eventsUnknown = await call(e.url, 'GET', '/api/event_manager/v1/topics', { token: 'nope' });
    expect(eventsUnknown.status).toBe(401);
    expect(eventsUnknown.json.error).toMatchObject({ domain: 'EventManager', code: 'accessDenied' });
    const eventsMissing = await call(e.url, 'GET', '/api/event_manager/v1/topics');
    expect(eventsMissing.status).toBe(403);
    expect(eventsMissing.json.error.code).toBe('bearerTokenMissing');

    const alerts = await call(e.url, 'GET', '/api/alert_manager/v1/alerts', { token: 'nope' });
    expect(alerts.status).toBe(401);
    expect(alerts.headers['content-type']).toMatch(/^text\/plain/);
    expect(alerts.json).toBeUndefined();
  });

  test('an expired token answers 401', async () => {
    e.setFaults({ token_lifetime_seconds: 1 });
    try {
      const res = await issueToken(e.url, e.clientId, e.clientSecret);
      expect(res.status).toBe(200);
      expect(res.json.expires_on).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
      const token = res.json.access_token as string;
      expect((await call(e.url, 'GET', '/api/2/applications', { token })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1100));
      const expired = await call(e.url, 'GET', '/api/2/applications', { token });
      expect(expired.status).toBe(401);
      expect(expired.json.error.message).toMatch(/expired/);
    } finally {
      e.setFaults({ token_lifetime_seconds: 7200 });
    }
  });

  test('the token may also come in the access_token query parameter of account management, never both', async () => {
    const token = await admin.accessToken();
    expect((await call(e.url, 'GET', `/api/2/applications?access_token=${token}`)).status).toBe(200);
    expect((await call(e.url, 'GET', `/api/2/applications?access_token=${token}`, { token })).status).toBe(400);
    expect(logLines.some((l) => l.includes(token))).toBe(false);
  });

  test('a client without the required scope gets 403 in each interface shape', async () => {
    const viewer = await createClient(e, ['urn:vendor::account-server::tenant_viewer']);
    expect((await viewer.get('/api/2/applications')).status).toBe(200);
    const world = e.world();
    const bind = await viewer.post(`/api/2/applications/${world.applications.monitoring?.id}/bindings/tenants/${world.tenants['Northwind Partner']?.id}`);
    expect(bind.status).toBe(403);
    expect(bind.json.error.code).toBe('access_denied');

    const agents = await viewer.get('/api/agent_manager/v2/agents');
    expect(agents.status).toBe(403);
    expect(agents.json).toMatchObject({ domain: 'AGENT_MANAGER', code: 'ACCESS_DENIED' });

    const topics = await viewer.get('/api/event_manager/v1/topics');
    expect(topics.status).toBe(403);
    expect(topics.json.error.domain).toBe('EventManager');

    const alerts = await viewer.get('/api/alert_manager/v1/alerts');
    expect(alerts.status).toBe(403);
    expect(alerts.json.domain).toBe('AlertManager');

    // an event manager scope with a CTI query of its own is accepted
    const subscriber = await createClient(e, ['urn:vendor:event_manager:cti.a.p.em.topic.v1.0~a.p.tenant.*:subscriber']);
    expect((await subscriber.get('/api/event_manager/v1/topics')).status).toBe(200);
  });

  test('a non-JSON body to a JSON endpoint answers 415 invalid_content_type', async () => {
    const world = e.world();
    const settingPath = `/api/2/applications/${world.applications.backup?.id}/settings/tenants/${e.rootTenantId}/retention_days`;
    const res = await admin.call('PUT', settingPath, { raw: 'value=3', contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
    expect(res.json.error.code).toBe('invalid_content_type');
    const agents = await admin.call('PUT', '/api/agent_manager/v2/agent_update_settings', { raw: '{}', contentType: 'text/plain' });
    expect(agents.status).toBe(415);
    expect(agents.json.domain).toBe('AGENT_MANAGER');
    const subs = await admin.call('POST', '/api/event_manager/v1/subscriptions', { raw: '{}', contentType: 'text/plain' });
    expect(subs.status).toBe(415);
    expect(subs.json.error.domain).toBe('EventManager');
    const malformed = await admin.call('PUT', settingPath, { raw: '{"value":', contentType: 'application/json' });
    expect(malformed.status).toBe(400);
  });

  test('an unknown operation answers 404 in the interface shape', async () => {
    const res = await admin.get('/api/2/no_such_thing');
    expect(res.status).toBe(404);
    expect(res.json.error).toBeDefined();
  });

  test('the request log has one line per request with method, path, status and time', () => {
    expect(logLines.some((l) => /^GET \/api\/2\/applications 200 \d+ms$/.test(l))).toBe(true);
    expect(logLines.some((l) => /^POST \/api\/2\/idp\/token 401 \d+ms$/.test(l))).toBe(true);
    expect(logLines.some((l) => l.includes(e.clientSecret))).toBe(false);
  });
});
