/**
 * The provider's RPC handlers in this process, against the emulator: what Terraform sees
 * when an operation is stopped, refused or upgraded, without launching Terraform.
 */
import { encode } from '@msgpack/msgpack';
import { PlatformClient } from '../../src/api';
import { startEmulator } from '../../src/emulator';
import type { DynamicValue, ProviderService } from '../../src/provider/messages';
import { TenantformProvider } from '../../src/provider/server';
import { decodeMsgpack } from '../../src/provider/values';
import { KINDS } from '../../src/resources/registry';
import { onRequest } from '../helpers/moments';
import { infraConfig as infraConfigOf } from './grpc';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

type Any = Record<string, any>;

const msgpack = (v: unknown) => ({ msgpack: Buffer.from(encode(v)) });
const NIL = { msgpack: Buffer.from([0xc0]) };
/** The value an answer carries, which these answers always set. */
const decoded = (value: DynamicValue | undefined): Any => {
  if (!value?.msgpack) throw new Error('the answer carries no msgpack value');
  return decodeMsgpack(value.msgpack) as Any;
};

let emulator: Emulator;
let provider: TenantformProvider;
let rpc: ProviderService;
let owner: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: 5 });
  owner = emulator.world().tenants['Globex Retail'].id;
});

beforeEach(async () => {
  provider = new TenantformProvider({
    kinds: KINDS,
    env: { TENANTFORM_BASE_URL: emulator.url, TENANTFORM_CLIENT_ID: emulator.clientId, TENANTFORM_CLIENT_SECRET: emulator.clientSecret },
  });
  rpc = provider.handlers();
  const configured = await rpc.ConfigureProvider({ config: msgpack({ base_url: null, client_id: null, client_secret: null }) });
  expect(configured.diagnostics).toEqual([]);
});

afterEach(async () => {
  emulator.setFaults({ latency_ms: 0 });
  await provider.close();
});

afterAll(async () => {
  await emulator.close();
});

const infraConfig = () => infraConfigOf(owner, 'Stop test', 'https://stop.example.com');

async function createInfra(): Promise<Any> {
  const plan = await rpc.PlanResourceChange({
    type_name: 'tenantform_infra_component',
    prior_state: NIL,
    proposed_new_state: msgpack(infraConfig()),
    config: msgpack(infraConfig()),
  });
  const applied = await rpc.ApplyResourceChange({
    type_name: 'tenantform_infra_component',
    prior_state: NIL,
    planned_state: plan.planned_state,
    config: msgpack(infraConfig()),
  });
  expect(applied.diagnostics).toEqual([]);
  return decoded(applied.new_state);
}

test('StopProvider cancels an operation in flight: it answers at once with a diagnostic', async () => {
  const created = await createInfra();
  emulator.setFaults({ latency_ms: 3_000 });
  // In flight: the read has reached the platform, whose answer takes 3 s.
  let stop = () => {};
  const arrived = new Promise<void>((resolve) => (stop = onRequest('arrival', (r) => r.method === 'GET' && r.path.startsWith('/api/2/infra'), 1, resolve)));
  const reading = rpc.ReadResource({ type_name: 'tenantform_infra_component', current_state: msgpack(created) });
  await arrived;
  stop();
  await rpc.StopProvider({});
  const r = await reading;
  expect(r.diagnostics?.[0]).toMatchObject({ severity: 'ERROR', summary: 'Stopped' });
  // The recorded object is kept: a stopped read must not tell Terraform the object is gone.
  expect(decoded(r.new_state)).toEqual(created);
});

test('a refused update keeps the prior state and names both versions', async () => {
  const created = await createInfra();
  const api = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  try {
    const [live] = await api.getInfra([created.id]);
    await api.updateInfra(created.id, {
      name: 'Someone else',
      location_id: live.location_id,
      url: live.url,
      capabilities: [...live.capabilities],
      version: live.version,
    });
  } finally {
    await api.close();
  }
  const config = { ...infraConfig(), url: 'https://moved.example.com' };
  const plan = await rpc.PlanResourceChange({
    type_name: 'tenantform_infra_component',
    prior_state: msgpack(created),
    proposed_new_state: msgpack(config),
    config: msgpack(config),
  });
  const applied = await rpc.ApplyResourceChange({
    type_name: 'tenantform_infra_component',
    prior_state: msgpack(created),
    planned_state: plan.planned_state,
    config: msgpack(config),
  });
  expect(applied.diagnostics?.[0].summary).toBe('The object was changed by someone else');
  expect(applied.diagnostics?.[0].detail).toMatch(/version 2 on the platform.*planned against version 1/s);
  expect(decoded(applied.new_state)).toEqual(created);
});

