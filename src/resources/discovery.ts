/**
 * Listing what a tenant has live, kind by kind (a kind's `discover`): the objects
 * `tenantform export` declares and unmanaged drift counts. A kind lists identities only;
 * reading an object is left to its import, so that what is found is what an import records.
 */
import type { Application, PlatformClient } from '../api';
import type { State } from './declaration';

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
