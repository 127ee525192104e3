/**
 * Actions (plugin protocol 6.10, Terraform 1.14), deprecation messages (Terraform 1.15) and client
 * capabilities (Terraform 1.14 to 1.16), over gRPC against the emulator: the provider serves its
 * plugin in this process, without TLS, and this client sends each request with the fields and
 * field numbers Terraform's client sends (internal/plugin6/grpc_provider.go): a configuration as
 * msgpack holding every attribute of the action's schema, and `client_capabilities`. Each test
 * names the Terraform version whose requests it stands for. Terraform 1.11, installed here, never
 * makes these calls; the suites that drive it (terraform.test.ts, launch.test.ts) keep it covered.
 */
import * as grpc from '@grpc/grpc-js';
import { encode } from '@msgpack/msgpack';
import { PlatformClient } from '../../src/api';
import { exchangeChannel, startEmulator, type Exchange } from '../../src/emulator';
import { servePlugin, type RunningPlugin } from '../../src/provider/handshake';
import { loadProtocol } from '../../src/provider/protocol';
import { TenantformProvider } from '../../src/provider/server';
import { attr } from '../../src/resources/attributes';
import type { DataSourceKind } from '../../src/resources/declaration';
import { KindRegistry, KINDS } from '../../src/resources/registry';
import { Unknown } from '../../src/resources/values';
import { decodeMsgpack } from '../../src/provider/values';
import { onRequest } from '../helpers/moments';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
type Any = Record<string, any>;
type Unary = (request: object) => Promise<Any>;

const msgpack = (v: unknown) => ({ msgpack: Buffer.from(encode(v)) });
/** The unknown value Terraform sends for a value known only after apply (msgpack extension 0). */
const UNKNOWN_MSGPACK = Buffer.from([0xd4, 0x00, 0x00]);
/** Terraform 1.14 to 1.16 send these capabilities with PlanAction and InvokeAction (deferral only with the deferral experiment on). */
const CAPABILITIES = { deferral_allowed: false, write_only_attributes_allowed: true };

let emulator: Emulator;
let api: PlatformClient;
/** The requests the emulator answered during the current test. */
let recorded: Exchange[] = [];
const record = (message: unknown) => recorded.push(message as Exchange);

interface Served {
  readonly provider: TenantformProvider;
  readonly plugin: RunningPlugin;
  readonly client: grpc.Client;
  readonly call: Record<string, Unary>;
  /** InvokeAction's stream, every event in order. */
  invoke(request: object): Promise<Any[]>;
}

const served: Served[] = [];

/** The provider as Terraform launches it, spoken to over gRPC. */
async function serve(opts: { kinds?: KindRegistry; env?: NodeJS.ProcessEnv } = {}): Promise<Served> {
  const provider = new TenantformProvider({
    kinds: opts.kinds ?? KINDS,
    env: opts.env ?? { TENANTFORM_BASE_URL: emulator.url, TENANTFORM_CLIENT_ID: emulator.clientId, TENANTFORM_CLIENT_SECRET: emulator.clientSecret },
  });
  const plugin = await servePlugin({
    env: { TF_DISABLE_PLUGIN_TLS: '1' },
    handlers: () => provider.handlers(),
    onListening: () => undefined,
    onShutdown: () => undefined,
    log: () => undefined,
  });
  const definition: Any = grpc.loadPackageDefinition(loadProtocol());
  const client = new definition.tfplugin6.Provider(plugin.address, grpc.credentials.createInsecure()) as grpc.Client & Any;
  const call: Record<string, Unary> = {};
  for (const name of ['GetMetadata', 'GetProviderSchema', 'ConfigureProvider', 'ValidateActionConfig', 'PlanAction', 'PlanResourceChange', 'ReadDataSource']) {
    call[name] = (request) =>
      new Promise((resolve, reject) => client[name](request, (err: Error | null, answer: Any) => (err ? reject(err) : resolve(answer))));
  }
  const invoke = (request: object) =>
    new Promise<Any[]>((resolve, reject) => {
      const events: Any[] = [];
      const stream = client.InvokeAction(request) as grpc.ClientReadableStream<Any>;
      stream.on('data', (event: Any) => events.push(event));
      stream.on('error', reject);
      stream.on('end', () => resolve(events));
    });
  const s = { provider, plugin, client, call, invoke };
  served.push(s);
  return s;
}

