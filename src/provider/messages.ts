/**
 * The messages of `tfplugin6.Provider` (plugin protocol 6) that the provider receives and
 * answers: the names and fields of tfplugin6.proto (see protocol.ts), a nested message's name
 * joined to its parent's with `_`, in the form proto-loader gives them under LOADER_OPTIONS
 * (field names as written, enums by name, int64 as numbers, bytes as Buffers). Every field is
 * optional, as in proto3: a message field Terraform leaves out arrives as null, and an answer
 * holds only the fields it sets.
 */

/** Exactly one of the two is set. */
export interface DynamicValue {
  msgpack?: Uint8Array | null;
  json?: Uint8Array | null;
}

export type AttributePath_Step = { attribute_name: string } | { element_key_string: string } | { element_key_int: number };

export interface AttributePath {
  steps: AttributePath_Step[];
}

export interface Diagnostic {
  severity: 'ERROR' | 'WARNING';
  summary: string;
  detail: string;
  attribute?: AttributePath | null;
}

export interface RawState {
  json?: Uint8Array | null;
  flatmap?: Record<string, string>;
}

export type StringKind = 'PLAIN' | 'MARKDOWN';

export interface Schema_Attribute {
  name: string;
  type: Uint8Array;
  nested_type: Schema_Object | null;
  description: string;
  description_kind: StringKind;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  deprecated?: boolean;
  /** Schema.Attribute field 12: Terraform 1.15 and later show it; older Terraform reads `deprecated` alone (and ignores the field). */
  deprecation_message?: string;
}

export interface Schema_Object {
  attributes: Schema_Attribute[];
  nesting: 'SINGLE' | 'LIST' | 'SET' | 'MAP';
}

export interface Schema_Block {
  version: number;
  attributes: Schema_Attribute[];
  /** Always empty: tenantform declares nested attributes, never nested blocks. */
  block_types: never[];
  description: string;
  description_kind: StringKind;
}

export interface Schema {
  version: number;
  block: Schema_Block;
}

export interface ServerCapabilities {
  plan_destroy: boolean;
  get_provider_schema_optional: boolean;
  move_resource_state: boolean;
  generate_resource_config?: boolean;
}

/** What every answer may carry; an answer of diagnostics alone is a well-formed answer to any call. */
export interface DiagnosticsResponse {
  diagnostics?: Diagnostic[];
}

export type Empty = Record<string, never>;

export interface GetMetadata_Response extends DiagnosticsResponse {
  server_capabilities?: ServerCapabilities;
  resources?: { type_name: string }[];
  data_sources?: { type_name: string }[];
  functions?: { name: string }[];
  ephemeral_resources?: { type_name: string }[];
  list_resources?: { type_name: string }[];
  actions?: { type_name: string }[];
}

export interface GetProviderSchema_Response extends DiagnosticsResponse {
  provider?: Schema;
  resource_schemas?: Record<string, Schema>;
  data_source_schemas?: Record<string, Schema>;
  server_capabilities?: ServerCapabilities;
  /** Always empty: tenantform has no functions. */
  functions?: Record<string, never>;
  ephemeral_resource_schemas?: Record<string, Schema>;
  list_resource_schemas?: Record<string, Schema>;
  action_schemas?: Record<string, ActionSchema>;
}

export interface ValidateProviderConfig_Request {
  config?: DynamicValue | null;
}

export interface ValidateResourceConfig_Request {
  type_name?: string;
  config?: DynamicValue | null;
}

/** ValidateDataResourceConfig.Request has the same fields. */
export type ValidateDataResourceConfig_Request = ValidateResourceConfig_Request;

export interface UpgradeResourceState_Request {
  type_name?: string;
  version?: number;
  raw_state?: RawState | null;
}

export interface UpgradeResourceState_Response extends DiagnosticsResponse {
  upgraded_state?: DynamicValue;
}

export interface ConfigureProvider_Request {
  terraform_version?: string;
  config?: DynamicValue | null;
  client_capabilities?: ClientCapabilities | null;
}

export interface ReadResource_Request {
  type_name?: string;
  current_state?: DynamicValue | null;
  private?: Uint8Array;
  current_identity?: ResourceIdentityData | null;
}

export interface ReadResource_Response extends DiagnosticsResponse {
  new_state?: DynamicValue;
  private?: Uint8Array;
  new_identity?: ResourceIdentityData | null;
  deferred?: Deferred | null;
}

export interface PlanResourceChange_Request {
  type_name?: string;
  prior_state?: DynamicValue | null;
  proposed_new_state?: DynamicValue | null;
  config?: DynamicValue | null;
  prior_private?: Uint8Array;
  prior_identity?: ResourceIdentityData | null;
}

