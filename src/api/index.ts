/** The platform client: public surface. */
export {
  PlatformClient,
  collect,
  TENANT_UUIDS_PER_REQUEST,
  INFRA_UUIDS_PER_REQUEST,
  type PlatformClientOptions,
  type ClientEvent,
  type SettingData,
  type InfraCreate,
  type InfraUpdate,
  type ReportBody,
  type ReportUpdate,
  type AgentUpdateSettingsItem,
  type SubscriptionBody,
  type AlertTypeBody,
  type AlertBody,
  type ListAgentsOptions,
  type GetTenantsOptions,
} from './client';
export {
  PlatformError,
  ResponseShapeError,
  isNotFound,
  isConflict,
  isRetryableStatus,
  interfaceOf,
  parseErrorBody,
  type PlatformInterface,
  type PlatformErrorInit,
  type ParsedErrorBody,
  type NotRetriedReason,
} from './errors';
export { DEFAULT_RETRY, parseRetryAfter, backoffDelay, type RetryOptions } from './retry';
export { PoolRegistry, encodeQuery, type Query, type QueryValue } from './http';
export type {
  Application,
  Setting,
  SettingOwn,
  Infra,
  Report,
  Agent,
  AgentUpdateSettings,
  Topic,
  EventType,
  Subscription,
  SubscriptionOffset,
  AlertType,
  AlertView,
  Tenant,
  SearchItem,
  TokenResponse,
} from './schemas';
export * as schemas from './schemas';
