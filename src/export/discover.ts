/**
 * Finds what a tenant's subtree has live: the objects `tenantform export` declares. Every kind
 * that can list its objects (`discover`) is asked, tenant by tenant. Each object is returned
 * as its kind and import id; reading it is left to `importResource`, so that exported state is
 * exactly what `tenantform import` records.
 */
import type { Application, PlatformClient, Tenant } from '../api';
import type { ResourceKind, State } from '../resources/declaration';
import { DISCOVERY_CONCURRENCY, mapLimit, type DiscoveryScope, type ListedObject, type TenantInfo } from '../resources/discovery';
import { KINDS } from '../resources/registry';
import { groupBy } from '../group-by';

export { mapLimit, type TenantInfo };

export interface Discovered extends Omit<ListedObject, 'identity'> {
  readonly kind: ResourceKind;
  /** The id `tenantform import` takes (the kind's `identity`). */
  readonly importId: string;
  /** The tenant the object is listed under. */
  readonly tenant: TenantInfo;
}

export interface Discovery {
  readonly root: TenantInfo;
  /** The subtree, parents before children, siblings by name. */
  readonly tenants: readonly TenantInfo[];
  readonly applications: readonly Application[];
  readonly objects: readonly Discovered[];
}

export interface DiscoverOptions {
  /**
   * The setting names to look for. The platform lists no tenant's settings (the reference reads,
   * writes and deletes one setting by name), so only these names are read, for every application
   * each tenant has.
   */
  readonly settingNames?: readonly string[];
  /** The objects the state records: kinds the platform cannot list look for these too. */
  readonly recorded?: ReadonlyArray<{ readonly type: string; readonly attributes: State }>;
}

export async function discover(client: PlatformClient, rootTenantId: string, opts: DiscoverOptions = {}): Promise<Discovery> {
  const [subtree, applications] = await Promise.all([client.getTenants({ subtreeRootId: rootTenantId, lod: 'basic' }), client.listApplications()]);
  const tenants = treeOrder(subtree.map(toInfo), rootTenantId);
  const root = tenants[0];
  if (!root || root.id !== rootTenantId) throw new Error(`Tenant ${rootTenantId} is not visible to this API client.`);
  const scope = discoveryScope(client, rootTenantId, tenants, applications, opts);
  const ranks = rankGroups(KINDS.resources);
  const perTenant = await mapLimit(tenants, DISCOVERY_CONCURRENCY, async (tenant) => {
    const found: Discovered[] = [];
    for (const group of ranks) {
      const lists: Discovered[][] = [];
      for (const kind of group) {
        const listed = await kind.discover!.list(scope, tenant);
        lists.push(listed.map(({ identity, ...o }) => ({ ...o, kind, importId: kind.identity(identity), tenant })));
      }
      found.push(...interleaved(lists));
    }
    return found;
  });
  return { root, tenants, applications, objects: perTenant.flat() };
}

function discoveryScope(
  client: PlatformClient,
  rootTenantId: string,
  tenants: readonly TenantInfo[],
  applications: readonly Application[],
  opts: DiscoverOptions,
): DiscoveryScope {
  const appById = new Map(applications.map((a) => [a.id, a]));
  const reads = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    if (!reads.has(key)) reads.set(key, read());
    return reads.get(key) as Promise<T>;
  };
  const applicationLabel = (id: string) => appById.get(id)?.type ?? id;
  // Grouped once: every tenant's listing asks for a kind's recorded objects.
  const recordedByType = new Map([...groupBy(opts.recorded ?? [], (o) => o.type)].map(([type, objects]) => [type, objects.map((o) => o.attributes)]));
  return {
    client,
    rootTenantId,
    tenants,
    settingNames: opts.settingNames ?? [],
    recorded: (type) => recordedByType.get(type) ?? [],
    applications: appById,
    applicationLabel,
    applicationsOf: (tenant) =>
      once(`applications of ${tenant.id}`, async () => {
        const bound = tenant.parentId === null ? applications.map((a) => a.id) : await client.listTenantApplications(tenant.id);
        return bound.filter((id) => appById.has(id)).sort((a, b) => applicationLabel(a).localeCompare(applicationLabel(b)));
      }),
    once,
  };
}

/** The kinds that list their objects, grouped by rank, lowest first. */
function rankGroups(kinds: readonly ResourceKind[]): ResourceKind[][] {
  const byRank = new Map<number, ResourceKind[]>();
  for (const k of kinds) if (k.discover) byRank.set(k.discover.rank, [...(byRank.get(k.discover.rank) ?? []), k]);
  return [...byRank].sort(([a], [b]) => a - b).map(([, group]) => group);
}

/** The lists of kinds of one rank as one, interleaved by label; each list keeps its own order. */
function interleaved(lists: Discovered[][]): Discovered[] {
  const heads = lists.map(() => 0);
  const out: Discovered[] = [];
  for (;;) {
    let pick = -1;
    lists.forEach((list, i) => {
      if (heads[i] < list.length && (pick < 0 || compareLabels(list[heads[i]].label, lists[pick][heads[pick]].label) < 0)) pick = i;
    });
    if (pick < 0) return out;
    out.push(lists[pick][heads[pick]++]);
  }
}

/** Word by word; a label that starts another comes first (a user before that user's roles). */
function compareLabels(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = a[i].localeCompare(b[i]);
    if (c !== 0) return c;
  }
  return a.length - b.length;
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
