/**
 * The newest parts of the protocol text against the published tfplugin6 definition: a wrong field
 * number is read by Terraform 1.14 to 1.16 as another field, or not at all, and no error says so.
 */
import { TFPLUGIN6_PROTO } from './protocol';

interface Field {
  id: number;
  type: string;
  repeated: boolean;
  options?: Record<string, unknown>;
}
interface Method {
  requestType: string;
  responseType: string;
  responseStream?: boolean;
}
interface Root {
  lookupType(name: string): { fields: Record<string, Field>; oneofs?: Record<string, { oneof: string[] }> };
  lookupService(name: string): { methods: Record<string, Method> };
  lookupEnum(name: string): { values: Record<string, number> };
}

function parsed(): Root {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const protobuf = require(require.resolve('protobufjs', { paths: [require.resolve('@grpc/proto-loader')] })) as {
    parse(source: string, options: object): { root: Root };
  };
  return protobuf.parse(TFPLUGIN6_PROTO, { keepCase: true }).root;
}

const root = parsed();

/** Each field as `number type`, `repeated` before the type when it is one. */
function fieldsOf(message: string): Record<string, string> {
  const { fields } = root.lookupType(`tfplugin6.${message}`);
  return Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, `${f.id} ${f.repeated ? 'repeated ' : ''}${f.type}`]));
}

/** Fields declared `optional` (proto3 presence): protobufjs gives each a synthetic oneof `_<name>`. */
function optionalFieldsOf(message: string): string[] {
  const { oneofs = {} } = root.lookupType(`tfplugin6.${message}`);
  return Object.entries(oneofs)
    .filter(([name, o]) => name === `_${o.oneof[0]}`)
    .map(([, o]) => o.oneof[0])
    .sort();
}

test('resource identity (6.9) is numbered as published', () => {
  expect(fieldsOf('ResourceIdentitySchema.IdentityAttribute')).toEqual({
    name: '1 string',
    type: '2 bytes',
    required_for_import: '3 bool',
    optional_for_import: '4 bool',
    description: '5 string',
  });
  expect(fieldsOf('ResourceIdentitySchema')).toEqual({ version: '1 int64', identity_attributes: '2 repeated IdentityAttribute' });
  expect(fieldsOf('ResourceIdentityData')).toEqual({ identity_data: '1 DynamicValue' });
  expect(fieldsOf('ReadResource.Request').current_identity).toBe('6 ResourceIdentityData');
  expect(fieldsOf('ReadResource.Response').new_identity).toBe('5 ResourceIdentityData');
  expect(fieldsOf('PlanResourceChange.Request').prior_identity).toBe('8 ResourceIdentityData');
  expect(fieldsOf('PlanResourceChange.Response').planned_identity).toBe('7 ResourceIdentityData');
  expect(fieldsOf('ApplyResourceChange.Request').planned_identity).toBe('7 ResourceIdentityData');
  expect(fieldsOf('ApplyResourceChange.Response').new_identity).toBe('5 ResourceIdentityData');
  expect(fieldsOf('ImportResourceState.Request').identity).toBe('4 ResourceIdentityData');
  expect(fieldsOf('ImportResourceState.ImportedResource').identity).toBe('4 ResourceIdentityData');
  expect(fieldsOf('MoveResourceState.Request')).toMatchObject({ source_identity: '7 RawState', source_identity_schema_version: '8 int64' });
  expect(fieldsOf('MoveResourceState.Response')).toMatchObject({ target_private: '3 bytes', target_identity: '4 ResourceIdentityData' });
  expect(fieldsOf('UpgradeResourceIdentity.Request')).toEqual({ type_name: '1 string', version: '2 int64', raw_identity: '3 RawState' });
  expect(fieldsOf('GetResourceIdentitySchemas.Response').diagnostics).toBe('2 repeated Diagnostic');
});