export interface PlanResourceChange_Response extends DiagnosticsResponse {
  planned_state?: DynamicValue;
  deferred?: Deferred | null;
  requires_replace?: AttributePath[];
  planned_private?: Uint8Array;
  planned_identity?: ResourceIdentityData | null;
}

export interface ApplyResourceChange_Request {
  type_name?: string;
  prior_state?: DynamicValue | null;
  planned_state?: DynamicValue | null;
  config?: DynamicValue | null;
  planned_private?: Uint8Array;
  planned_identity?: ResourceIdentityData | null;
}

export interface ApplyResourceChange_Response extends DiagnosticsResponse {
  new_state?: DynamicValue;
  private?: Uint8Array;
  new_identity?: ResourceIdentityData | null;
}

export interface ImportResourceState_Request {
  type_name?: string;
  /** Empty when Terraform 1.12 or newer imports by identity. */
  id?: string;
  identity?: ResourceIdentityData | null;
}

export interface ImportResourceState_ImportedResource {
  type_name: string;
  state: DynamicValue;
  private: Uint8Array;
  identity?: ResourceIdentityData | null;
}

export interface ImportResourceState_Response extends DiagnosticsResponse {
  imported_resources?: ImportResourceState_ImportedResource[];
}

export interface ReadDataSource_Request {
  type_name?: string;
  config?: DynamicValue | null;
}

export interface ReadDataSource_Response extends DiagnosticsResponse {
  state?: DynamicValue;
  deferred?: Deferred | null;
}

export interface MoveResourceState_Request {
  source_provider_address?: string;
  source_type_name?: string;
  source_schema_version?: number;
  source_state?: RawState | null;
  target_type_name?: string;
  source_private?: Uint8Array;
  source_identity?: RawState | null;
  source_identity_schema_version?: number;
}

export interface MoveResourceState_Response extends DiagnosticsResponse {
  target_state?: DynamicValue;
  target_private?: Uint8Array;
  target_identity?: ResourceIdentityData | null;
}

export interface ValidateEphemeralResourceConfig_Request {
  type_name?: string;
  config?: DynamicValue | null;
}

/** OpenEphemeralResource.Request has the same fields (and client_capabilities). */
export type OpenEphemeralResource_Request = ValidateEphemeralResourceConfig_Request;

export interface RenewEphemeralResource_Request {
  type_name?: string;
  private?: Uint8Array;
}

/** CloseEphemeralResource.Request has the same fields. */
export type CloseEphemeralResource_Request = RenewEphemeralResource_Request;

export interface GetFunctions_Response extends DiagnosticsResponse {
  functions?: Record<string, never>;
}

export interface CallFunction_Request {
  name?: string;
  arguments?: DynamicValue[];
}

export interface CallFunction_Response {
  result?: DynamicValue | null;
  error?: { text: string } | null;
}

export interface StopProvider_Response {
  Error: string;
}

/** What the calling Terraform can take in answers (1.9 and later send it). */
export interface ClientCapabilities {
  deferral_allowed?: boolean;
  write_only_attributes_allowed?: boolean;
}

export interface Deferred {
  reason: 'UNKNOWN' | 'RESOURCE_CONFIG_UNKNOWN' | 'PROVIDER_CONFIG_UNKNOWN' | 'ABSENT_PREREQ';
}

export interface ActionSchema {
  schema: Schema;
}

export interface ValidateActionConfig_Request {
  type_name?: string;
  config?: DynamicValue | null;
}

export interface PlanAction_Request {
  action_type?: string;
  config?: DynamicValue | null;
  client_capabilities?: ClientCapabilities | null;
}

export interface PlanAction_Response extends DiagnosticsResponse {
  deferred?: Deferred | null;
}

/** InvokeAction.Request has the same fields. */
export type InvokeAction_Request = PlanAction_Request;

/** One message of InvokeAction's stream: progress, then exactly one completed (the last). */
export type InvokeAction_Event = { progress: { message: string } } | { completed: { diagnostics: Diagnostic[] } };

/** The calls of list resources and generated configuration. */
export type ListCalls = 'ListResource' | 'ValidateListResourceConfig' | 'GenerateResourceConfig';

