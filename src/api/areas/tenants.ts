/** Tenants and search (account management). */
import { AM, call, chunk, collect, paged, type PlatformCore } from '../core';
import type { Query } from '../http';
import * as S from '../schemas';

export interface GetTenantsOptions {
  uuids?: string[];
  parentId?: string;
  subtreeRootId?: string;
  lod?: 'stamps' | 'basic' | 'full';
  /** Page size. */
  limit?: number;
}

/** GET /tenants takes at most 100 ids (spec 1, limits). */
export const TENANT_UUIDS_PER_REQUEST = 100;

export const tenantsMethods = {
  /** Tenants, page after page; `uuids` are sent in requests of at most 100. */
  async *tenants(this: PlatformCore, opts: GetTenantsOptions = {}): AsyncGenerator<S.Tenant, void, undefined> {
    const base: Query = {
      parent_id: opts.parentId,
      subtree_root_id: opts.subtreeRootId,
      lod: opts.lod,
      limit: opts.limit,
    };
    const queries: Query[] =
      opts.uuids === undefined
        ? [base]
        : chunk([...new Set(opts.uuids)], TENANT_UUIDS_PER_REQUEST).map((part) => ({ ...base, uuids: part.join(',') }));
    for (const first of queries) yield* this[paged](`${AM}/tenants`, first, S.TenantPage);
  },

  /** All tenants matching the options (follows cursors, chunks `uuids`). */
  async getTenants(this: PlatformCore, opts: GetTenantsOptions = {}): Promise<S.Tenant[]> {
    return collect(tenantsMethods.tenants.call(this, opts));
  },

  /** Searches tenants and users under `tenantId`. */
  async search(this: PlatformCore, tenantId: string, text: string, opts: { limit?: number } = {}): Promise<S.SearchItem[]> {
    const r = await this[call]({
      method: 'GET',
      endpoint: `${AM}/search`,
      query: { tenant: tenantId, text, limit: opts.limit },
      schema: S.SearchResult,
    });
    return r.items;
  },
};