test('ImportResourceState reads the object by its id; a malformed id is a diagnostic', async () => {
  const created = await createInfra();
  const imported = await rpc.ImportResourceState({ type_name: 'tenantform_infra_component', id: created.id });
  expect(imported.imported_resources).toHaveLength(1);
  expect(decoded(imported.imported_resources?.[0].state)).toMatchObject({ id: created.id, name: 'Stop test', version: 1 });

  const wrong = await rpc.ImportResourceState({ type_name: 'tenantform_infra_component', id: 'not-an-id' });
  expect(wrong.imported_resources).toEqual([]);
  expect(wrong.diagnostics?.[0].summary).toBe('Invalid import id');
});

test('UpgradeResourceState takes JSON state, drops attributes no longer declared and fills the missing ones', async () => {
  const raw = { id: 'a/b/c', application_id: 'a', tenant_id: 'b', name: 'c', value: '1', retired: true };
  const r = await rpc.UpgradeResourceState({ type_name: 'tenantform_tenant_setting', version: 0, raw_state: { json: Buffer.from(JSON.stringify(raw)) } });
  expect(r.diagnostics).toEqual([]);
  const upgraded = decoded(r.upgraded_state);
  expect(upgraded).toMatchObject({ id: 'a/b/c', value: '1', lock: false, exclusive: false, effective_value: null });
  expect(upgraded).not.toHaveProperty('retired');

  const newer = await rpc.UpgradeResourceState({ type_name: 'tenantform_tenant_setting', version: 99, raw_state: { json: Buffer.from('{}') } });
  expect(newer.diagnostics?.[0].summary).toBe('State written by a newer tenantform');
});

test('removing an event subscription plans a delete with the warning that it only stops managing it', async () => {
  const prior = {
    id: '0a0a0a0a-0000-4000-8000-000000000001',
    subscription_id: '0a0a0a0a-0000-4000-8000-000000000001',
    topic_id: 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0',
    types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'],
    tenant_depth: 'ALL',
  };
  const r = await rpc.PlanResourceChange({ type_name: 'tenantform_event_subscription', prior_state: msgpack(prior), proposed_new_state: NIL, config: NIL });
  expect(r.planned_state?.msgpack).toEqual(NIL.msgpack);
  expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'WARNING', summary: 'The platform cannot delete this object' })]);
});

test('data sources read through the configured client', async () => {
  const r = await rpc.ReadDataSource({
    type_name: 'tenantform_application',
    config: msgpack({ type: 'backup', name: null, id: null, usages: null, api_base_url: null }),
  });
  expect(r.diagnostics).toEqual([]);
  expect(decoded(r.state)).toMatchObject({ id: emulator.world().applications.backup.id, type: 'backup' });
});

test('ConfigureProvider refuses plain http to another host, naming base_url, before any request', async () => {
  const other = new TenantformProvider({ kinds: KINDS, env: { TENANTFORM_CLIENT_ID: 'id', TENANTFORM_CLIENT_SECRET: 'secret' } });
  try {
    const r = await other.handlers().ConfigureProvider({ config: msgpack({ base_url: 'http://platform.example.com', client_id: null, client_secret: null }) });
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ summary: 'Invalid base_url', detail: expect.stringContaining('would send the client secret and tokens in clear') }),
    ]);
  } finally {
    await other.close();
  }
});

test("PlanResourceChange refuses a tenant whose name a sibling has, with the import block, as tenantform's own plan does", async () => {
  const world = emulator.world();
  const config = Object.fromEntries(Object.keys(KINDS.resource('tenantform_tenant')!.attributes).map((name) => [name, null]));
  Object.assign(config, { parent_id: world.tenants['Northwind Partner'].id, kind: 'customer', name: 'Acme Manufacturing' });
  const plan = await rpc.PlanResourceChange({ type_name: 'tenantform_tenant', prior_state: NIL, proposed_new_state: msgpack(config), config: msgpack(config) });
  expect(plan.diagnostics?.map((d) => d.summary)).toEqual(['An object with this name already exists']);
  expect(plan.diagnostics?.[0].detail).toContain(`id = "${world.tenants['Acme Manufacturing'].id}"`);
});
