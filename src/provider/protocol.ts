/**
 * The wire contract Terraform speaks to a provider: `tfplugin6.Provider` (plugin protocol 6),
 * go-plugin's `plugin.GRPCController` and `plugin.GRPCStdio`, and the gRPC health service.
 * Kept as .proto text in a constant so that the compiled provider needs no file beside it.
 *
 * Checked against tfplugin6.10, Terraform's published definition (resource identity from 6.9,
 * list resources, GenerateResourceConfig and actions from 6.10), and against tfplugin6.11 for
 * the deprecation messages of attributes and blocks: every message, field number, type, oneof,
 * enum value and streaming RPC here is as published. What differs, on purpose and without effect
 * on the wire: the state store calls and their messages are left out (this provider offers no
 * state store, so they are answered as unimplemented), and `Timestamp` is declared here with
 * google.protobuf.Timestamp's two fields rather than imported. Messages Terraform 1.11 never
 * sends to this provider (ephemeral resources, functions) are declared so that their calls get
 * a well-formed answer.
 */
import type { PackageDefinition } from '@grpc/proto-loader';

export const TFPLUGIN6_PROTO = `
syntax = "proto3";
package tfplugin6;

message DynamicValue {
  bytes msgpack = 1;
  bytes json = 2;
}

message Diagnostic {
  enum Severity {
    INVALID = 0;
    ERROR = 1;
    WARNING = 2;
  }
  Severity severity = 1;
  string summary = 2;
  string detail = 3;
  AttributePath attribute = 4;
}

message FunctionError {
  string text = 1;
  optional int64 function_argument = 2;
}

message AttributePath {
  message Step {
    oneof selector {
      string attribute_name = 1;
      string element_key_string = 2;
      int64 element_key_int = 3;
    }
  }
  repeated Step steps = 1;
}

message StopProvider {
  message Request {}
  message Response {
    string Error = 1;
  }
}

message RawState {
  bytes json = 1;
  map<string, string> flatmap = 2;
}

enum StringKind {
  PLAIN = 0;
  MARKDOWN = 1;
}

message Schema {
  message Block {
    int64 version = 1;
    repeated Attribute attributes = 2;
    repeated NestedBlock block_types = 3;
    string description = 4;
    StringKind description_kind = 5;
    bool deprecated = 6;
    string deprecation_message = 7;
  }

  message Attribute {
    string name = 1;
    bytes type = 2;
    Object nested_type = 10;
    string description = 3;
    bool required = 4;
    bool optional = 5;
    bool computed = 6;
    bool sensitive = 7;
    StringKind description_kind = 8;
    bool deprecated = 9;
    bool write_only = 11;
    string deprecation_message = 12;
  }

  message NestedBlock {
    enum NestingMode {
      INVALID = 0;
      SINGLE = 1;
      LIST = 2;
      SET = 3;
      MAP = 4;
      GROUP = 5;
    }
    string type_name = 1;
    Block block = 2;
    NestingMode nesting = 3;
    int64 min_items = 4;
    int64 max_items = 5;
  }

  message Object {
    enum NestingMode {
      INVALID = 0;
      SINGLE = 1;
      LIST = 2;
      SET = 3;
      MAP = 4;
    }
    repeated Attribute attributes = 1;
    NestingMode nesting = 3;
    int64 min_items = 4 [deprecated = true];
    int64 max_items = 5 [deprecated = true];
  }

  int64 version = 1;
  Block block = 2;
}

message Function {
  message Parameter {
    string name = 1;
    bytes type = 2;
    bool allow_null_value = 3;
    bool allow_unknown_values = 4;
    string description = 5;
    StringKind description_kind = 6;
  }
  message Return {
    bytes type = 1;
  }
  repeated Parameter parameters = 1;
  Parameter variadic_parameter = 2;
  Return return = 3;
  string summary = 4;
  string description = 5;
  StringKind description_kind = 6;
  string deprecation_message = 7;
}

message ServerCapabilities {
  bool plan_destroy = 1;
  bool get_provider_schema_optional = 2;
  bool move_resource_state = 3;
  bool generate_resource_config = 4;
}

message ClientCapabilities {
  bool deferral_allowed = 1;
  bool write_only_attributes_allowed = 2;
}

message Deferred {
  enum Reason {
    UNKNOWN = 0;
    RESOURCE_CONFIG_UNKNOWN = 1;
    PROVIDER_CONFIG_UNKNOWN = 2;
    ABSENT_PREREQ = 3;
  }
  Reason reason = 1;
}

message Timestamp {
  int64 seconds = 1;
  int32 nanos = 2;
}

service Provider {
  rpc GetMetadata(GetMetadata.Request) returns (GetMetadata.Response);
  rpc GetProviderSchema(GetProviderSchema.Request) returns (GetProviderSchema.Response);
  rpc ValidateProviderConfig(ValidateProviderConfig.Request) returns (ValidateProviderConfig.Response);
  rpc ValidateResourceConfig(ValidateResourceConfig.Request) returns (ValidateResourceConfig.Response);
  rpc ValidateDataResourceConfig(ValidateDataResourceConfig.Request) returns (ValidateDataResourceConfig.Response);
  rpc UpgradeResourceState(UpgradeResourceState.Request) returns (UpgradeResourceState.Response);
  rpc ConfigureProvider(ConfigureProvider.Request) returns (ConfigureProvider.Response);
  rpc ReadResource(ReadResource.Request) returns (ReadResource.Response);
  rpc PlanResourceChange(PlanResourceChange.Request) returns (PlanResourceChange.Response);
  rpc ApplyResourceChange(ApplyResourceChange.Request) returns (ApplyResourceChange.Response);
  rpc ImportResourceState(ImportResourceState.Request) returns (ImportResourceState.Response);
  rpc MoveResourceState(MoveResourceState.Request) returns (MoveResourceState.Response);
  rpc ReadDataSource(ReadDataSource.Request) returns (ReadDataSource.Response);
  rpc ValidateEphemeralResourceConfig(ValidateEphemeralResourceConfig.Request) returns (ValidateEphemeralResourceConfig.Response);
  rpc OpenEphemeralResource(OpenEphemeralResource.Request) returns (OpenEphemeralResource.Response);
  rpc RenewEphemeralResource(RenewEphemeralResource.Request) returns (RenewEphemeralResource.Response);
  rpc CloseEphemeralResource(CloseEphemeralResource.Request) returns (CloseEphemeralResource.Response);
  rpc GetFunctions(GetFunctions.Request) returns (GetFunctions.Response);
  rpc CallFunction(CallFunction.Request) returns (CallFunction.Response);
  rpc StopProvider(StopProvider.Request) returns (StopProvider.Response);
  rpc GetResourceIdentitySchemas(GetResourceIdentitySchemas.Request) returns (GetResourceIdentitySchemas.Response);
  rpc UpgradeResourceIdentity(UpgradeResourceIdentity.Request) returns (UpgradeResourceIdentity.Response);
  rpc GenerateResourceConfig(GenerateResourceConfig.Request) returns (GenerateResourceConfig.Response);
  rpc ListResource(ListResource.Request) returns (stream ListResource.Event);
  rpc ValidateListResourceConfig(ValidateListResourceConfig.Request) returns (ValidateListResourceConfig.Response);
  rpc PlanAction(PlanAction.Request) returns (PlanAction.Response);
  rpc InvokeAction(InvokeAction.Request) returns (stream InvokeAction.Event);
  rpc ValidateActionConfig(ValidateActionConfig.Request) returns (ValidateActionConfig.Response);
}

message GetMetadata {
  message Request {}
  message Response {
    ServerCapabilities server_capabilities = 1;
    repeated Diagnostic diagnostics = 2;
    repeated DataSourceMetadata data_sources = 3;
    repeated ResourceMetadata resources = 4;
    repeated FunctionMetadata functions = 5;
    repeated EphemeralResourceMetadata ephemeral_resources = 6;
    repeated ListResourceMetadata list_resources = 7;
    repeated ActionMetadata actions = 9;
  }
  message ListResourceMetadata {
    string type_name = 1;
  }
  message ActionMetadata {
    string type_name = 1;
  }
  message EphemeralResourceMetadata {
    string type_name = 1;
  }
  message FunctionMetadata {
    string name = 1;
  }
  message DataSourceMetadata {
    string type_name = 1;
  }
  message ResourceMetadata {
    string type_name = 1;
  }
}

message GetProviderSchema {
  message Request {}
  message Response {
    Schema provider = 1;
    map<string, Schema> resource_schemas = 2;
    map<string, Schema> data_source_schemas = 3;
    repeated Diagnostic diagnostics = 4;
    Schema provider_meta = 5;
    ServerCapabilities server_capabilities = 6;
    map<string, Function> functions = 7;
    map<string, Schema> ephemeral_resource_schemas = 8;
    map<string, Schema> list_resource_schemas = 9;
    map<string, ActionSchema> action_schemas = 11;
  }
}

message ValidateProviderConfig {
  message Request {
    DynamicValue config = 1;
  }
  message Response {
    repeated Diagnostic diagnostics = 2;
  }
}

message UpgradeResourceState {
  message Request {
    string type_name = 1;
    int64 version = 2;
    RawState raw_state = 3;
  }
  message Response {
    DynamicValue upgraded_state = 1;
    repeated Diagnostic diagnostics = 2;
  }
}

message ValidateResourceConfig {
  message Request {
    string type_name = 1;
    DynamicValue config = 2;
    ClientCapabilities client_capabilities = 3;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
  }
}

message ValidateDataResourceConfig {
  message Request {
    string type_name = 1;
    DynamicValue config = 2;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
  }
}

message ValidateEphemeralResourceConfig {
  message Request {
    string type_name = 1;
    DynamicValue config = 2;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
  }
}

message ConfigureProvider {
  message Request {
    string terraform_version = 1;
    DynamicValue config = 2;
    ClientCapabilities client_capabilities = 3;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
  }
}

message ReadResource {
  message Request {
    string type_name = 1;
    DynamicValue current_state = 2;
    bytes private = 3;
    DynamicValue provider_meta = 4;
    ClientCapabilities client_capabilities = 5;
    ResourceIdentityData current_identity = 6;
  }
  message Response {
    DynamicValue new_state = 1;
    repeated Diagnostic diagnostics = 2;
    bytes private = 3;
    Deferred deferred = 4;
    ResourceIdentityData new_identity = 5;
  }
}

message PlanResourceChange {
  message Request {
    string type_name = 1;
    DynamicValue prior_state = 2;
    DynamicValue proposed_new_state = 3;
    DynamicValue config = 4;
    bytes prior_private = 5;
    DynamicValue provider_meta = 6;
    ClientCapabilities client_capabilities = 7;
    ResourceIdentityData prior_identity = 8;
  }
  message Response {
    DynamicValue planned_state = 1;
    repeated AttributePath requires_replace = 2;
    bytes planned_private = 3;
    repeated Diagnostic diagnostics = 4;
    bool legacy_type_system = 5;
    Deferred deferred = 6;
    ResourceIdentityData planned_identity = 7;
  }
}

message ApplyResourceChange {
  message Request {
    string type_name = 1;
    DynamicValue prior_state = 2;
    DynamicValue planned_state = 3;
    DynamicValue config = 4;
    bytes planned_private = 5;
    DynamicValue provider_meta = 6;
    ResourceIdentityData planned_identity = 7;
  }
  message Response {
    DynamicValue new_state = 1;
    bytes private = 2;
    repeated Diagnostic diagnostics = 3;
    bool legacy_type_system = 4;
    ResourceIdentityData new_identity = 5;
  }
}

message ImportResourceState {
  message Request {
    string type_name = 1;
    string id = 2;
    ClientCapabilities client_capabilities = 3;
    ResourceIdentityData identity = 4;
  }
  message ImportedResource {
    string type_name = 1;
    DynamicValue state = 2;
    bytes private = 3;
    ResourceIdentityData identity = 4;
  }
  message Response {
    repeated ImportedResource imported_resources = 1;
    repeated Diagnostic diagnostics = 2;
    Deferred deferred = 3;
  }
}

message MoveResourceState {
  message Request {
    string source_provider_address = 1;
    string source_type_name = 2;
    int64 source_schema_version = 3;
    RawState source_state = 4;
    string target_type_name = 5;
    bytes source_private = 6;
    RawState source_identity = 7;
    int64 source_identity_schema_version = 8;
  }
  message Response {
    DynamicValue target_state = 1;
    repeated Diagnostic diagnostics = 2;
    bytes target_private = 3;
    ResourceIdentityData target_identity = 4;
  }
}

message ReadDataSource {
  message Request {
    string type_name = 1;
    DynamicValue config = 2;
    DynamicValue provider_meta = 3;
    ClientCapabilities client_capabilities = 4;
  }
  message Response {
    DynamicValue state = 1;
    repeated Diagnostic diagnostics = 2;
    Deferred deferred = 3;
  }
}

message OpenEphemeralResource {
  message Request {
    string type_name = 1;
    DynamicValue config = 2;
    ClientCapabilities client_capabilities = 3;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
    optional Timestamp renew_at = 2;
    DynamicValue result = 3;
    optional bytes private = 4;
    Deferred deferred = 5;
  }
}

message RenewEphemeralResource {
  message Request {
    string type_name = 1;
    optional bytes private = 2;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
    optional Timestamp renew_at = 2;
    optional bytes private = 3;
  }
}

message CloseEphemeralResource {
  message Request {
    string type_name = 1;
    optional bytes private = 2;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
  }
}

message GetFunctions {
  message Request {}
  message Response {
    map<string, Function> functions = 1;
    repeated Diagnostic diagnostics = 2;
  }
}

message CallFunction {
  message Request {
    string name = 1;
    repeated DynamicValue arguments = 2;
  }
  message Response {
    DynamicValue result = 1;
    FunctionError error = 2;
  }
}

message ResourceIdentitySchema {
  message IdentityAttribute {
    string name = 1;
    bytes type = 2;
    bool required_for_import = 3;
    bool optional_for_import = 4;
    string description = 5;
  }
  int64 version = 1;
  repeated IdentityAttribute identity_attributes = 2;
}

message ResourceIdentityData {
  DynamicValue identity_data = 1;
}

message GetResourceIdentitySchemas {
  message Request {}
  message Response {
    map<string, ResourceIdentitySchema> identity_schemas = 1;
    repeated Diagnostic diagnostics = 2;
  }
}

message UpgradeResourceIdentity {
  message Request {
    string type_name = 1;
    int64 version = 2;
    RawState raw_identity = 3;
  }
  message Response {
    ResourceIdentityData upgraded_identity = 1;
    repeated Diagnostic diagnostics = 2;
  }
}

message GenerateResourceConfig {
  message Request {
    string type_name = 1;
    DynamicValue state = 2;
  }
  message Response {
    DynamicValue config = 1;
    repeated Diagnostic diagnostics = 2;
  }
}

message ListResource {
  message Request {
    string type_name = 1;
    DynamicValue config = 2;
    bool include_resource_object = 3;
    int64 limit = 4;
  }
  message Event {
    ResourceIdentityData identity = 1;
    string display_name = 2;
    optional DynamicValue resource_object = 3;
    repeated Diagnostic diagnostic = 4;
  }
}

message ValidateListResourceConfig {
  message Request {
    string type_name = 1;
    DynamicValue config = 2;
    DynamicValue include_resource_object = 3;
    DynamicValue limit = 4;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
  }
}

// Actions (protocol 6.10, Terraform 1.14): \`action\` blocks, run by \`terraform apply -invoke\`
// or by a resource's \`lifecycle.action_trigger\`.
message ActionSchema {
  Schema schema = 1;
}

message PlanAction {
  message Request {
    string action_type = 1;
    DynamicValue config = 2;
    ClientCapabilities client_capabilities = 3;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
    Deferred deferred = 2;
  }
}

message InvokeAction {
  message Request {
    string action_type = 1;
    DynamicValue config = 2;
    ClientCapabilities client_capabilities = 3;
  }
  message Event {
    message Progress {
      string message = 1;
    }
    message Completed {
      repeated Diagnostic diagnostics = 1;
    }
    oneof type {
      Progress progress = 1;
      Completed completed = 2;
    }
  }
}

message ValidateActionConfig {
  message Request {
    string type_name = 1;
    DynamicValue config = 2;
  }
  message Response {
    repeated Diagnostic diagnostics = 1;
  }
}
`;

