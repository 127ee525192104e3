/** The seeded world: a fixed tenant tree, the application catalogue, agents, topics and an API client. */
import { SeededRandom, deriveSeed } from './prng';
import { catalogueOf, offeringItem, storageComponentsFor, UNLIMITED } from './offerings';
import type { Agent, ApiClient, Application, EventType, InfraComponent, OfferingItem, OwnSetting, Tenant, TenantKind, Topic, World } from './world';

/** Scopes of the seeded API client: every scope that an emulated endpoint checks. */
export const ALL_SCOPES: readonly string[] = [
  'urn:vendor::account-server::root_admin',
  'urn:vendor::account-server::partner_admin',
  'urn:vendor::account-server::tenant_admin',
  'urn:vendor::account-server::tenant_viewer',
  'urn:vendor::account-server::readonly_admin',
  'urn:vendor::agent_manager::admin',
  'urn:vendor::alert_manager::admin',
  'urn:vendor::alert_manager::viewer',
  'urn:vendor:event_manager:*:publisher',
  'urn:vendor:event_manager:*:subscriber',
];

/** Seeded objects carry fixed timestamps so that a seed always gives the same world. */
const SEED_TIME = '2024-01-15T09:00:00Z';

const APPLICATION_CATALOGUE: ReadonlyArray<Omit<Application, 'id'>> = [
  { type: 'backup', name: 'Cyber Protection', usages: ['workstations', 'servers', 'vms', 'storage'], api_base_url: '/api/backup/v1' },
  { type: 'files_cloud', name: 'File Sync & Share', usages: ['fc_seats', 'fc_storage'], api_base_url: '/fc/api/v1' },
  { type: 'monitoring', name: 'Monitoring', usages: ['monitored_workloads'], api_base_url: '/api/monitoring/v1' },
  { type: 'storage', name: 'Cloud Storage', usages: ['storage_total'], api_base_url: '/api/storage/v1' },
  { type: 'platform', name: 'Management Portal', usages: [], api_base_url: '/api/2' },
  { type: 'hci', name: 'Cyber Infrastructure', usages: ['hci_nodes'], api_base_url: '/api/hci/v1' },
  { type: 'physical_data_shipping', name: 'Physical Data Shipping', usages: ['shipments'], api_base_url: '/api/pds/v1' },
  { type: 'notary', name: 'Cyber Notary', usages: ['notarizations', 'e_signatures'], api_base_url: '/api/notary/v1' },
];

const TENANT_TREE: ReadonlyArray<{ name: string; kind: TenantKind; parent: string | null; barrier?: boolean }> = [
  { name: 'Cloud Root', kind: 'root', parent: null },
  { name: 'Northwind Partner', kind: 'partner', parent: 'Cloud Root' },
  { name: 'Acme Manufacturing', kind: 'customer', parent: 'Northwind Partner' },
  { name: 'Globex Retail', kind: 'customer', parent: 'Northwind Partner' },
  { name: 'Initech Finance', kind: 'customer', parent: 'Northwind Partner', barrier: true },
  { name: 'Southridge Partner', kind: 'partner', parent: 'Cloud Root' },
  { name: 'Umbrella Health', kind: 'customer', parent: 'Southridge Partner' },
  { name: 'Stark Logistics', kind: 'customer', parent: 'Southridge Partner' },
  { name: 'Wayne Legal', kind: 'customer', parent: 'Southridge Partner' },
];

export const TENANT_TOPIC = 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0';
export const TASK_TOPIC = 'cti.a.p.em.topic.v1.0~a.p.task.v1.0';

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The members a new tenant of `kind` starts with (GAPS: tenant object). */
export function tenantDefaults(kind: TenantKind, now: string): Omit<Tenant, 'id' | 'parent_id' | 'name' | 'kind'> {
  return {
    enabled: true,
    barrier: false,
    version: 1,
    created_at: now,
    updated_at: now,
    customer_type: 'default',
    customer_id: null,
    internal_tag: null,
    language: 'en',
    contact: {},
    update_lock: { enabled: false, owner_id: null },
    // GAPS: pricing mode (a new customer starts in trial)
    pricing: { mode: kind === 'customer' ? 'trial' : 'production', currency: 'USD', version: 1, production_start_date: null },
  };
}

/** Quotas seeded on partners' items: a few, so that drift on quotas has something to show. */
const SEEDED_QUOTAS: Record<string, { value: number; overage: number }> = {
  workstations: { value: 500, overage: 50 },
};

