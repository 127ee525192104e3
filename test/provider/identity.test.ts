/**
 * Resource identity over gRPC, sent as Terraform 1.12 (plugin protocol 6.9) sends it: the
 * identity schemas its GetProviderSchema asks for, the identity beside every object it is
 * answered, import by identity (an `import` block with `identity`), and identity upgrade.
 * Terraform 1.11 asks for none of it; the suites that drive the installed binary cover it.
 */
import { PlatformClient } from '../../src/api';
import { isUnknown } from '../../src/resources/values';
import { decoded, infraConfig as infraConfigOf, msgpack, NIL, serveWithEmulator, type Emulator, type ProviderOverGrpc } from './grpc';

const INFRA = 'tenantform_infra_component';

let emulator: Emulator;
let provider: ProviderOverGrpc;
let owner: string;

beforeAll(async () => {
  ({ emulator, provider } = await serveWithEmulator('1.12.0'));
  owner = emulator.world().tenants['Globex Retail'].id;
});

afterAll(async () => {
  await provider.close();
  await emulator.close();
});

const infraConfig = (name: string) => infraConfigOf(owner, name, 'https://identity.example.com');

const identity = (value: object) => ({ identity_data: msgpack(value) });

/** Plans and applies a new component as Terraform 1.12 does; the answers of both. */
async function createInfra(name: string) {
  const config = infraConfig(name);
  const plan = await provider.call('PlanResourceChange', { type_name: INFRA, prior_state: NIL, proposed_new_state: msgpack(config), config: msgpack(config) });
  const apply = await provider.call('ApplyResourceChange', {
    type_name: INFRA,
    prior_state: NIL,
    planned_state: plan.planned_state,
    config: msgpack(config),
    planned_identity: plan.planned_identity,
  });
  expect(apply.diagnostics).toEqual([]);
  return { plan, apply, state: decoded(apply.new_state)! };
}

test('Terraform 1.12: every resource type has an identity schema, derived from its key attributes', async () => {
  const schema = await provider.call('GetProviderSchema', {});
  const answer = await provider.call('GetResourceIdentitySchemas', {});
  expect(answer.diagnostics).toEqual([]);
  expect(Object.keys(answer.identity_schemas).sort()).toEqual(Object.keys(schema.resource_schemas).sort());
  const names = (type: string) => answer.identity_schemas[type].identity_attributes.map((a: { name: string }) => a.name);
  expect(names('tenantform_tenant')).toEqual(['tenant_id']);
  expect(names('tenantform_user')).toEqual(['user_id']);
  expect(names('tenantform_api_client')).toEqual(['client_id']);
  expect(names(INFRA)).toEqual(['component_id']);
  expect(names('tenantform_usage_report')).toEqual(['report_id']);
  expect(names('tenantform_tenant_setting')).toEqual(['application_id', 'tenant_id', 'name']);
  expect(names('tenantform_user_roles')).toEqual(['user_id']);
  const [attribute] = answer.identity_schemas[INFRA].identity_attributes;
  expect(attribute).toMatchObject({ required_for_import: true, optional_for_import: false });
  expect(JSON.parse(Buffer.from(attribute.type).toString())).toBe('string');
  expect(answer.identity_schemas[INFRA].version).toBe(0);
});

test('Terraform 1.12: plan, apply, read and update carry the identity of the object', async () => {
  const { plan, apply, state } = await createInfra('Identity lifecycle');
  // A create is planned with the identity not yet known: the platform gives the id.
  expect(isUnknown(decoded(plan.planned_identity.identity_data)!.component_id)).toBe(true);
  expect(decoded(apply.new_identity.identity_data)).toEqual({ component_id: state.id });

  const read = await provider.call('ReadResource', { type_name: INFRA, current_state: apply.new_state, current_identity: apply.new_identity });
  expect(read.diagnostics).toEqual([]);
  expect(decoded(read.new_identity.identity_data)).toEqual({ component_id: state.id });

  const changed = { ...state, url: 'https://moved.example.com' };
  const update = await provider.call('PlanResourceChange', {
    type_name: INFRA,
    prior_state: read.new_state,
    proposed_new_state: msgpack(changed),
    config: msgpack({ ...infraConfig('Identity lifecycle'), url: 'https://moved.example.com' }),
    prior_identity: read.new_identity,
  });
  expect(update.diagnostics).toEqual([]);
  expect(decoded(update.planned_identity.identity_data)).toEqual({ component_id: state.id });

  // Destroying: no object, no identity.
  const destroy = await provider.call('PlanResourceChange', { type_name: INFRA, prior_state: read.new_state, proposed_new_state: NIL, config: NIL });
  expect(destroy.planned_identity).toBeNull();
});

