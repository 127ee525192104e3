/**
 * zod schemas of every response the client reads. Objects are loose: members the platform adds
 * later pass through untouched, so objects are returned as the platform sent them. Required
 * members and their types are checked; a mismatch becomes a `ResponseShapeError` naming the
 * endpoint and the field path.
 */
import { z } from 'zod';

const uuid = z.string().min(1);
const int = z.number().int();

// --- token (spec 1: token response; GAPS.md: token endpoint) ---------------------------------

export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  id_token: z.string().optional(),
  expires_on: z.number(),
  token_type: z.string(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

// --- applications, bindings, settings (spec 1) -----------------------------------------------

export const Application = z.looseObject({
  id: uuid,
  name: z.string(),
  type: z.string(),
  usages: z.array(z.string()).optional(),
  api_base_url: z.string().optional(),
});
export type Application = z.infer<typeof Application>;

export const ApplicationList = z.looseObject({ items: z.array(Application) });

/** GAPS.md: which applications a tenant has on. */
export const IdList = z.looseObject({ items: z.array(z.string()) });

export const SettingOwn = z.looseObject({
  value: z.unknown(),
  lock: z.boolean(),
  exclusive: z.boolean(),
});
export type SettingOwn = z.infer<typeof SettingOwn>;

export const SettingEffective = z.looseObject({
  // platform-interface: setting read (`owner` is `{type: "tenant", id}`)
  owner: z.looseObject({ type: z.string(), id: z.string() }),
  value: z.unknown(),
  lock: z.boolean(),
});

export const Setting = z.looseObject({
  name: z.string(),
  application_id: z.string(),
  // platform-interface: setting read (`own` and `effective` may be null)
  own: SettingOwn.nullable(),
  effective: SettingEffective.nullable(),
});
export type Setting = z.infer<typeof Setting>;

/** GAPS.md: list all settings of an application for a tenant. */

// --- infrastructure components (spec 1) ------------------------------------------------------

export const Infra = z.looseObject({
  id: uuid,
  owner_tenant_id: z.string(),
  location_id: z.string().nullable(),
  name: z.string(),
  url: z.string(),
  capabilities: z.array(z.string()),
  content_url: z.string().nullish(),
  content_mobile_url: z.string().nullish(),
  backend_type: z.unknown(),
  platform_owned: z.boolean().optional(),
  version: int,
  readonly: z.boolean().optional(),
});
export type Infra = z.infer<typeof Infra>;

export const InfraList = z.looseObject({ items: z.array(Infra) });

/** A tenant's locations, and the components at a location (GAPS, corrected by the reference). */
export const LocationList = z.looseObject({ items: z.array(z.looseObject({ id: z.string() })) });
export const LocationInfraList = z.looseObject({ infras: z.array(z.string()) });

// --- usage report configurations (spec 1; GAPS.md report rows) -------------------------------

export const Report = z.looseObject({
  id: uuid,
  version: int,
  result_action: z.string(),
  recipients: z.array(z.string()),
  parameters: z.looseObject({
    tenant_id: z.string(),
    kind: z.string(),
    level: z.string(),
    formats: z.array(z.string()).optional(),
  }),
  schedule: z.looseObject({ type: z.string(), enabled: z.boolean().optional() }),
  generation_date: z.string().nullish(),
});
export type Report = z.infer<typeof Report>;

// --- agents (spec 2; agents-v2 reference: FetchAgents, AgentCollection, Agent) ---------------

/** `{build, release_id, release_name?}`: the current or latest release of an agent or a unit. */
const AgentRelease = z.looseObject({ build: z.string(), release_id: z.string(), release_name: z.string().optional() });
const AgentInstallerVersion = z.looseObject({ major: int, minor: int, build_number: int });

export const Agent = z.looseObject({
  id: z.string(),
  name: z.string(),
  hostname: z.string(),
  tenant: z.looseObject({ id: z.string(), name: z.string() }),
  /** family: UNKNOWN, WINDOWS, LINUX, MACOSX or SOLARIS; arch: X86, X64, ARM or ARM64. */
  platform: z.looseObject({ family: z.string(), arch: z.string(), name: z.string(), version_major: int, version_minor: int }),
  online: z.boolean(),
  enabled: z.boolean(),
  auto_update: z.boolean(),
  registration_date: z.string(),
  registration_id: z.string(),
  /** `UTC` or `±hhmm`. */
  timezone: z.string(),
  meta: z.looseObject({}),
  installer_version: z.looseObject({ current: AgentInstallerVersion, latest: AgentInstallerVersion.optional() }),
  core_version: z.looseObject({ current: AgentRelease, latest: AgentRelease.optional() }),
  /** Software units (`SoftwareUnit`). */
  units: z.array(z.looseObject({ name: z.string(), version: z.looseObject({ current: AgentRelease, latest: AgentRelease.optional() }) })),
  unattended_update: z
    .looseObject({
      automatic: z.boolean(),
      update_channel: z.string(),
      status: z.string(),
      inherited_from_tenant_id: z.string().optional(),
      maintenance_window: z.looseObject({ time_from: z.string(), time_to: z.string(), days_of_week: z.array(z.string()) }).optional(),
    })
    .optional(),
  network: z
    .looseObject({
      network_interfaces: z.array(z.looseObject({ cidr_notations: z.array(z.string()), mac_address: z.string().optional() })),
      gateway: z.string().optional(),
      dns_server_ip_addresses: z.array(z.string()).optional(),
    })
    .optional(),
  comment: z.string().optional(),
  distribution_type: z.string().optional(),
});
export type Agent = z.infer<typeof Agent>;

const Cursors = z.looseObject({ after: z.string().nullish() });

/** `AgentCollection`: the next page is at `paging.cursors.after` (absent on the last page). */
export const AgentPage = z.looseObject({
  items: z.array(Agent),
  paging: z.looseObject({ cursors: z.looseObject({ after: z.string().nullish(), before: z.string().nullish() }) }),
});

// --- agent update settings (GAPS.md: settings item shape) ------------------------------------

export const DayOfWeek = z.enum(['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY']);

export const MaintenanceWindow = z.looseObject({
  time_from: z.string(),
  time_to: z.string(),
  days_of_week: z.array(DayOfWeek),
});

export const AgentUpdateSettings = z.looseObject({
  agent_id: z.string().optional(),
  tenant_id: z.string().optional(),
  /** Present when the target has no own settings: the tenant whose settings apply. */
  inherited_from_tenant_id: z.string().optional(),
  update_channel: z.string(),
  automatic: z.boolean(),
  maintenance_window: MaintenanceWindow.nullish(),
});
export type AgentUpdateSettings = z.infer<typeof AgentUpdateSettings>;

// --- event manager (spec 3) ------------------------------------------------------------------

export const Topic = z.looseObject({
  id: z.string(),
  description: z.string().optional(),
  persistency: z.boolean().optional(),
  ordering: z.string().optional(),
  producer_consolidation: z.string().optional(),
  archive_consolidation: z.string().optional(),
  retention: z.string().optional(),
});
export type Topic = z.infer<typeof Topic>;

export const EventType = z.looseObject({
  id: z.string(),
  topic_id: z.string(),
  description: z.string().optional(),
  allowed_subject_types: z.array(z.string()).optional(),
  subject_ref_template: z.string().optional(),
  data_schema: z.string().optional(),
});
export type EventType = z.infer<typeof EventType>;

export const Subscription = z.looseObject({
  subscription_id: z.string(),
  topic_id: z.string(),
  types: z.array(z.string()),
  subject_types: z.array(z.string()).nullish(),
  tenant_id: z.string().nullish(),
  tenant_depth: z.string(),
  cel: z.string().nullish(),
  auto_commit: z.boolean().optional(),
  auto_commit_interval: z.string().optional(),
  session_timeout: z.string().optional(),
});
export type Subscription = z.infer<typeof Subscription>;

export const SubscriptionOffset = z.looseObject({ subscription_id: z.string(), offset: int });
export type SubscriptionOffset = z.infer<typeof SubscriptionOffset>;

// --- alert manager (spec 3; GAPS.md alert rows) ----------------------------------------------

export const AlertType = z.looseObject({
  id: z.string(),
  severity: z.string().optional(),
  enabled: z.boolean().optional(),
  category: z.string().optional(),
});
export type AlertType = z.infer<typeof AlertType>;

export const CreatedAlert = z.looseObject({ id: z.string() });

export const AlertView = z.looseObject({
  id: z.string(),
  type: z.string(),
  severity: z.string(),
  category: z.string().optional(),
  tenant: z.looseObject({ id: z.string() }).optional(),
  createdAt: z.string().optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type AlertView = z.infer<typeof AlertView>;

export const AlertPage = z.looseObject({
  items: z.array(AlertView),
  // platform-interface: alerts paging (`after` absent on the last page).
  paging: z.looseObject({ cursors: z.looseObject({ after: z.string().nullish() }) }),
});

// --- tenants and search (spec 1) -------------------------------------------------------------

/** A tenant at any `lod`: `stamps` fields are required, the rest depend on `lod`. */
export const Tenant = z.looseObject({
  id: z.string(),
  parent_id: z.string().nullable(),
  version: int.optional(),
  name: z.string().optional(),
  kind: z.string().optional(),
  enabled: z.boolean().optional(),
  // `full` level (spec 1) and the tenant object (GAPS: tenant object)
  customer_type: z.string().optional(),
  customer_id: z.string().nullish(),
  internal_tag: z.string().nullish(),
  language: z.string().nullish(),
  contact: z.record(z.string(), z.unknown()).nullish(),
  update_lock: z.looseObject({ enabled: z.boolean(), owner_id: z.string().nullish() }).nullish(),
  ancestral_access: z.boolean().optional(),
  pricing_mode: z.string().nullish(),
  production_start_date: z.string().nullish(),
  has_children: z.boolean().optional(),
  deleted_at: z.string().nullish(),
});
export type Tenant = z.infer<typeof Tenant>;

// --- tenant lifecycle, offering items, users, roles, API clients (GAPS: tenants, ...) -----------

export const Pricing = z.looseObject({
  mode: z.string(),
  currency: z.string().nullish(),
  version: int,
  production_start_date: z.string().nullish(),
});
export type Pricing = z.infer<typeof Pricing>;

export const Quota = z.looseObject({ value: int.nullable(), overage: int.nullable(), version: int });

export const OfferingItem = z.looseObject({
  application_id: z.string(),
  name: z.string(),
  edition: z.string().nullish(),
  usage_name: z.string().nullish(),
  tenant_id: z.string(),
  status: z.union([z.literal(0), z.literal(1)]),
  type: z.string(),
  measurement_unit: z.string().nullish(),
  locked: z.boolean().optional(),
  quota: Quota.nullish(),
  infra_id: z.string().nullish(),
});
export type OfferingItem = z.infer<typeof OfferingItem>;

/** platform-interface: a service's edition. The answer to a switch: the service's items (the shape is ours). */
export const EditionSwitch = z.looseObject({ items: z.array(OfferingItem).optional() });
export type EditionSwitch = z.infer<typeof EditionSwitch>;

export const OfferingItemList = z.looseObject({ items: z.array(OfferingItem) });

export const User = z.looseObject({
  id: z.string(),
  version: int,
  tenant_id: z.string(),
  login: z.string(),
  contact: z.record(z.string(), z.unknown()).nullish(),
  enabled: z.boolean(),
  activated: z.boolean().optional(),
  language: z.string().nullish(),
  notifications: z.array(z.string()).optional(),
  business_types: z.array(z.string()).optional(),
});
export type User = z.infer<typeof User>;

export const AccessPolicy = z.looseObject({
  id: z.string(),
  issuer_id: z.string().nullish(),
  trustee_id: z.string(),
  trustee_type: z.string(),
  tenant_id: z.string(),
  role_id: z.string(),
  version: int,
});
export type AccessPolicy = z.infer<typeof AccessPolicy>;

export const AccessPolicyList = z.looseObject({ items: z.array(AccessPolicy) });

export const ApiClient = z.looseObject({
  client_id: z.string(),
  tenant_id: z.string(),
  type: z.string().optional(),
  data: z.record(z.string(), z.unknown()).nullish(),
  token_endpoint_auth_method: z.string().optional(),
  status: z.string(),
  redirect_uris: z.array(z.string()).nullish(),
  created_at: z.string().nullish(),
  origin_id: z.string().nullish(),
});
export type ApiClient = z.infer<typeof ApiClient>;

export const ApiClientBatch = z.looseObject({ items: z.array(ApiClient) });

/** Only the create's answer carries the secret (GAPS: API client read). */
export const CreatedApiClient = ApiClient.extend({ client_secret: z.string().min(1) });
export type CreatedApiClient = z.infer<typeof CreatedApiClient>;

export const TenantPage = z.looseObject({
  timestamp: z.string().optional(),
  paging: z.looseObject({ cursors: Cursors }),
  items: z.array(Tenant),
});

export const SearchItem = z.looseObject({
  id: z.string(),
  parent_id: z.string().nullish(),
  obj_type: z.string(),
  name: z.string().nullish(),
  kind: z.string().nullish(),
  path: z.array(z.string()).optional(),
});
export type SearchItem = z.infer<typeof SearchItem>;

export const SearchResult = z.looseObject({ items: z.array(SearchItem) });

/** A body that must be empty or ignorable (204 answers). */
export const Empty = z.unknown();