test('list resources, generated configuration and actions (6.10) are numbered as published, with their streams', () => {
  expect(fieldsOf('ListResource.Request')).toEqual({ type_name: '1 string', config: '2 DynamicValue', include_resource_object: '3 bool', limit: '4 int64' });
  expect(fieldsOf('ListResource.Event')).toEqual({
    identity: '1 ResourceIdentityData',
    display_name: '2 string',
    resource_object: '3 DynamicValue',
    diagnostic: '4 repeated Diagnostic',
  });
  expect(optionalFieldsOf('ListResource.Event')).toEqual(['resource_object']);
  expect(fieldsOf('ValidateListResourceConfig.Request')).toEqual({
    type_name: '1 string',
    config: '2 DynamicValue',
    include_resource_object: '3 DynamicValue',
    limit: '4 DynamicValue',
  });
  expect(fieldsOf('GenerateResourceConfig.Request')).toEqual({ type_name: '1 string', state: '2 DynamicValue' });
  expect(fieldsOf('GenerateResourceConfig.Response')).toEqual({ config: '1 DynamicValue', diagnostics: '2 repeated Diagnostic' });
  expect(fieldsOf('ServerCapabilities').generate_resource_config).toBe('4 bool');
  expect(fieldsOf('GetMetadata.Response')).toMatchObject({ list_resources: '7 repeated ListResourceMetadata', actions: '9 repeated ActionMetadata' });
  expect(fieldsOf('GetProviderSchema.Response')).toMatchObject({ list_resource_schemas: '9 Schema', action_schemas: '11 ActionSchema' });
  expect(fieldsOf('ActionSchema')).toEqual({ schema: '1 Schema' });
  const action = { action_type: '1 string', config: '2 DynamicValue', client_capabilities: '3 ClientCapabilities' };
  expect(fieldsOf('PlanAction.Request')).toEqual(action);
  expect(fieldsOf('PlanAction.Response')).toEqual({ diagnostics: '1 repeated Diagnostic', deferred: '2 Deferred' });
  expect(fieldsOf('InvokeAction.Request')).toEqual(action);
  expect(fieldsOf('InvokeAction.Event')).toEqual({ progress: '1 Progress', completed: '2 Completed' });
  expect(root.lookupType('tfplugin6.InvokeAction.Event').oneofs?.type.oneof).toEqual(['progress', 'completed']);
  expect(fieldsOf('ValidateActionConfig.Request')).toEqual({ type_name: '1 string', config: '2 DynamicValue' });

  const { methods } = root.lookupService('tfplugin6.Provider');
  expect(methods.ListResource).toMatchObject({ requestType: 'ListResource.Request', responseType: 'ListResource.Event', responseStream: true });
  expect(methods.InvokeAction).toMatchObject({ requestType: 'InvokeAction.Request', responseType: 'InvokeAction.Event', responseStream: true });
  for (const unary of ['GenerateResourceConfig', 'ValidateListResourceConfig', 'PlanAction', 'ValidateActionConfig', 'MoveResourceState'])
    expect(methods[unary].responseStream).toBeFalsy();
});

test('deprecation messages (6.11) and the capabilities are numbered as published', () => {
  expect(fieldsOf('Schema.Block').deprecation_message).toBe('7 string');
  expect(fieldsOf('Schema.Attribute')).toMatchObject({ write_only: '11 bool', deprecation_message: '12 string' });
  expect(fieldsOf('ClientCapabilities')).toEqual({ deferral_allowed: '1 bool', write_only_attributes_allowed: '2 bool' });
  expect(root.lookupEnum('tfplugin6.Deferred.Reason').values).toEqual({ UNKNOWN: 0, RESOURCE_CONFIG_UNKNOWN: 1, PROVIDER_CONFIG_UNKNOWN: 2, ABSENT_PREREQ: 3 });
});

test('a diagnostic has the four published fields; presence is kept where the protocol declares it', () => {
  expect(fieldsOf('Diagnostic')).toEqual({ severity: '1 Severity', summary: '2 string', detail: '3 string', attribute: '4 AttributePath' });
  expect(optionalFieldsOf('FunctionError')).toEqual(['function_argument']);
  expect(optionalFieldsOf('OpenEphemeralResource.Response')).toEqual(['private', 'renew_at']);
  expect(optionalFieldsOf('RenewEphemeralResource.Request')).toEqual(['private']);
  expect(optionalFieldsOf('RenewEphemeralResource.Response')).toEqual(['private', 'renew_at']);
  expect(optionalFieldsOf('CloseEphemeralResource.Request')).toEqual(['private']);
});
