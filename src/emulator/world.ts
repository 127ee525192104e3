/**
 * The emulated platform's data (the "world"): plain JSON, so that it can be written to a data
 * file after every mutation and loaded again on the next start.
 */

export type TenantKind = 'root' | 'partner' | 'folder' | 'customer' | 'unit';

export interface Tenant {
  id: string;
  parent_id: string | null;
  name: string;
  kind: TenantKind;
  enabled: boolean;
  /** The opposite of `ancestral_access`: ancestors' administrators cannot reach in. */
  barrier: boolean;
  version: number;
  created_at: string;
  updated_at: string;
  customer_type: string;
  customer_id: string | null;
  internal_tag: string | null;
  language: string;
  /** GAPS: tenant contact (ContactPut members). */
  contact: Record<string, unknown>;
  update_lock: { enabled: boolean; owner_id: string | null };
  /** GAPS: pricing mode (its version is separate from the tenant's). */
  pricing: TenantPricing;
  deleted_at?: string;
}

export interface TenantPricing {
  mode: 'trial' | 'production' | 'suspended';
  currency: string;
  version: number;
  production_start_date: string | null;
}

/**
 * GAPS: offering item. Within a tenant, identified by (application_id, name, infra_id).
 * The members are those of the vendor's reference (account-management-v2 `offeringItemList`
 * items): a storage item is `type: infra` in `bytes`, with the `infra_id` of its storage
 * infrastructure component; its quota is in bytes too.
 */
export interface OfferingItem {
  application_id: string;
  name: string;
  edition: string;
  usage_name: string;
  tenant_id: string;
  /** 0 off, 1 on. */
  status: 0 | 1;
  type: 'count' | 'feature' | 'infra';
  /** The reference's `measurementUnits`. */
  measurement_unit: 'bytes' | 'quantity' | 'seconds' | 'n/a';
  locked?: boolean;
  /** In `measurement_unit`: bytes for storage items. */
  quota?: Quota;
  /** Infra items only: the infrastructure component the item is for. */
  infra_id?: string;
}

export interface Quota {
  value: number | null;
  overage: number | null;
  version: number;
}

/** GAPS: user object. */
export interface User {
  id: string;
  version: number;
  tenant_id: string;
  /** The user's own tenant, as the live platform answers it (the vendor's clients read it). Absent in worlds written before. */
  personal_tenant_id?: string;
  login: string;
  contact: Record<string, unknown>;
  enabled: boolean;
  activated: boolean;
  language: string;
  notifications: string[];
  business_types: string[];
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** GAPS: user roles (one access policy). */
export interface AccessPolicy {
  id: string;
  issuer_id: string;
  trustee_id: string;
  trustee_type: 'user';
  tenant_id: string;
  role_id: string;
  version: number;
  created_at?: string;
  updated_at?: string;
}

export interface Application {
  id: string;
  name: string;
  type: string;
  usages: string[];
  api_base_url: string;
}

export interface OwnSetting {
  application_id: string;
  tenant_id: string;
  name: string;
  value: unknown;
  lock: boolean;
  exclusive: boolean;
}

export interface InfraComponent {
  id: string;
  owner_tenant_id: string;
  location_id: string | null;
  name: string;
  url: string;
  capabilities: string[];
  content_url: string | null;
  content_mobile_url: string | null;
  backend_type: unknown;
  platform_owned: boolean;
  version: number;
  readonly: boolean;
}

/** A customer tenant using an infrastructure component; `offering_items_on` keeps even a forced delete off. */
export interface InfraUsage {
  tenant_id: string;
  offering_items_on: boolean;
}

export interface ReportConfig {
  id: string;
  version: number;
  result_action: string;
  recipients: string[];
  parameters: Record<string, unknown> & { tenant_id: string };
  schedule: Record<string, unknown> & { type: string };
  generation_date: string;
}

export interface Agent {
  id: string;
  hostname: string;
  tenant_id: string;
  os_family: string;
  online: boolean;
  up_to_date: boolean;
  unit: string;
}

export interface MaintenanceWindow {
  time_from: string;
  time_to: string;
  days_of_week: string[];
}

/** GAPS: agent management, settings item shape. */
export interface AgentUpdateSettings {
  agent_id?: string;
  tenant_id?: string;
  update_channel: string;
  automatic: boolean;
  maintenance_window?: MaintenanceWindow;
}

export interface Topic {
  id: string;
  description: string;
  persistency: boolean;
  ordering: string;
  producer_consolidation: string;
  archive_consolidation: string;
  retention: string;
}

export interface EventType {
  id: string;
  topic_id: string;
  description: string;
  allowed_subject_types: string[];
  subject_ref_template: string;
  data_schema: string;
}

export interface Subscription {
  subscription_id: string;
  topic_id: string;
  types: string[];
  subject_types?: string[];
  tenant_id: string;
  tenant_depth: string;
  cel?: string;
  auto_commit: boolean;
  auto_commit_interval: string;
  session_timeout: string;
  offset: number;
}

export interface AlertType {
  id: string;
  severity?: string;
  enabled: boolean;
  category: string;
  [extra: string]: unknown;
}

export interface Alert {
  id: string;
  type: string;
  category: string;
  severity: string;
  tenant: { id: string; locator: string };
  createdAt: string;
  updatedAt: string;
  receivedAt: string;
  _source?: string;
  _sourceTimeStamp?: number;
  /** Set when the alert was dismissed (deleted): hidden unless `show_deleted`. */
  deletedAt?: string;
  details: Record<string, unknown>;
}

export interface ApiClient {
  client_id: string;
  client_secret: string;
  tenant_id: string;
  scopes: string[];
  status: 'enabled' | 'disabled';
  /** Spec 1, client: set when the platform's interface created the client. */
  type?: string;
  data?: Record<string, unknown>;
  token_endpoint_auth_method?: string;
  redirect_uris?: string[];
  created_at?: string;
  created_by?: string;
  /** The caller's own identifier given at creation (`clientPost.origin_id`). */
  origin_id?: string;
}

export interface World {
  format: 'tenantform-emulator-world';
  formatVersion: 1;
  seed: number;
  /** State of the id generator, so that ids made after a reload never repeat. */
  idState: number;
  rootTenantId: string;
  primaryClientId: string;
  tenants: Tenant[];
  applications: Application[];
  /** tenant id -> application ids turned on */
  bindings: Record<string, string[]>;
  settings: OwnSetting[];
  infra: Record<string, InfraComponent>;
  /** Customer tenants that use a component (infra id -> usages); set through emulator control. */
  infraUsage?: Record<string, InfraUsage[]>;
  reports: Record<string, ReportConfig>;
  agents: Agent[];
  agentUpdateSettings: { byAgent: Record<string, AgentUpdateSettings>; byTenant: Record<string, AgentUpdateSettings> };
  topics: Topic[];
  eventTypes: EventType[];
  subscriptions: Record<string, Subscription>;
  alertTypes: Record<string, AlertType>;
  alerts: Alert[];
  clients: ApiClient[];
  offeringItems: OfferingItem[];
  users: User[];
  /** user id -> the user's access policies */
  accessPolicies: Record<string, AccessPolicy[]>;
  /** Soft-deleted tenants, readable with `allow_deleted=true`. */
  deletedTenants: Tenant[];
}
