/**
 * Finds what a tenant's subtree has live: the objects `tenantform export` declares.
 * Each object is returned as its kind and import id; reading it is left to
 * `importResource`, so that exported state is exactly what `tenantform import` records.
 */
import type { AgentUpdateSettings, Application, PlatformClient, Tenant } from '../api';
import { isNotFound } from '../api/errors';
import type { ResourceKind, State } from '../resources/declaration';
import { agentUpdateSettings } from '../resources/kinds/agent-update-settings';
import { applicationBinding } from '../resources/kinds/application-binding';
import { infraComponent } from '../resources/kinds/infra-component';
import { offeringItems } from '../resources/kinds/offering-items';
import { tenant as tenantKind } from '../resources/kinds/tenant';
import { user } from '../resources/kinds/user';
import { userRoles } from '../resources/kinds/user-roles';
import { tenantSetting } from '../resources/kinds/tenant-setting';
import { usageReport } from '../resources/kinds/usage-report';
import { canonicalJson } from '../resources/values';

export interface TenantInfo {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly parentId: string | null;
}

export interface Discovered {
  readonly kind: ResourceKind;
  /** The id `tenantform import` takes (the kind's `identity`). */
  readonly importId: string;
  /** The tenant the object belongs to. */
  readonly tenant: TenantInfo;
  /** Words that name the object within its tenant, e.g. `['backup', 'retention_days']`. */
  readonly label: readonly string[];
}

export interface Discovery {
  readonly root: TenantInfo;
  /** The subtree, parents before children, siblings by name. */
  readonly tenants: readonly TenantInfo[];
  readonly applications: readonly Application[];
  readonly objects: readonly Discovered[];
}

/** Requests in flight at once while walking a subtree. */
const CONCURRENCY = 4;

const kinds = {
  binding: applicationBinding as unknown as ResourceKind,
  setting: tenantSetting as unknown as ResourceKind,
  infra: infraComponent as unknown as ResourceKind,
  agentUpdates: agentUpdateSettings as unknown as ResourceKind,
  report: usageReport as unknown as ResourceKind,
  tenant: tenantKind as unknown as ResourceKind,
  items: offeringItems as unknown as ResourceKind,
  user: user as unknown as ResourceKind,
  roles: userRoles as unknown as ResourceKind,
};

export interface DiscoverOptions {
  /**
   * The setting names to look for. The platform lists no tenant's settings (the reference reads,
   * writes and deletes one setting by name), so only these names are read, for every application
   * each tenant has.
   */
  readonly settingNames?: readonly string[];
}

export async function discover(client: PlatformClient, rootTenantId: string, opts: DiscoverOptions = {}): Promise<Discovery> {
  const settingNames = [...new Set(opts.settingNames ?? [])].sort();
  const [subtree, applications] = await Promise.all([
    client.getTenants({ subtreeRootId: rootTenantId, lod: 'basic' }),
    client.listApplications(),
  ]);
  const tenants = treeOrder(subtree.map(toInfo), rootTenantId);
  const root = tenants[0];
  if (!root || root.id !== rootTenantId) throw new Error(`Tenant ${rootTenantId} is not visible to this API client.`);
  const appById = new Map(applications.map((a) => [a.id, a]));
  const masters = await masterSettings(client, tenants);

  const perTenant = await mapLimit(tenants, CONCURRENCY, async (tenant) => {
    const found: Discovered[] = [];
    const add = (kind: ResourceKind, identity: State, label: string[]) =>
      found.push({ kind, importId: kind.identity(identity), tenant, label });

    // The sub-tenants themselves; the exported tenant is where the export starts, so it stays a given.
    if (tenant.id !== rootTenantId) add(kinds.tenant, { id: tenant.id }, ['tenant']);

    // GAPS "Enabling under a parent that lacks the application": the platform root has every
    // application implicitly, so its bindings are not something a configuration can manage.
    const isPlatformRoot = tenant.parentId === null;
    const bound = isPlatformRoot ? applications.map((a) => a.id) : await client.listTenantApplications(tenant.id);
    const ownApps = bound.filter((id) => appById.has(id)).sort((a, b) => appLabel(appById, a).localeCompare(appLabel(appById, b)));
    for (const appId of ownApps) {
      if (!isPlatformRoot) add(kinds.binding, { application_id: appId, tenant_id: tenant.id }, [appLabel(appById, appId)]);
    }

    // One read per application and setting name, side by side: `own` is null for an inherited value.
    const probes = ownApps.flatMap((appId) => settingNames.map((name) => ({ appId, name })));
    const settings = await mapLimit(probes, CONCURRENCY, async ({ appId, name }) => {
      try {
        return await client.getSetting(appId, tenant.id, name);
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    });
    probes.forEach(({ appId, name }, i) => {
      if (settings[i]?.own != null) add(kinds.setting, { application_id: appId, tenant_id: tenant.id, name }, [appLabel(appById, appId), name]);
    });

    // The components at the tenant's locations. Those of other owners, those the platform owns,
    // or that this client sees only in part, cannot be managed by this tenant's configuration.
    const infraIds = await client.listTenantInfra(tenant.id);
    const components = infraIds.length > 0 ? await client.getInfra(infraIds) : [];
    for (const c of components.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))) {
      if (c.owner_tenant_id !== tenant.id || c.platform_owned === true || c.readonly === true) continue;
      add(kinds.infra, { id: c.id }, [c.name]);
    }

    if (masters.get(tenant.id) === 'own') add(kinds.agentUpdates, { tenant_id: tenant.id }, ['agent_updates']);

    // GAPS "Usage report configuration: list for a tenant".
    const reportIds = await client.listTenantReports(tenant.id);
    const reports = await mapLimit(reportIds, CONCURRENCY, (id) => client.getReport(id));
    for (const r of reports.sort((a, b) => reportLabel(a).localeCompare(reportLabel(b)) || a.id.localeCompare(b.id))) {
      add(kinds.report, { id: r.id }, [reportLabel(r)]);
    }
    // Offering items that are on, one resource per application (the platform root has every item implicitly).
    if (!isPlatformRoot) {
      const items = await client.listOfferingItems(tenant.id, { edition: '*' });
      const appsOn = [...new Set(items.filter((i) => i.status === 1 && appById.has(i.application_id)).map((i) => i.application_id))];
      for (const appId of appsOn.sort((a, b) => appLabel(appById, a).localeCompare(appLabel(appById, b)))) {
        add(kinds.items, { tenant_id: tenant.id, application_id: appId }, [appLabel(appById, appId), 'offering_items']);
      }
    }

    // Users and their roles. API clients are not exported: their secrets cannot be read back.
    const users = await mapLimit(await client.listTenantUsers(tenant.id), CONCURRENCY, (id) => client.getUser(id));
    for (const u of users.sort((a, b) => a.login.localeCompare(b.login))) {
      add(kinds.user, { id: u.id }, ['user', u.login]);
      if ((await client.getAccessPolicies(u.id)).length > 0) add(kinds.roles, { user_id: u.id }, ['user', u.login, 'roles']);
    }
    return found;
  });

  return { root, tenants, applications, objects: perTenant.flat() };
}

