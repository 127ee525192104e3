/**
 * Finds what a tenant's subtree has live: the objects `tenantform export` declares. Every kind
 * that can list its objects (`discover`) is asked, tenant by tenant. Each object is returned
 * as its kind and import id; reading it is left to `importResource`, so that exported state is
 * exactly what `tenantform import` records.
 */
import type { Application, PlatformClient } from '../api';
import type { ResourceKind } from '../resources/declaration';
import { DISCOVERY_CONCURRENCY, mapLimit, subtreeScope, type DiscoverOptions, type ListedObject, type TenantInfo } from '../resources/discovery';
import { KINDS } from '../resources/registry';

export { mapLimit, type DiscoverOptions, type TenantInfo };

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

export async function discover(client: PlatformClient, rootTenantId: string, opts: DiscoverOptions = {}): Promise<Discovery> {
  const { root, tenants, applications, scope } = await subtreeScope(client, rootTenantId, opts);
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