/** Serves the provider and configures it as Terraform does before any plan or invocation. */
async function configured(): Promise<Served> {
  const s = await serve();
  const answer = await s.call.ConfigureProvider({
    terraform_version: '1.14.0',
    config: msgpack({ base_url: null, client_id: null, client_secret: null, retry_timeout: null, requests_per_second: null }),
    client_capabilities: CAPABILITIES,
  });
  expect(answer.diagnostics).toEqual([]);
  recorded = [];
  return s;
}

/** The world as the emulator stores it. */
async function dump(): Promise<Any> {
  const res = await fetch(`${emulator.url}/_emulator/dump`);
  return (await res.json()) as Any;
}

const apiRequests = () => recorded.filter((r) => r.path.startsWith('/api/') && !r.path.endsWith('/idp/token'));

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seed: 7 });
  api = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  exchangeChannel.subscribe(record);
});

beforeEach(() => {
  recorded = [];
});

afterEach(async () => {
  for (const s of served.splice(0)) {
    s.client.close();
    await s.plugin.stop();
    await s.provider.close();
  }
});

afterAll(async () => {
  exchangeChannel.unsubscribe(record);
  await api.close();
  await emulator.close();
});

test('Terraform 1.14: GetProviderSchema carries each action schema (field 11) and GetMetadata names the actions', async () => {
  const s = await serve();
  const schema = await s.call.GetProviderSchema({});
  expect(Object.keys(schema.action_schemas).sort()).toEqual([
    'tenantform_dismiss_alerts',
    'tenantform_force_agent_update',
    'tenantform_send_activation_email',
    'tenantform_switch_edition',
  ]);
  const edition = schema.action_schemas.tenantform_switch_edition.schema.block;
  expect(edition.attributes.map((a: Any) => [a.name, JSON.parse(a.type.toString()), a.required])).toEqual([
    ['tenant_id', 'string', true],
    ['application_id', 'string', true],
    ['target_edition', 'string', true],
  ]);
  const emails = schema.action_schemas.tenantform_send_activation_email.schema.block.attributes[0];
  expect([emails.name, JSON.parse(emails.type.toString())]).toEqual(['user_ids', ['list', 'string']]);
  // The resources and data sources are served as before.
  expect(Object.keys(schema.resource_schemas)).toContain('tenantform_tenant');
  const metadata = await s.call.GetMetadata({});
  expect(metadata.actions.map((a: Any) => a.type_name)).toContain('tenantform_force_agent_update');
});

test('Terraform 1.14: ValidateActionConfig and PlanAction refuse bad arguments by their path, before any request', async () => {
  const s = await configured();
  const validated = await s.call.ValidateActionConfig({
    type_name: 'tenantform_send_activation_email',
    config: msgpack({ user_ids: ['3f0c2a6e-8c1d-4c55-9b0e-2d7f1b9a4e10', 'not-a-user-id'] }),
  });
  expect(validated.diagnostics).toEqual([
    expect.objectContaining({
      severity: 'ERROR',
      attribute: {
        steps: [
          { attribute_name: 'user_ids', selector: 'attribute_name' },
          { element_key_int: 1, selector: 'element_key_int' },
        ],
      },
    }),
  ]);
  const planned = await s.call.PlanAction({
    action_type: 'tenantform_switch_edition',
    config: msgpack({
      tenant_id: emulator.world().tenants['Acme Manufacturing'].id,
      application_id: emulator.world().applications.backup.id,
      target_edition: 'gold',
    }),
    client_capabilities: CAPABILITIES,
  });
  expect(planned.diagnostics).toEqual([
    expect.objectContaining({ severity: 'ERROR', attribute: { steps: [{ attribute_name: 'target_edition', selector: 'attribute_name' }] } }),
  ]);
  expect(planned.diagnostics[0].detail).toContain('`advanced`');
  // An invocation that slipped past both is refused the same way, with nothing sent.
  const events = await s.invoke({
    action_type: 'tenantform_dismiss_alerts',
    config: msgpack({ alert_ids: [] }),
    client_capabilities: CAPABILITIES,
  });
  expect(events).toEqual([{ completed: { diagnostics: [expect.objectContaining({ severity: 'ERROR' })] }, type: 'completed' }]);
  expect(events[0].completed.diagnostics[0].attribute.steps[0].attribute_name).toBe('alert_ids');
  expect(apiRequests()).toEqual([]);
});