/** go-plugin's own services: Terraform asks the plugin to shut down and for its output. */
export const GO_PLUGIN_PROTO = `
syntax = "proto3";
package plugin;

message Empty {}

service GRPCController {
  rpc Shutdown(Empty) returns (Empty);
}

message StdioData {
  enum Channel {
    INVALID = 0;
    STDOUT = 1;
    STDERR = 2;
  }
  Channel channel = 1;
  bytes data = 2;
}

service GRPCStdio {
  rpc StreamStdio(Empty) returns (stream StdioData);
}
`;

export const HEALTH_PROTO = `
syntax = "proto3";
package grpc.health.v1;

message HealthCheckRequest {
  string service = 1;
}

message HealthCheckResponse {
  enum ServingStatus {
    UNKNOWN = 0;
    SERVING = 1;
    NOT_SERVING = 2;
    SERVICE_UNKNOWN = 3;
  }
  ServingStatus status = 1;
}

service Health {
  rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
}
`;

/** The options the protocol's values rely on: field names as written, int64 as numbers. */
export const LOADER_OPTIONS = { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true } as const;

/** Defined (as true) by the bundle of the single executable, where no package is resolved from a folder. */
declare const TENANTFORM_BUNDLED: true | undefined;

/** Parses the three .proto texts into one package definition for grpc-js. */
export function loadProtocol(): PackageDefinition {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loader = require('@grpc/proto-loader') as typeof import('@grpc/proto-loader');
  // protobufjs is proto-loader's own parser; resolving it through proto-loader uses that copy. A
  // bundle holds one copy, which proto-loader and this code both name.
  const protobuf = (
    typeof TENANTFORM_BUNDLED !== 'undefined'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        require('protobufjs')
      : // eslint-disable-next-line @typescript-eslint/no-require-imports
        require(require.resolve('protobufjs', { paths: [require.resolve('@grpc/proto-loader')] }))
  ) as { Root: new () => unknown; parse: (source: string, root: unknown, options: object) => unknown };
  const root = new protobuf.Root() as { toJSON(): object };
  for (const source of [TFPLUGIN6_PROTO, GO_PLUGIN_PROTO, HEALTH_PROTO]) protobuf.parse(source, root, { keepCase: true });
  return loader.fromJSON(root.toJSON(), LOADER_OPTIONS);
}
