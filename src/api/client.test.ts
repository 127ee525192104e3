/**
 * The platform client against the emulator, over real HTTP on loopback: each endpoint's success
 * and error paths.
 */
import { randomUUID } from 'node:crypto';
import { startEmulator } from '../emulator';
import { isConflict, isNotFound, PlatformClient, PlatformError, PoolRegistry, type ClientEvent } from './index';
import { allowRefusedRequests } from '../../test/contract/refusals';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
type World = ReturnType<Emulator['world']>;

let emu: Emulator;
let world: World;
let client: PlatformClient;
const events: ClientEvent[] = [];

const FAST = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxElapsedMs: 5_000 };

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  world = emu.world();
  client = new PlatformClient({
    baseUrl: emu.url,
    clientId: emu.clientId,
    clientSecret: emu.clientSecret,
    retry: FAST,
    onEvent: (e) => events.push(e),
  });
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
});

const tenant = (name: string): string => {
  const t = world.tenants[name];
  if (!t) throw new Error(`no tenant ${name} in the seed world`);
  return t.id;
};
const app = (type: string): string => {
  const a = world.applications[type];
  if (!a) throw new Error(`no application ${type} in the seed world`);
  return a.id;
};

async function failure(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PlatformError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('applications and bindings', () => {
  test('list and get applications', async () => {
    const apps = await client.listApplications();
    expect(apps.length).toBeGreaterThan(0);
    const backup = apps.find((a) => a.type === 'backup');
    expect(backup?.id).toBe(app('backup'));
    const one = await client.getApplication(app('backup'));
    expect(one).toMatchObject({ id: app('backup'), type: 'backup' });
  });

  test('an unknown application is a 404 in the account management shape', async () => {
    const e = await failure(client.getApplication(randomUUID()));
    expect(isNotFound(e)).toBe(true);
    expect(e).toMatchObject({ status: 404, interface: 'account_management', code: 'application_not_found', retryable: false, method: 'GET' });
    expect(e.endpoint).toBe('/api/2/applications/{application_id}');
  });

  test('enable, list, enable again (idempotent), disable', async () => {
    const partner = tenant('Northwind Partner');
    const customer = tenant('Acme Manufacturing');
    const backup = app('backup');
    expect(await client.listTenantApplications(partner)).toContain(backup);
    expect(await client.listTenantApplications(customer)).not.toContain(backup);
    await client.enableApplication(backup, customer);
    await client.enableApplication(backup, customer);
    expect(await client.listTenantApplications(customer)).toContain(backup);

    // platform-interface: binding (the parent cannot lose an application a child still has)
    const conflict = await failure(client.disableApplication(backup, partner));
    expect(isConflict(conflict)).toBe(true);
    expect(conflict.code).toBe('conflict');

    await client.disableApplication(backup, customer);
    expect(await client.listTenantApplications(customer)).not.toContain(backup);
    const missing = await failure(client.disableApplication(backup, customer));
    expect(missing).toMatchObject({ status: 404, code: 'binding_not_found' });
  });

  test('an unknown tenant answers 404 with code 1104', async () => {
    const e = await failure(client.listTenantApplications(randomUUID()));
    expect(e).toMatchObject({ status: 404, code: '1104', interface: 'account_management' });
    expect(isNotFound(e)).toBe(true);
  });
});

describe('tenant settings', () => {
  test('put, get, delete by name; inheritance shows in effective', async () => {
    const backup = app('backup');
    const partner = tenant('Northwind Partner');
    const before = await client.getSetting(backup, partner, 'retention_days');
    expect(before.own).toBeNull();
    expect(before.effective).toMatchObject({ value: 30, owner: { type: 'tenant', id: world.rootTenantId } });

    const put = await client.putSetting(backup, partner, 'retention_days', { value: 45, lock: false, exclusive: false });
    expect(put.own).toEqual({ value: 45, lock: false, exclusive: false });
    const got = await client.getSetting(backup, partner, 'retention_days');
    expect(got.own?.value).toBe(45);

    await client.deleteSetting(backup, partner, 'retention_days');
    const after = await client.getSetting(backup, partner, 'retention_days');
    expect(after.own).toBeNull();
  });

  test('a setting nobody set is a 404; a locked one cannot be overridden', async () => {
    const backup = app('backup');
    const partner = tenant('Northwind Partner');
    const e = await failure(client.getSetting(backup, partner, `never_set_${Date.now()}`));
    expect(e).toMatchObject({ status: 404, code: 'setting_not_found' });
    // encryption_required is locked at the root in the seed world
    const locked = await failure(client.putSetting(backup, partner, 'encryption_required', { value: false, lock: false, exclusive: false }));
    expect(locked).toMatchObject({ status: 409, code: 'conflict', retryable: false, attempts: 1 });
  });
});

describe('infrastructure components', () => {
  test('create, read, list, update, stale update and delete, delete, not found', async () => {
    const owner = tenant('Northwind Partner');
    const created = await client.createInfra({
      owner_tenant_id: owner,
      location_id: randomUUID(),
      name: 'Backup storage EU',
      url: 'https://storage.example.com',
      capabilities: ['backup'],
      content_url: 'https://content.example.com',
      content_mobile_url: 'https://m.content.example.com',
      backend_type: 'acronis',
    });
    expect(created).toMatchObject({ owner_tenant_id: owner, name: 'Backup storage EU', version: 1 });
    const [read] = await client.getInfra([created.id]);
    expect(read?.id).toBe(created.id);
    expect(await client.listTenantInfra(owner)).toContain(created.id);

    const updated = await client.updateInfra(created.id, {
      name: 'Backup storage EU 2',
      location_id: created.location_id,
      url: created.url,
      capabilities: ['backup', 'disaster_recovery'],
      version: created.version,
    });
    expect(updated).toMatchObject({ name: 'Backup storage EU 2', version: 2 });

    const stale = await failure(
      client.updateInfra(created.id, { name: 'x', location_id: created.location_id, url: created.url, capabilities: [], version: 1 }),
    );
    expect(isConflict(stale)).toBe(true);
    expect(stale.attempts).toBe(1);
    const staleDelete = await failure(client.deleteInfra(created.id, 1));
    expect(staleDelete).toMatchObject({ status: 409, code: 'conflict' });

    await client.deleteInfra(created.id, 2);
    const gone = await failure(client.getInfra([created.id]));
    expect(isNotFound(gone)).toBe(true);
    expect(gone.code).toBe('infra_not_found');
  });

  test('a create with an invalid url is a 400 naming the field', async () => {
    allowRefusedRequests(); // the platform's own refusal is what this test looks at
    const e = await failure(
      client.createInfra({ owner_tenant_id: tenant('Northwind Partner'), location_id: randomUUID(), name: 'bad', url: 'HTTP://x', capabilities: ['backup'] }),
    );
    expect(e).toMatchObject({ status: 400, code: '400', retryable: false });
    expect(e.details ?? e.message).toContain('url');
  });

  test('large id lists are read in chunks', async () => {
    const owner = tenant('Northwind Partner');
    const c = await client.createInfra({
      owner_tenant_id: owner,
      location_id: randomUUID(),
      name: 'chunk',
      url: 'https://c.example.com',
      capabilities: ['backup'],
    });
    const start = events.length;
    const got = await client.getInfra(Array.from({ length: 250 }, () => c.id));
    // duplicates are collapsed: one id, one request
    expect(got.map((x) => x.id)).toEqual([c.id]);
    expect(events.slice(start).filter((e) => e.endpoint === '/api/2/infra').length).toBe(1);
    await client.deleteInfra(c.id, c.version);
  });
});

describe('usage report configurations', () => {
  test('create, read, list, update, stale delete, delete, not found', async () => {
    const t = tenant('Northwind Partner');
    const created = await client.createReport({
      result_action: 'save',
      recipients: [],
      parameters: { tenant_id: t, kind: 'usage_summary', level: 'direct_partners', formats: ['csv'] },
      schedule: { type: 'monthly', enabled: true },
    });
    expect(created).toMatchObject({ version: 1, parameters: { kind: 'usage_summary' } });
    expect((await client.getReport(created.id)).id).toBe(created.id);
    expect(await client.listTenantReports(t)).toContain(created.id);
    const updated = await client.updateReport(created.id, { parameters: { kind: 'usage_daily' }, schedule: { enabled: false } });
    expect(updated).toMatchObject({ version: 2, parameters: { kind: 'usage_daily' }, schedule: { enabled: false } });
    const stale = await failure(client.deleteReport(created.id, 1));
    expect(stale).toMatchObject({ status: 409, code: 'conflict' });
    await client.deleteReport(created.id, 2);
    const gone = await failure(client.getReport(created.id));
    expect(gone).toMatchObject({ status: 404, code: 'report_not_found' });
  });
});

describe('agents and agent update settings', () => {
  test('listing follows cursors page by page', async () => {
    // spec 2: a listing includes child tenants' agents unless a visibility barrier blocks them
    // (Initech Finance is behind one in the seed world)
    const expected = Object.entries(world.agents)
      .filter(([name]) => name === 'Acme Manufacturing' || name === 'Globex Retail')
      .flatMap(([, ids]) => ids)
      .sort();
    const start = events.length;
    const all = await client.listAgents({ tenantId: emu.tenantId, limit: 2 });
    expect(all.map((a) => a.id).sort()).toEqual(expected);
    const pages = events.slice(start).filter((e) => e.endpoint === '/api/agent_manager/v2/agents').length;
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(expected.length / 2));

    const acme = tenant('Acme Manufacturing');
    const seen: string[] = [];
    for await (const a of client.agents({ tenantId: acme, limit: 1 })) seen.push(a.tenant.id);
    expect(seen.length).toBe(world.agents['Acme Manufacturing']?.length);
    expect(new Set(seen)).toEqual(new Set([acme]));
  });

  test('master settings: put, get (resolved for an agent), delete', async () => {
    const customer = tenant('Globex Retail');
    const agentId = world.agents['Globex Retail']?.[0];
    await client.putAgentUpdateSettings([
      {
        tenant_id: customer,
        update_channel: 'CURRENT',
        automatic: true,
        maintenance_window: { time_from: '01:00:00', time_to: '03:00:00', days_of_week: ['SATURDAY', 'SUNDAY'] },
      },
    ]);
    const own = await client.getAgentUpdateSettings(customer, { master: true });
    expect(own).toMatchObject({ tenant_id: customer, update_channel: 'CURRENT', automatic: true });
    const forAgent = await client.getAgentUpdateSettings(agentId, { master: false });
    expect(forAgent).toMatchObject({ agent_id: agentId, update_channel: 'CURRENT' });
    expect(forAgent.tenant_id).toBeUndefined();

    await client.deleteAgentUpdateSettings(customer, { master: true });
    const inherited = await client.getAgentUpdateSettings(customer, { master: true });
    expect(inherited).toMatchObject({ tenant_id: customer, update_channel: 'STABLE' });
  });

  test('an unknown agent is a 404 in the agent manager shape', async () => {
    allowRefusedRequests(); // the platform's own refusal is what this test looks at
    const e = await failure(client.getAgentUpdateSettings(randomUUID(), { master: false }));
    expect(e).toMatchObject({ status: 404, interface: 'agent_manager', domain: 'AGENT_MANAGER', code: 'AGENT_NOT_FOUND' });
    const bad = await failure(client.putAgentUpdateSettings([{ tenant_id: tenant('Globex Retail'), update_channel: 'NIGHTLY', automatic: true }]));
    expect(bad).toMatchObject({ status: 400, interface: 'agent_manager', retryable: false });
  });
});

