/**
 * List resources over gRPC, sent as Terraform 1.14 (plugin protocol 6.10) sends them for
 * `terraform query`: the list resource schemas, the validation of a `list` block's `config`,
 * the listing streamed event by event with `limit` and `include_resource`, an error in the
 * middle of a listing, and GenerateResourceConfig. The listing is the one `tenantform export` makes.
 */
import { PlatformClient } from '../../src/api';
import { decoded, msgpack, serveWithEmulator, type Emulator, type ProviderOverGrpc } from './grpc';

let emulator: Emulator;
let provider: ProviderOverGrpc;
let northwind: string;

beforeAll(async () => {
  // A failed request is not tried again: the error in the middle of a listing comes at once.
  ({ emulator, provider } = await serveWithEmulator('1.14.0', { TENANTFORM_RETRY_TIMEOUT: '0' }));
  northwind = emulator.world().tenants['Northwind Partner'].id;
});

afterEach(() => emulator.setFaults({ rate_5xx: 0 }));

afterAll(async () => {
  await provider.close();
  await emulator.close();
});

/** A list block's `config` as Terraform 1.14 sends it: every attribute of the list schema. */
const listConfig = (c: { tenant_id?: string; include_subtree?: boolean; name_contains?: string } = {}) =>
  msgpack({ tenant_id: c.tenant_id ?? null, include_subtree: c.include_subtree ?? null, name_contains: c.name_contains ?? null });

const names = (events: Array<Record<string, any>>) => events.map((e) => e.display_name);

test('Terraform 1.14: list resource schemas and metadata name the kinds that can be listed; GenerateResourceConfig is advertised', async () => {
  const schema = await provider.call('GetProviderSchema', {});
  const listed = Object.keys(schema.list_resource_schemas).sort();
  expect(listed).toEqual(expect.arrayContaining(['tenantform_infra_component', 'tenantform_tenant', 'tenantform_usage_report', 'tenantform_user']));
  // Each is also a resource type with an identity: Terraform pairs them by name.
  for (const type of listed) expect(schema.resource_schemas[type]).toBeDefined();
  const attributes = schema.list_resource_schemas.tenantform_user.block.attributes.map((a: { name: string }) => a.name);
  expect(attributes).toEqual(['tenant_id', 'include_subtree', 'name_contains']);
  expect(schema.list_resource_schemas.tenantform_tenant_setting.block.attributes.map((a: { name: string }) => a.name)).toContain('names');
  expect(schema.server_capabilities.generate_resource_config).toBe(true);
  const metadata = await provider.call('GetMetadata', {});
  expect(metadata.list_resources.map((r: { type_name: string }) => r.type_name).sort()).toEqual(listed);
});

test('Terraform 1.14: ValidateListResourceConfig checks the `config` block', async () => {
  const ok = await provider.call('ValidateListResourceConfig', { type_name: 'tenantform_tenant', config: listConfig({ tenant_id: northwind }) });
  expect(ok.diagnostics).toEqual([]);
  const wrong = await provider.call('ValidateListResourceConfig', { type_name: 'tenantform_tenant', config: listConfig({ tenant_id: 'not-a-uuid' }) });
  expect(wrong.diagnostics[0]).toMatchObject({ severity: 'ERROR' });
  expect(wrong.diagnostics[0].attribute.steps).toEqual([{ attribute_name: 'tenant_id', selector: 'attribute_name' }]);
  const unknown = await provider.call('ValidateListResourceConfig', { type_name: 'tenantform_nothing', config: listConfig() });
  expect(unknown.diagnostics[0].summary).toBe('Unknown list resource "tenantform_nothing"');
});

test('Terraform 1.14: a tenant lists its children, each with its identity; `limit` ends the stream', async () => {
  const all = await provider.stream('ListResource', { type_name: 'tenantform_tenant', config: listConfig({ tenant_id: northwind }), limit: 100 });
  expect(names(all)).toEqual(['Acme Manufacturing / tenant', 'Globex Retail / tenant', 'Initech Finance / tenant']);
  const tenants = emulator.world().tenants;
  expect(all.map((e) => decoded(e.identity.identity_data))).toEqual([
    { tenant_id: tenants['Acme Manufacturing'].id },
    { tenant_id: tenants['Globex Retail'].id },
    { tenant_id: tenants['Initech Finance'].id },
  ]);
  // Without include_resource, no object is read.
  expect(all.every((e) => e.resource_object === null || e.resource_object === undefined)).toBe(true);

  const limited = await provider.stream('ListResource', { type_name: 'tenantform_tenant', config: listConfig({ tenant_id: northwind }), limit: 2 });
  expect(names(limited)).toEqual(['Acme Manufacturing / tenant', 'Globex Retail / tenant']);

  const filtered = await provider.stream('ListResource', {
    type_name: 'tenantform_tenant',
    // Without tenant_id: the API client's own tenant (Northwind Partner here).
    config: listConfig({ include_subtree: true, name_contains: 'RETAIL' }),
    limit: 100,
  });
  expect(names(filtered)).toEqual(['Globex Retail / tenant']);
});