/**
 * Which tenants have master agent update settings of their OWN. The platform answers a read
 * with the nearest ancestor's settings when a tenant has none (spec 2), carrying the requested
 * tenant id, and says nothing about where they came from. An answer equal to the parent's
 * resolved answer is therefore taken as inherited. Own settings identical to the parent's are
 * skipped too: they change nothing the tenant gets today. When the parent cannot be read
 * (outside this client's scope), the answer is kept: declaring an inherited value makes an empty
 * plan, while leaving out an own value would lose it.
 */
async function masterSettings(client: PlatformClient, tenants: readonly TenantInfo[]): Promise<Map<string, 'own' | 'inherited' | 'none'>> {
  const root = tenants[0];
  const parentOfRoot = root.parentId === null ? [] : [root.parentId];
  const ids = [...parentOfRoot, ...tenants.map((t) => t.id)];
  const answers = await mapLimit(ids, CONCURRENCY, (id) => resolvedMaster(client, id));
  const resolved = new Map(ids.map((id, i) => [id, answers[i]]));
  const out = new Map<string, 'own' | 'inherited' | 'none'>();
  for (const t of tenants) {
    const mine = resolved.get(t.id);
    if (mine === null || mine === 'unreadable' || mine === undefined) {
      out.set(t.id, 'none');
      continue;
    }
    const parents = t.parentId === null ? null : resolved.get(t.parentId);
    const inherited = parents !== null && parents !== undefined && parents !== 'unreadable' && sameSettings(mine, parents);
    out.set(t.id, inherited ? 'inherited' : 'own');
  }
  return out;
}

/** The resolved master settings; null when none apply, `unreadable` when the tenant is out of reach. */
async function resolvedMaster(client: PlatformClient, tenantId: string): Promise<AgentUpdateSettings | null | 'unreadable'> {
  try {
    return await client.getAgentUpdateSettings(tenantId, { master: true });
  } catch (err) {
    // GAPS "GET response": 404 UNATTENDED_AGENT_UPDATE_SETTINGS_NOT_FOUND (none apply) or TENANT_NOT_FOUND.
    if (isNotFound(err)) return (err as { code?: string }).code === 'TENANT_NOT_FOUND' ? 'unreadable' : null;
    throw err;
  }
}

function sameSettings(a: AgentUpdateSettings, b: AgentUpdateSettings): boolean {
  const comparable = (s: AgentUpdateSettings) => ({
    update_channel: s.update_channel,
    automatic: s.automatic,
    maintenance_window: s.maintenance_window ?? null,
  });
  return canonicalJson(comparable(a)) === canonicalJson(comparable(b));
}

function toInfo(t: Tenant): TenantInfo {
  // The platform's root tenant is its own parent.
  return { id: t.id, name: t.name ?? t.id, kind: t.kind ?? 'tenant', parentId: t.parent_id === t.id ? null : t.parent_id };
}

/** Parents before children, siblings by name then id, starting at the root. */
function treeOrder(tenants: readonly TenantInfo[], rootId: string): TenantInfo[] {
  const children = new Map<string, TenantInfo[]>();
  for (const t of tenants) {
    if (t.parentId !== null) children.set(t.parentId, [...(children.get(t.parentId) ?? []), t]);
  }
  const root = tenants.find((t) => t.id === rootId);
  if (!root) return [];
  const out: TenantInfo[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const t = queue.shift() as TenantInfo;
    out.push(t);
    queue.push(...(children.get(t.id) ?? []).sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)));
  }
  return out;
}

function appLabel(apps: Map<string, Application>, id: string): string {
  return apps.get(id)?.type ?? id;
}

function reportLabel(r: { schedule: { type: string }; parameters: { kind: string } }): string {
  return `${r.schedule.type} ${r.parameters.kind}`;
}

/** `Promise.all` over `items` with at most `limit` calls in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