test('Terraform 1.14: PlanAction takes a value known only after apply; InvokeAction refuses one, before any request', async () => {
  const s = await configured();
  const config = { msgpack: Buffer.concat([Buffer.from([0x81, 0xa8]), Buffer.from('user_ids'), UNKNOWN_MSGPACK]) };
  const planned = await s.call.PlanAction({ action_type: 'tenantform_send_activation_email', config, client_capabilities: CAPABILITIES });
  expect(planned.diagnostics).toEqual([]);
  expect(planned.deferred).toBeNull();
  const events = await s.invoke({ action_type: 'tenantform_send_activation_email', config, client_capabilities: CAPABILITIES });
  expect(events.map((e) => e.type)).toEqual(['completed']);
  expect(events[0].completed.diagnostics[0].summary).toBe('user_ids is not known');
  expect(apiRequests()).toEqual([]);
});

test("Terraform 1.14: switching a customer's edition streams its progress, then completes; the platform has switched", async () => {
  const s = await configured();
  const tenant = emulator.world().tenants['Acme Manufacturing'].id;
  const backup = emulator.world().applications.backup.id;
  await api.putOfferingItems(tenant, [{ application_id: backup, name: 'workstations', status: 1 }]);
  recorded = [];
  const events = await s.invoke({
    action_type: 'tenantform_switch_edition',
    config: msgpack({ tenant_id: tenant, application_id: backup, target_edition: 'advanced' }),
    client_capabilities: CAPABILITIES,
  });
  expect(events.map((e) => e.type)).toEqual(['progress', 'progress', 'completed']);
  expect(events[0].progress.message).toBe(`Switching application ${backup} of tenant ${tenant} to the advanced edition`);
  expect(events[1].progress.message).toBe(`Tenant ${tenant} now has 1 offering item of the advanced edition on`);
  expect(events[2].completed.diagnostics).toEqual([]);
  expect(apiRequests().map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /api/2/tenants/${tenant}/edition`]);
  const items = await api.listOfferingItems(tenant);
  const on = items.filter((i) => i.application_id === backup && i.status === 1);
  expect(on.map((i) => [i.name, i.edition])).toEqual([['workstations_advanced', 'advanced']]);
});

test('Terraform 1.14: an error mid-stream ends the invocation with a diagnostic naming the step; the steps before it are done', async () => {
  const s = await configured();
  const tenant = emulator.world().tenants['Globex Retail'].id;
  const user = await api.createUser({ tenant_id: tenant, login: 'actions-first', contact: { email: 'first@example.com' } });
  expect(user.activated).toBe(false);
  const gone = '0d9b6a53-1f0e-4c1e-9a55-6b5f2c7d8e91';
  recorded = [];
  const events = await s.invoke({
    action_type: 'tenantform_send_activation_email',
    config: msgpack({ user_ids: [user.id, gone] }),
    client_capabilities: CAPABILITIES,
  });
  expect(events.map((e) => e.type)).toEqual(['progress', 'completed']);
  expect(events[0].progress.message).toBe(`Sent the activation email to user ${user.id} (1 of 2)`);
  const [failure] = events[1].completed.diagnostics;
  expect(failure).toMatchObject({ severity: 'ERROR', summary: `The platform answered an error while sending the activation email to user ${gone}` });
  expect(apiRequests().map((r) => [r.method, r.path, r.status])).toEqual([
    ['POST', `/api/2/users/${user.id}/send-activation-email`, 204],
    ['POST', `/api/2/users/${gone}/send-activation-email`, 404],
  ]);
  expect((await api.getUser(user.id)).activated).toBe(true);
  // Nothing of the credentials reaches the stream.
  expect(JSON.stringify(events)).not.toContain(emulator.clientSecret);
});

test('Terraform 1.14: StopProvider during an invocation (Ctrl-C) ends it after the step in flight; the rest is not started', async () => {
  const s = await configured();
  const tenant = emulator.world().tenants['Globex Retail'].id;
  const users = [];
  for (const login of ['actions-stop-1', 'actions-stop-2'])
    users.push(await api.createUser({ tenant_id: tenant, login, contact: { email: `${login}@example.com` } }));
  recorded = [];
  // When the first email's request reaches the platform, Terraform asks the provider to stop:
  // what the StopProvider call does, done at that very moment (the call itself would race the answer).
  const unwatch = onRequest(
    'arrival',
    (r) => r.method === 'POST' && r.path.endsWith('/send-activation-email'),
    1,
    () => s.provider.stop(),
  );
  const events = await s.invoke({
    action_type: 'tenantform_send_activation_email',
    config: msgpack({ user_ids: users.map((u) => u.id) }),
    client_capabilities: CAPABILITIES,
  });
  unwatch();
  expect(events.map((e) => e.type)).toEqual(['progress', 'completed']);
  expect(events[1].completed.diagnostics.map((d: Any) => d.summary)).toEqual(['Stopped']);
  expect(apiRequests().map((r) => r.path)).toEqual([`/api/2/users/${users[0].id}/send-activation-email`]);
  expect((await api.getUser(users[1].id)).activated).toBe(false);
});

test('Terraform 1.14: forcing an agent update and dismissing alerts change the platform', async () => {
  const s = await configured();
  const world = await dump();
  const outdated = (world.agents as Any[]).filter((a) => !a.up_to_date).slice(0, 2);
  expect(outdated).toHaveLength(2);
  const updated = await s.invoke({
    action_type: 'tenantform_force_agent_update',
    config: msgpack({ agent_ids: outdated.map((a) => a.id) }),
    client_capabilities: CAPABILITIES,
  });
  expect(updated.map((e) => e.type)).toEqual(['progress', 'progress', 'completed']);
  expect(updated[2].completed.diagnostics).toEqual([]);
  const alert = (world.alerts as Any[]).find((a) => a.deletedAt === undefined) as Any;
  const dismissed = await s.invoke({
    action_type: 'tenantform_dismiss_alerts',
    config: msgpack({ alert_ids: [alert.id] }),
    client_capabilities: CAPABILITIES,
  });
  expect(dismissed.at(-1)?.completed.diagnostics).toEqual([]);
  expect(apiRequests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
    'POST /api/agent_manager/v2/agents/update:force 202',
    'DELETE /api/alert_manager/v1/alerts 204',
  ]);
  const after = await dump();
  const byId = new Map((after.agents as Any[]).map((a) => [a.id, a]));
  expect(outdated.map((a) => byId.get(a.id)?.up_to_date)).toEqual([true, true]);
  expect((after.alerts as Any[]).find((a) => a.id === alert.id)?.deletedAt).toEqual(expect.any(String));
  expect((after.alerts as Any[]).filter((a) => a.id !== alert.id && a.deletedAt !== undefined)).toEqual([]);
});

test('Terraform 1.14: the platform refusing an agent ends the stream with its error, after the first progress event', async () => {
  const s = await configured();
  const events = await s.invoke({
    action_type: 'tenantform_force_agent_update',
    config: msgpack({ agent_ids: ['7e57a9e1-0000-4000-8000-000000000001'] }),
    client_capabilities: CAPABILITIES,
  });
  expect(events.map((e) => e.type)).toEqual(['progress', 'completed']);
  expect(events[1].completed.diagnostics[0].summary).toBe('The platform answered an error while starting the update of 1 agent');
  expect(events[1].completed.diagnostics[0].detail).toContain('not a registered agent');
});

test('Terraform 1.15: a deprecated argument carries its message to the schema (deprecated, and deprecation_message field 12)', async () => {
  const reader: DataSourceKind = {
    kind: 'data',
    type: 'tenantform_deprecation_probe',
    description: 'A data source declared for this test.',
    attributes: {
      name: attr.string({ mode: 'optional', description: 'The name.', deprecated: 'Use `display_name` instead.' }),
      display_name: attr.string({ mode: 'optional', description: 'The display name.' }),
    },
    example: { name: 'probe', config: {} },
    read: async () => ({}),
  };
  const s = await serve({ kinds: new KindRegistry([...KINDS.all, reader]) });
  const schema = await s.call.GetProviderSchema({});
  const [name, display] = schema.data_source_schemas.tenantform_deprecation_probe.block.attributes;
  expect(name).toMatchObject({ name: 'name', deprecated: true, deprecation_message: 'Use `display_name` instead.' });
  expect(name.description).toContain('**Deprecated**: Use `display_name` instead.');
  expect(display).toMatchObject({ name: 'display_name', deprecated: false, deprecation_message: '' });
  // No argument of the declared kinds is deprecated today.
  const all = Object.values<Any>({ ...schema.resource_schemas, ...schema.data_source_schemas });
  expect(all.flatMap((k) => k.block.attributes).filter((a: Any) => a.deprecated && a !== name)).toEqual([]);
});

test('Terraform 1.16 client capabilities: with deferral allowed, an unknown provider configuration defers plans and reads instead of failing', async () => {
  const s = await serve();
  const config = {
    msgpack: Buffer.concat([
      Buffer.from([0x85, 0xa8]),
      Buffer.from('base_url'),
      UNKNOWN_MSGPACK,
      Buffer.from([0xa9]),
      Buffer.from('client_id'),
      Buffer.from([0xc0, 0xad]),
      Buffer.from('client_secret'),
      Buffer.from([0xc0, 0xad]),
      Buffer.from('retry_timeout'),
      Buffer.from([0xc0, 0xb3]),
      Buffer.from('requests_per_second'),
      Buffer.from([0xc0]),
    ]),
  };
  const refused = await s.call.ConfigureProvider({ terraform_version: '1.16.0', config, client_capabilities: { deferral_allowed: false } });
  expect(refused.diagnostics.map((d: Any) => d.summary)).toEqual(['base_url is not known yet']);

  const deferring = await s.call.ConfigureProvider({ terraform_version: '1.16.0', config, client_capabilities: { deferral_allowed: true } });
  expect(deferring.diagnostics).toEqual([]);
  const action = {
    action_type: 'tenantform_dismiss_alerts',
    config: msgpack({ alert_ids: ['f7de90c3-6fa9-49d1-bfd4-c26aa7294146'] }),
  };
  const planned = await s.call.PlanAction({ ...action, client_capabilities: { deferral_allowed: true } });
  expect(planned).toMatchObject({ diagnostics: [], deferred: { reason: 'PROVIDER_CONFIG_UNKNOWN' } });
  const setting = {
    id: null,
    application_id: emulator.world().applications.backup.id,
    tenant_id: emulator.tenantId,
    name: 'x',
    value: '1',
    lock: null,
    exclusive: null,
    effective_value: null,
  };
  const resource = await s.call.PlanResourceChange({
    type_name: 'tenantform_tenant_setting',
    prior_state: { msgpack: Buffer.from([0xc0]) },
    proposed_new_state: msgpack(setting),
    config: msgpack(setting),
    client_capabilities: { deferral_allowed: true },
  });
  expect(resource.deferred).toEqual({ reason: 'PROVIDER_CONFIG_UNKNOWN' });
  // What the platform would set (the id) is not known yet; what the configuration says is planned as it is.
  expect(decodeMsgpack(resource.planned_state.msgpack)).toMatchObject({ id: Unknown, name: 'x', value: '1' });
  const read = await s.call.ReadDataSource({
    type_name: 'tenantform_application',
    config: msgpack({ type: 'backup', name: null, id: null, usages: null, api_base_url: null }),
    client_capabilities: { deferral_allowed: true },
  });
  expect(read).toMatchObject({ diagnostics: [], deferred: { reason: 'PROVIDER_CONFIG_UNKNOWN' } });
  expect([...read.state.msgpack]).toEqual([...UNKNOWN_MSGPACK]);
  // Invoked anyway, the action sends nothing.
  const events = await s.invoke({ ...action, client_capabilities: { deferral_allowed: true } });
  expect(events[0].completed.diagnostics[0].summary).toBe('The provider is not configured');
  expect(apiRequests()).toEqual([]);
});