/** The calls of `tfplugin6.Provider`, each with its request and answer. */
export interface ProviderService {
  GetMetadata(req: Empty): Promise<GetMetadata_Response>;
  GetProviderSchema(req: Empty): Promise<GetProviderSchema_Response>;
  ValidateProviderConfig(req: ValidateProviderConfig_Request): Promise<DiagnosticsResponse>;
  ValidateResourceConfig(req: ValidateResourceConfig_Request): Promise<DiagnosticsResponse>;
  ValidateDataResourceConfig(req: ValidateDataResourceConfig_Request): Promise<DiagnosticsResponse>;
  UpgradeResourceState(req: UpgradeResourceState_Request): Promise<UpgradeResourceState_Response>;
  ConfigureProvider(req: ConfigureProvider_Request): Promise<DiagnosticsResponse>;
  ReadResource(req: ReadResource_Request): Promise<ReadResource_Response>;
  PlanResourceChange(req: PlanResourceChange_Request): Promise<PlanResourceChange_Response>;
  ApplyResourceChange(req: ApplyResourceChange_Request): Promise<ApplyResourceChange_Response>;
  ImportResourceState(req: ImportResourceState_Request): Promise<ImportResourceState_Response>;
  MoveResourceState(req: MoveResourceState_Request): Promise<MoveResourceState_Response>;
  ReadDataSource(req: ReadDataSource_Request): Promise<ReadDataSource_Response>;
  ValidateEphemeralResourceConfig(req: ValidateEphemeralResourceConfig_Request): Promise<DiagnosticsResponse>;
  OpenEphemeralResource(req: OpenEphemeralResource_Request): Promise<DiagnosticsResponse>;
  RenewEphemeralResource(req: RenewEphemeralResource_Request): Promise<DiagnosticsResponse>;
  CloseEphemeralResource(req: CloseEphemeralResource_Request): Promise<DiagnosticsResponse>;
  GetFunctions(req: Empty): Promise<GetFunctions_Response>;
  CallFunction(req: CallFunction_Request): Promise<CallFunction_Response>;
  StopProvider(req: Empty): Promise<StopProvider_Response>;
  GetResourceIdentitySchemas(req: Empty): Promise<GetResourceIdentitySchemas_Response>;
  UpgradeResourceIdentity(req: UpgradeResourceIdentity_Request): Promise<UpgradeResourceIdentity_Response>;
  GenerateResourceConfig(req: GenerateResourceConfig_Request): Promise<GenerateResourceConfig_Response>;
  /** Streams its answer: one event per object found, then the end of the stream. */
  ListResource(req: ListResource_Request): AsyncIterable<ListResource_Event>;
  ValidateListResourceConfig(req: ValidateListResourceConfig_Request): Promise<DiagnosticsResponse>;
  ValidateActionConfig(req: ValidateActionConfig_Request): Promise<DiagnosticsResponse>;
  PlanAction(req: PlanAction_Request): Promise<PlanAction_Response>;
  /** A stream: each event is sent as it is yielded. */
  InvokeAction(req: InvokeAction_Request): AsyncIterable<InvokeAction_Event>;
}

/**
 * The event that ends a streamed call whose handler failed, in the field its protocol message
 * carries errors in (a listing's `diagnostic`, an action's `completed`).
 */
export const STREAM_FAILURE_EVENTS: Readonly<Record<string, (diagnostic: Diagnostic) => unknown>> = {
  ListResource: (diagnostic) => ({ diagnostic: [diagnostic] }),
  InvokeAction: (diagnostic) => ({ completed: { diagnostics: [diagnostic] } }),
};

/** Resource identity (Terraform 1.12, protocol 6.9): the data naming one object, beside its state. */
export interface ResourceIdentityData {
  identity_data?: DynamicValue | null;
}

export interface ResourceIdentitySchema_IdentityAttribute {
  name: string;
  type: Uint8Array;
  required_for_import: boolean;
  optional_for_import: boolean;
  description: string;
}

export interface ResourceIdentitySchema {
  version: number;
  identity_attributes: ResourceIdentitySchema_IdentityAttribute[];
}

export interface GetResourceIdentitySchemas_Response extends DiagnosticsResponse {
  identity_schemas?: Record<string, ResourceIdentitySchema>;
}

export interface UpgradeResourceIdentity_Request {
  type_name?: string;
  version?: number;
  raw_identity?: RawState | null;
}

export interface UpgradeResourceIdentity_Response extends DiagnosticsResponse {
  upgraded_identity?: ResourceIdentityData | null;
}

/** Terraform 1.14 (protocol 6.10): the configuration that declares an object, from its state. */
export interface GenerateResourceConfig_Request {
  type_name?: string;
  state?: DynamicValue | null;
}

export interface GenerateResourceConfig_Response extends DiagnosticsResponse {
  config?: DynamicValue | null;
}

/** Terraform 1.14 (protocol 6.10): `list` blocks of `terraform query`. */
export interface ListResource_Request {
  type_name?: string;
  /** The `config` block of the list block, in the list resource schema. */
  config?: DynamicValue | null;
  include_resource_object?: boolean;
  limit?: number;
}

export interface ListResource_Event {
  identity?: ResourceIdentityData | null;
  display_name?: string;
  resource_object?: DynamicValue | null;
  /** Named in the singular by the protocol; an error ends the listing. */
  diagnostic?: Diagnostic[];
}

export interface ValidateListResourceConfig_Request {
  type_name?: string;
  config?: DynamicValue | null;
  include_resource_object?: DynamicValue | null;
  limit?: DynamicValue | null;
}