test('Terraform 1.12: an import block with `identity` imports the object it names, with its identity', async () => {
  const { state } = await createInfra('Imported by identity');
  const answer = await provider.call('ImportResourceState', { type_name: INFRA, id: '', identity: identity({ component_id: state.id }) });
  expect(answer.diagnostics).toEqual([]);
  expect(answer.imported_resources).toHaveLength(1);
  const [imported] = answer.imported_resources;
  expect(decoded(imported.state)).toMatchObject({ id: state.id, name: 'Imported by identity', owner_tenant_id: owner });
  expect(decoded(imported.identity.identity_data)).toEqual({ component_id: state.id });

  // By id, as Terraform 1.11 imports, the same object comes with its identity too.
  const byId = await provider.call('ImportResourceState', { type_name: INFRA, id: state.id });
  expect(decoded(byId.imported_resources[0].identity.identity_data)).toEqual({ component_id: state.id });
});

test('Terraform 1.12: importing an identity whose object no longer exists is an error naming the identity', async () => {
  const { state } = await createInfra('Deleted before import');
  const api = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  try {
    await api.deleteInfra(state.id, state.version);
  } finally {
    await api.close();
  }
  const answer = await provider.call('ImportResourceState', { type_name: INFRA, id: '', identity: identity({ component_id: state.id }) });
  expect(answer.imported_resources).toEqual([]);
  expect(answer.diagnostics).toHaveLength(1);
  expect(answer.diagnostics[0]).toMatchObject({ severity: 'ERROR', summary: 'Cannot import a non-existent object' });
  expect(answer.diagnostics[0].detail).toContain(`component_id = "${state.id}"`);

  const incomplete = await provider.call('ImportResourceState', { type_name: INFRA, id: '', identity: identity({ component_id: null }) });
  expect(incomplete.diagnostics[0]).toMatchObject({ severity: 'ERROR', summary: 'Incomplete identity' });
});

test('Terraform 1.12: a stored identity is upgraded from its JSON; a newer version is refused', async () => {
  const id = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
  const upgraded = await provider.call('UpgradeResourceIdentity', {
    type_name: INFRA,
    version: 0,
    raw_identity: { json: Buffer.from(JSON.stringify({ component_id: id })) },
  });
  expect(upgraded.diagnostics).toEqual([]);
  expect(decoded(upgraded.upgraded_identity.identity_data)).toEqual({ component_id: id });

  const newer = await provider.call('UpgradeResourceIdentity', { type_name: INFRA, version: 1, raw_identity: { json: Buffer.from('{}') } });
  expect(newer.diagnostics[0]).toMatchObject({ severity: 'ERROR', summary: 'Identity written by a newer tenantform' });
});

test('Terraform 1.12: a state moved from another address of the provider arrives with its identity; another type is refused', async () => {
  const { apply, state } = await createInfra('Moved between registries');
  const move = (source_type_name: string, stored: object, source_identity?: object) =>
    provider.call('MoveResourceState', {
      source_provider_address: 'registry.example.com/acme/tenantform',
      source_type_name,
      source_schema_version: 0,
      source_state: { json: Buffer.from(JSON.stringify(stored)) },
      target_type_name: INFRA,
      source_private: Buffer.from('{"seen":1}'),
      source_identity: source_identity ? { json: Buffer.from(JSON.stringify(source_identity)) } : null,
      source_identity_schema_version: 0,
    });

  const moved = await move(INFRA, state, { component_id: state.id });
  expect(moved.diagnostics).toEqual([]);
  expect(decoded(moved.target_state)).toEqual(decoded(apply.new_state));
  expect(decoded(moved.target_identity.identity_data)).toEqual({ component_id: state.id });
  expect(Buffer.from(moved.target_private).toString()).toBe('{"seen":1}');

  // A state that lost its id still names the object through the identity the source recorded.
  const withoutId = await move(INFRA, { ...state, id: null }, { component_id: state.id });
  expect(decoded(withoutId.target_identity.identity_data)).toEqual({ component_id: state.id });

  const otherType = await move('tenantform_tenant', state);
  expect(otherType.target_state).toBeNull();
  expect(otherType.diagnostics[0]).toMatchObject({ severity: 'ERROR', summary: 'Moving state is not supported' });
});