test('Terraform 1.14: include_resource sends each object as an import records it', async () => {
  const events = await provider.stream('ListResource', {
    type_name: 'tenantform_tenant',
    config: listConfig({ tenant_id: northwind }),
    include_resource_object: true,
    limit: 1,
  });
  expect(events).toHaveLength(1);
  const acme = emulator.world().tenants['Acme Manufacturing'];
  expect(decoded(events[0].resource_object)).toMatchObject({ id: acme.id, name: 'Acme Manufacturing', parent_id: northwind, kind: 'customer' });
  expect(decoded(events[0].identity.identity_data)).toEqual({ tenant_id: acme.id });

  // GenerateResourceConfig: the configuration declaring it, without what only the platform sets.
  const generated = await provider.call('GenerateResourceConfig', { type_name: 'tenantform_tenant', state: events[0].resource_object });
  expect(generated.diagnostics).toEqual([]);
  const config = decoded(generated.config)!;
  expect(config).toMatchObject({ id: null, name: 'Acme Manufacturing', parent_id: northwind, kind: 'customer' });
});

test('Terraform 1.14: include_resource reads the listed objects several at once, as an export reads them', async () => {
  // Held until three reads of tenants are in flight together: read one by one, the listing would never end.
  const together = emulator.gather((r) => r.method === 'GET' && /\/tenants\/[0-9a-f-]{36}$/.test(r.path), 3);
  const events = await provider.stream('ListResource', {
    type_name: 'tenantform_tenant',
    config: listConfig({ tenant_id: northwind }),
    include_resource_object: true,
    limit: 100,
  });
  await together;
  // Sent in the listing's order, each with its object.
  expect(names(events)).toEqual(['Acme Manufacturing / tenant', 'Globex Retail / tenant', 'Initech Finance / tenant']);
  expect(events.map((e) => decoded(e.resource_object)!.name)).toEqual(['Acme Manufacturing', 'Globex Retail', 'Initech Finance']);
});

test('Terraform 1.14: an error in the middle of a listing ends the stream with a diagnostic, after the objects found', async () => {
  // The read of the second object listed fails (its answer is lost; this provider does not try again).
  const globex = emulator.world().tenants['Globex Retail'].id;
  emulator.loseAnswer((r) => r.method === 'GET' && r.path.endsWith(`/tenants/${globex}`));
  const events = await provider.stream('ListResource', {
    type_name: 'tenantform_tenant',
    config: listConfig({ tenant_id: northwind }),
    include_resource_object: true,
    limit: 100,
  });
  expect(names(events)).toEqual(['Acme Manufacturing / tenant', 'Globex Retail / tenant']);
  expect(events[0].diagnostic).toEqual([]);
  expect(decoded(events[0].resource_object)).toMatchObject({ name: 'Acme Manufacturing' });
  const last = events.at(-1)!;
  expect(last.diagnostic).toHaveLength(1);
  expect(last.diagnostic[0]).toMatchObject({ severity: 'ERROR' });
  expect(last.identity).toBeNull();
});

test('Terraform 1.14: users and components of the subtree are listed with include_subtree only', async () => {
  const globex = emulator.world().tenants['Globex Retail'].id;
  const api = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  let user: { id: string };
  let component: { id: string };
  try {
    user = await api.createUser({ tenant_id: globex, login: 'listed-admin', contact: { email: 'listed@globex.example' } });
    component = await api.createInfra({ owner_tenant_id: globex, name: 'Listed storage', url: 'https://listed.example.com', capabilities: ['backup'] });
  } finally {
    await api.close();
  }
  const list = (type: string, include_subtree: boolean) =>
    provider.stream('ListResource', { type_name: type, config: listConfig({ tenant_id: northwind, include_subtree }), limit: 100 });

  // Northwind itself has none: they are Globex's.
  expect(await list('tenantform_user', false)).toEqual([]);
  const users = await list('tenantform_user', true);
  expect(names(users)).toContain('Globex Retail / user listed-admin');
  expect(decoded(users.find((e) => e.display_name === 'Globex Retail / user listed-admin')!.identity.identity_data)).toEqual({ user_id: user.id });

  expect(await list('tenantform_infra_component', false)).toEqual([]);
  const components = await list('tenantform_infra_component', true);
  expect(names(components)).toEqual(['Globex Retail / Listed storage']);
  expect(decoded(components[0].identity.identity_data)).toEqual({ component_id: component.id });
});
