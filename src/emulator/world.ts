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
  barrier: boolean;
  version: number;
  created_at: string;
  updated_at: string;
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
  details: Record<string, unknown>;
}

export interface ApiClient {
  client_id: string;
  client_secret: string;
  tenant_id: string;
  scopes: string[];
  status: 'enabled' | 'disabled';
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
  reports: Record<string, ReportConfig>;
  agents: Agent[];
  agentUpdateSettings: { byAgent: Record<string, AgentUpdateSettings>; byTenant: Record<string, AgentUpdateSettings> };
  topics: Topic[];
  eventTypes: EventType[];
  subscriptions: Record<string, Subscription>;
  alertTypes: Record<string, AlertType>;
  alerts: Alert[];
  clients: ApiClient[];
}