/** Builds the seeded world: same seed, same ids, secrets and objects. */
export function seedWorld(seed: number): World {
  const ids = new SeededRandom(deriveSeed(seed, 0x1d5));
  const tenants: Tenant[] = [];
  const byName = new Map<string, Tenant>();
  for (const t of TENANT_TREE) {
    const tenant: Tenant = {
      id: ids.uuid(),
      parent_id: t.parent === null ? null : (byName.get(t.parent)?.id ?? null),
      name: t.name,
      kind: t.kind,
      ...tenantDefaults(t.kind, SEED_TIME),
      barrier: t.barrier === true,
    };
    if (t.kind === 'customer') tenant.pricing = { ...tenant.pricing, mode: 'production', production_start_date: SEED_TIME };
    tenants.push(tenant);
    byName.set(t.name, tenant);
  }
  const root = tenants[0];

  const applications: Application[] = APPLICATION_CATALOGUE.map((a) => ({ id: ids.uuid(), ...a, usages: [...a.usages] }));
  const appId = (type: string): string => (applications.find((a) => a.type === type) as Application).id;

  const bindings: Record<string, string[]> = {};
  for (const t of tenants) {
    bindings[t.id] = t.kind === 'customer' ? [appId('platform')] : [appId('backup'), appId('platform')];
  }

  // Every tenant has the items of the applications it has on, the root every item.
  const offeringItems: OfferingItem[] = [];
  for (const t of tenants) {
    for (const app of applications) {
      if (t.kind !== 'root' && !(bindings[t.id] ?? []).includes(app.id)) continue;
      for (const item of catalogueOf(app)) {
        const q = t.kind === 'partner' ? SEEDED_QUOTAS[item.name] : undefined;
        offeringItems.push(offeringItem(app, item, t.id, 1, q ? { ...q, version: 1 } : UNLIMITED));
      }
    }
  }

  const backup = appId('backup');
  const settings: OwnSetting[] = [
    { application_id: backup, tenant_id: root.id, name: 'retention_days', value: 30, lock: false, exclusive: false },
    { application_id: backup, tenant_id: root.id, name: 'encryption_required', value: true, lock: true, exclusive: false },
    { application_id: backup, tenant_id: root.id, name: 'backup_window', value: { start: '01:00', end: '05:00' }, lock: false, exclusive: false },
  ];

  const agents: Agent[] = [];
  const osFamilies = ['WINDOWS', 'LINUX', 'MACOSX'];
  for (const t of tenants.filter((x) => x.kind === 'customer')) {
    for (let i = 1; i <= 3; i++) {
      agents.push({
        id: ids.uuid(),
        hostname: `${slug(t.name)}-host-${String(i).padStart(2, '0')}`,
        tenant_id: t.id,
        os_family: osFamilies[(i - 1) % osFamilies.length],
        online: i !== 3,
        up_to_date: i !== 2,
        unit: i === 1 ? 'servers' : 'workstations',
      });
    }
  }

  const topics: Topic[] = [
    {
      id: TENANT_TOPIC,
      description: 'Tenant lifecycle events',
      persistency: true,
      ordering: 'NONE',
      producer_consolidation: 'NONE',
      archive_consolidation: 'NONE',
      retention: 'P7D',
    },
    {
      id: TASK_TOPIC,
      description: 'Task lifecycle events',
      persistency: true,
      ordering: 'NONE',
      producer_consolidation: 'NONE',
      archive_consolidation: 'NONE',
      retention: 'P7D',
    },
  ];
  const schema = JSON.stringify({
    type: 'object',
    required: ['subject', 'data'],
    properties: { subject: { type: 'string', format: 'uuid' }, data: { type: 'object' } },
  });
  // GAPS: event manager, real identifiers
  const eventType = (topic: string, family: string, what: string): EventType => ({
    id: `cti.a.p.em.event.v1.0~a.p.${family}.${what}.v1.0`,
    topic_id: topic,
    description: `A ${family} was ${what}`,
    allowed_subject_types: [`cti.a.p.em.object.v1.0~a.p.${family}.v1.0`],
    subject_ref_template: `/api/${family}s/{subject}`,
    data_schema: schema,
  });
  const eventTypes: EventType[] = [
    ...['created', 'updated', 'enabled', 'disabled'].map((w) => eventType(TENANT_TOPIC, 'tenant', w)),
    ...['created', 'started', 'completed'].map((w) => eventType(TASK_TOPIC, 'task', w)),
  ];

  const primary: ApiClient = {
    client_id: ids.uuid(),
    client_secret: ids.secret(),
    tenant_id: root.id,
    scopes: [...ALL_SCOPES],
    status: 'enabled',
  };

  // Storage is offered per storage infrastructure component (type infra, in bytes; vendor
  // reference account-management-v2): one platform-owned storage, with a storage item wherever
  // the application's items are, and partners' storage quota of 10 TiB (1 TiB overage) in bytes.
  // Its id comes from a generator of its own, so that every other seeded id stays as it was.
  const storageIds = new SeededRandom(deriveSeed(seed, 0x570));
  const storage: InfraComponent = {
    id: storageIds.uuid(),
    owner_tenant_id: root.id,
    location_id: storageIds.uuid(),
    name: 'Cloud storage',
    url: 'https://storage.cloud.example',
    capabilities: ['backup', 'files_cloud'],
    content_url: null,
    content_mobile_url: null,
    backend_type: null,
    platform_owned: true,
    version: 1,
    readonly: true,
  };
  const partnerStorageQuota = { value: 10 * 2 ** 40, overage: 2 ** 40, version: 1 };
  for (const t of tenants) {
    for (const app of applications) {
      if (t.kind !== 'root' && !(bindings[t.id] ?? []).includes(app.id)) continue;
      for (const item of catalogueOf(app, storageComponentsFor(app, { [storage.id]: storage })).filter((i) => i.infra_id !== undefined)) {
        offeringItems.push(offeringItem(app, item, t.id, 1, t.kind === 'partner' && item.name === 'storage' ? partnerStorageQuota : UNLIMITED));
      }
    }
  }

  return {
    format: 'tenantform-emulator-world',
    formatVersion: 1,
    seed,
    idState: ids.snapshot,
    rootTenantId: root.id,
    primaryClientId: primary.client_id,
    tenants,
    applications,
    bindings,
    settings,
    infra: { [storage.id]: storage },
    reports: {},
    agents,
    agentUpdateSettings: {
      byAgent: {},
      byTenant: { [root.id]: { tenant_id: root.id, update_channel: 'STABLE', automatic: true } },
    },
    topics,
    eventTypes,
    subscriptions: {},
    alertTypes: {},
    alerts: [],
    clients: [primary],
    offeringItems,
    users: [],
    accessPolicies: {},
    deletedTenants: [],
  };
}
