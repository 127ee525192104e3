/**
 * Listing what a tenant has live, kind by kind (a kind's `discover`): the objects
 * `tenantform export` declares and unmanaged drift counts. A kind lists identities only;
 * reading an object is left to its import, so that what is found is what an import records.
 */
import type { Application, PlatformClient, Tenant } from '../api';
import { groupBy } from '../group-by';
import type { State } from './attributes';

export interface TenantInfo {
  readonly id: string;
  readonly name: string;
  readonly kind: string;
  readonly parentId: string | null;
}

/** What the listings of every kind share: the subtree, and reads made once for all of them. */
export interface DiscoveryScope {
  readonly client: PlatformClient;
  /** Where the listing starts: an export starts from this tenant, so it is a given, not an object. */
  readonly rootTenantId: string;
  /** The subtree, parents before children. */
  readonly tenants: readonly TenantInfo[];
  /** The setting names asked for (the platform lists no tenant's settings). */
  readonly settingNames: readonly string[];
  /** Objects of a type that the state records: a kind the platform cannot list looks for these. */
  recorded(type: string): readonly State[];
  /** The applications the platform offers, by id. */
  readonly applications: ReadonlyMap<string, Application>;
  /** The words naming an application: its type. */
  applicationLabel(id: string): string;
  /** The applications a tenant has, by label; the platform root has every one. Read once per tenant. */
  applicationsOf(tenant: TenantInfo): Promise<string[]>;
  /** A read that the listings of several kinds or tenants share, made once. */
  once<T>(key: string, read: () => Promise<T>): Promise<T>;
}

/** One live object a kind lists. */
export interface ListedObject {
  /** The attributes its identity (import id) is made from. */
  readonly identity: State;
  /** Words that name the object within its tenant, e.g. `['backup', 'retention_days']`. */
  readonly label: readonly string[];
  /** The tenant whose configuration manages it, when not the one it is listed under (a sub-tenant belongs to its parent). */
  readonly ownerTenantId?: string;
  /** Objects the platform needs first (an application turned on before its settings), by type and import id. */
  readonly needs?: ReadonlyArray<{ readonly type: string; readonly importId: string }>;
}

export interface Discover {
  /**
   * Where the kind's objects stand among a tenant's objects, lower first. Kinds of equal rank
   * are interleaved by label (a user, then that user's roles).
   */
  readonly rank: number;
  /** Set when the kind finds only the objects whose names it is given (`settingNames`): the platform lists none. */
  readonly byName?: boolean;
  /** Set when what is listed under a tenant belongs to its parent's configuration (a sub-tenant): a parent's objects are found under its children. */
  readonly ownedByParent?: boolean;
  /** The live objects of the kind in one tenant of the scope, in the order an export lists them. */
  list(scope: DiscoveryScope, tenant: TenantInfo): Promise<ListedObject[]>;
}

/** Requests in flight at once while walking a subtree. */
export const DISCOVERY_CONCURRENCY = 4;

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

/** A subtree read for listing: its tenants (the root first) and the scope the kinds list in. */
export interface SubtreeScope {
  readonly root: TenantInfo;
  readonly tenants: readonly TenantInfo[];
  readonly applications: readonly Application[];
  readonly scope: DiscoveryScope;
}

/** Reads the subtree of `rootTenantId` and the applications offered (two requests), and makes the scope of the listings. */
export async function subtreeScope(client: PlatformClient, rootTenantId: string, opts: DiscoverOptions = {}): Promise<SubtreeScope> {
  const [subtree, applications] = await Promise.all([client.getTenants({ subtreeRootId: rootTenantId, lod: 'basic' }), client.listApplications()]);
  const tenants = treeOrder(subtree.map(toInfo), rootTenantId);
  const root = tenants[0];
  if (!root || root.id !== rootTenantId) throw new Error(`Tenant ${rootTenantId} is not visible to this API client.`);
  return { root, tenants, applications, scope: discoveryScope(client, rootTenantId, tenants, applications, opts) };
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
