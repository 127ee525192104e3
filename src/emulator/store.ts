/**
 * The emulated platform's data (the "world"), its deterministic seed and its persistence.
 *
 * The world is plain JSON so that it can be written to a data file after every mutation
 * (temporary file in the same directory, fsync, rename) and loaded again on the next start.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SeededRandom, deriveSeed } from './prng';

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
  /** Set when the alert is dismissed (DELETE /alerts). */
  deletedAt?: string;
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
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

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
      enabled: true,
      barrier: t.barrier === true,
      version: 1,
      created_at: SEED_TIME,
      updated_at: SEED_TIME,
    };
    tenants.push(tenant);
    byName.set(t.name, tenant);
  }
  const root = tenants[0] as Tenant;

  const applications: Application[] = APPLICATION_CATALOGUE.map((a) => ({ id: ids.uuid(), ...a, usages: [...a.usages] }));
  const appId = (type: string): string => (applications.find((a) => a.type === type) as Application).id;

  const bindings: Record<string, string[]> = {};
  for (const t of tenants) {
    bindings[t.id] = t.kind === 'customer' ? [appId('platform')] : [appId('backup'), appId('platform')];
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
        os_family: osFamilies[(i - 1) % osFamilies.length] as string,
        online: i !== 3,
        up_to_date: i !== 2,
        unit: i === 1 ? 'servers' : 'workstations',
      });
    }
  }

  const topics: Topic[] = [
    { id: TENANT_TOPIC, description: 'Tenant lifecycle events', persistency: true, ordering: 'NONE', producer_consolidation: 'NONE', archive_consolidation: 'NONE', retention: 'P7D' },
    { id: TASK_TOPIC, description: 'Task lifecycle events', persistency: true, ordering: 'NONE', producer_consolidation: 'NONE', archive_consolidation: 'NONE', retention: 'P7D' },
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
    infra: {},
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
  };
}

/** The world plus the lookups and persistence every interface module needs. */
export class Store {
  world: World;
  private ids: SeededRandom;

  constructor(
    world: World,
    private readonly dataFile?: string,
  ) {
    this.world = world;
    this.ids = new SeededRandom(world.idState);
  }

  /** Loads the world from `dataFile` when it exists, else seeds it (and writes it there). */
  static open(seed: number, dataFile?: string): Store {
    if (dataFile !== undefined && fs.existsSync(dataFile)) {
      const parsed = JSON.parse(fs.readFileSync(dataFile, 'utf8')) as World;
      if (parsed.format !== 'tenantform-emulator-world') throw new Error(`${dataFile} is not an emulator data file`);
      return new Store(parsed, dataFile);
    }
    const store = new Store(seedWorld(seed), dataFile);
    store.save();
    return store;
  }

  /** Replaces the world by a freshly seeded one (same seed as the current world). */
  reset(): void {
    this.world = seedWorld(this.world.seed);
    this.ids = new SeededRandom(this.world.idState);
    this.save();
  }

  newId(): string {
    const id = this.ids.uuid();
    this.world.idState = this.ids.snapshot;
    return id;
  }

  newSecret(): string {
    const s = this.ids.secret();
    this.world.idState = this.ids.snapshot;
    return s;
  }

  /** Call after every mutation: writes the data file atomically when there is one. */
  save(): void {
    if (this.dataFile === undefined) return;
    const dir = path.dirname(this.dataFile);
    const tmp = path.join(dir, `.${path.basename(this.dataFile)}.${process.pid}.tmp`);
    const fd = fs.openSync(tmp, 'w', 0o600);
    try {
      fs.writeSync(fd, JSON.stringify(this.world, null, 2));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, this.dataFile);
  }

  // ---- lookups

  tenant(id: string): Tenant | undefined {
    return this.world.tenants.find((t) => t.id === id);
  }

  tenantByName(name: string): Tenant | undefined {
    return this.world.tenants.find((t) => t.name === name);
  }

  children(id: string): Tenant[] {
    return this.world.tenants.filter((t) => t.parent_id === id);
  }

  /** The tenant and its ancestors, nearest first, ending at the root. */
  pathUp(id: string): Tenant[] {
    const out: Tenant[] = [];
    let cur = this.tenant(id);
    while (cur !== undefined && out.length <= this.world.tenants.length) {
      out.push(cur);
      cur = cur.parent_id === null ? undefined : this.tenant(cur.parent_id);
    }
    return out;
  }

  /** Depth below the root (the root is level 0). */
  level(id: string): number {
    return this.pathUp(id).length - 1;
  }

  /** The tenant and all its descendants, parents before children. */
  subtree(id: string): Tenant[] {
    const root = this.tenant(id);
    if (root === undefined) return [];
    const out: Tenant[] = [root];
    for (let i = 0; i < out.length; i++) out.push(...this.children((out[i] as Tenant).id));
    return out;
  }

  isInSubtree(id: string, rootId: string): boolean {
    return this.pathUp(id).some((t) => t.id === rootId);
  }

  application(id: string): Application | undefined {
    return this.world.applications.find((a) => a.id === id);
  }

  agent(id: string): Agent | undefined {
    return this.world.agents.find((a) => a.id === id);
  }

  client(id: string): ApiClient | undefined {
    return this.world.clients.find((c) => c.client_id === id);
  }

  get primaryClient(): ApiClient {
    return this.client(this.world.primaryClientId) as ApiClient;
  }
}