describe('event manager', () => {
  const TOPIC = 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0';

  test('topics and event types', async () => {
    const topics = await client.listTopics();
    expect(topics.map((t) => t.id)).toContain(TOPIC);
    expect((await client.listTopics(TOPIC)).map((t) => t.id)).toEqual([TOPIC]);
    const types = await client.listEventTypes({ topicId: TOPIC });
    expect(types.length).toBeGreaterThan(0);
    expect(types.every((t) => t.topic_id === TOPIC)).toBe(true);
  });

  test('create a subscription and check it exists; duplicates and invalid ones fail', async () => {
    allowRefusedRequests(); // the platform's own refusal is what this test looks at
    const id = randomUUID();
    const sub = await client.createSubscription({
      subscription_id: id,
      topic_id: TOPIC,
      types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'],
      tenant_id: emu.tenantId,
      tenant_depth: 'ALL',
    });
    expect(sub.subscription_id).toBe(id);
    const offset = await client.getSubscriptionOffset(id);
    expect(offset.subscription_id).toBe(id);

    const dup = await failure(
      client.createSubscription({ subscription_id: id, topic_id: TOPIC, types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'], tenant_depth: 'ALL' }),
    );
    expect(dup).toMatchObject({ status: 409, interface: 'event_manager', domain: 'EventManager', attempts: 1 });

    const missing = await failure(client.getSubscriptionOffset(randomUUID()));
    expect(missing).toMatchObject({ status: 404, domain: 'EventManager', code: 'notFound' });
    expect(isNotFound(missing)).toBe(true);

    const invalid = await failure(client.createSubscription({ subscription_id: randomUUID(), topic_id: TOPIC, types: ['not-a-cti'], tenant_depth: 'ALL' }));
    expect(invalid).toMatchObject({ status: 400, code: 'badRequest' });
    expect(invalid.message).toContain('types');
  });
});

describe('alert manager', () => {
  test('register a type, read it, raise an alert, list it', async () => {
    const type = `TenantformDrift${Date.now()}`;
    await client.registerAlertTypes([
      { id: type, severity: 'warning', enabled: true, category: 'tenantform', contextKeys: [], searchableDetails: [], supportedOS: [] },
    ]);
    expect(await client.getAlertType(type)).toMatchObject({ id: type });
    const customer = tenant('Globex Retail');
    const id = await client.createAlert({ type, tenantID: customer, severity: 'warning', details: { drifted: 3 } });
    expect(id).toMatch(/^[0-9a-f-]{36}$/i);
    const alerts = await client.listAlerts({ type, limit: 10 });
    expect(alerts.map((a) => a.id)).toContain(id);
  });

  test('an unregistered type and an unknown type id fail in the alert shape', async () => {
    const e = await failure(client.createAlert({ type: `Unknown${Date.now()}`, tenantID: tenant('Globex Retail'), severity: 'error' }));
    expect(e).toMatchObject({ status: 400, interface: 'alert_manager', domain: 'AlertManager', code: 'InvalidContext', attempts: 1 });
    const nf = await failure(client.getAlertType(`Unknown${Date.now()}`));
    expect(isNotFound(nf)).toBe(true);
  });
});

describe('tenants and search', () => {
  const NORTHWIND = ['Acme Manufacturing', 'Globex Retail', 'Initech Finance', 'Northwind Partner'];

  test('a subtree, page by page', async () => {
    const start = events.length;
    // the MSP's client sees its partner's subtree only
    const all = await client.getTenants({ subtreeRootId: emu.tenantId, lod: 'basic', limit: 1 });
    expect(all.map((t) => t.name).sort()).toEqual(NORTHWIND);
    expect(all[0]?.id).toBe(emu.tenantId);
    expect(events.slice(start).filter((e) => e.endpoint === '/api/2/tenants').length).toBeGreaterThanOrEqual(NORTHWIND.length);
  });

  test('children of a partner, and tenants by id in chunks of 100', async () => {
    const kids = await client.getTenants({ parentId: tenant('Northwind Partner'), lod: 'basic' });
    expect(kids.map((t) => t.name).sort()).toEqual(['Acme Manufacturing', 'Globex Retail', 'Initech Finance']);

    const ids = NORTHWIND.map(tenant);
    const padded = [...ids, ...Array.from({ length: 150 }, () => randomUUID())];
    const start = events.length;
    const byId = await client.getTenants({ uuids: padded, lod: 'stamps' });
    expect(byId.map((t) => t.id).sort()).toEqual([...ids].sort());
    expect(events.slice(start).filter((e) => e.endpoint === '/api/2/tenants').length).toBe(2);
  });

  test('search', async () => {
    const found = await client.search(emu.tenantId, 'acme');
    expect(found.some((i) => i.id === tenant('Acme Manufacturing'))).toBe(true);
    const e = await failure(client.search(randomUUID(), 'acme'));
    expect(isNotFound(e)).toBe(true);
  });
});

describe('access and pools', () => {
  test('a client without the scope is refused with 403, not retried', async () => {
    const res = await fetch(`${emu.url}/_emulator/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: ['urn:vendor::account-server::tenant_viewer'] }),
    });
    const creds = (await res.json()) as { client_id: string; client_secret: string };
    const seen: ClientEvent[] = [];
    const viewer = new PlatformClient({
      baseUrl: emu.url,
      clientId: creds.client_id,
      clientSecret: creds.client_secret,
      retry: FAST,
      onEvent: (e) => seen.push(e),
    });
    try {
      expect((await viewer.listApplications()).length).toBeGreaterThan(0);
      const e = await failure(viewer.deleteInfra(randomUUID(), 1));
      expect(e).toMatchObject({ status: 403, code: 'access_denied', retryable: false, attempts: 1 });
      expect(seen.filter((x) => x.method === 'DELETE').length).toBe(1);
    } finally {
      await viewer.close();
    }
  });

  test('clients of one data center share one pool', async () => {
    const pools = new PoolRegistry();
    const a = new PlatformClient({ baseUrl: emu.url, clientId: emu.clientId, clientSecret: emu.clientSecret, pools });
    const b = new PlatformClient({ baseUrl: `${emu.url}/`, clientId: emu.clientId, clientSecret: emu.clientSecret, pools });
    try {
      await Promise.all([a.listApplications(), b.listApplications()]);
      expect(pools.size).toBe(1);
    } finally {
      await a.close();
      await b.close();
      await pools.close();
    }
  });
});
