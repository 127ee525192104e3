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

/** GAPS: create a tenant (closed schema). */
export interface TenantCreate {
  name: string;
  parent_id: string;
  kind: 'partner' | 'folder' | 'customer' | 'unit';
  contact?: Record<string, unknown>;
  enabled?: boolean;
  customer_id?: string | null;
  internal_tag?: string | null;
  language?: string;
  update_lock?: { enabled: boolean };
  ancestral_access?: boolean;
}

/** GAPS: update a tenant (closed schema, `version` required; members sent change). */
export type TenantUpdate = Partial<Omit<TenantCreate, 'kind'>> & { version: number; customer_type?: string };

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
      opts.uuids === undefined ? [base] : chunk([...new Set(opts.uuids)], TENANT_UUIDS_PER_REQUEST).map((part) => ({ ...base, uuids: part.join(',') }));
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

  /** GAPS: read a tenant (404 code 1104 when unknown). */
  getTenant(this: PlatformCore, id: string, opts: { allowDeleted?: boolean } = {}): Promise<S.Tenant> {
    return this[call]({
      method: 'GET',
      endpoint: `${AM}/tenants/{tenant_id}`,
      params: { tenant_id: id },
      query: { allow_deleted: opts.allowDeleted },
      schema: S.Tenant,
    });
  },

  /** GAPS: create a tenant (201, version 1). Not idempotent: never retried. */
  createTenant(this: PlatformCore, body: TenantCreate): Promise<S.Tenant> {
    return this[call]({ method: 'POST', endpoint: `${AM}/tenants`, json: body, schema: S.Tenant });
  },

  /** GAPS: update a tenant (409 when `version` is stale, or a sibling has the name). */
  updateTenant(this: PlatformCore, id: string, body: TenantUpdate): Promise<S.Tenant> {
    return this[call]({ method: 'PUT', endpoint: `${AM}/tenants/{tenant_id}`, params: { tenant_id: id }, json: body, schema: S.Tenant });
  },

  /** GAPS: delete a tenant (disabled first; 409 when enabled or stale). */
  async deleteTenant(this: PlatformCore, id: string, version: number): Promise<void> {
    await this[call]({ method: 'DELETE', endpoint: `${AM}/tenants/{tenant_id}`, params: { tenant_id: id }, query: { version }, schema: null });
  },

  /** GAPS: pricing mode (customers only). */
  getPricing(this: PlatformCore, tenantId: string): Promise<S.Pricing> {
    return this[call]({ method: 'GET', endpoint: `${AM}/tenants/{tenant_id}/pricing`, params: { tenant_id: tenantId }, schema: S.Pricing });
  },

  /** GAPS: pricing mode (its own `version`; trial to production once). */
  putPricing(this: PlatformCore, tenantId: string, body: { version: number; mode?: string; currency?: string }): Promise<S.Pricing> {
    return this[call]({ method: 'PUT', endpoint: `${AM}/tenants/{tenant_id}/pricing`, params: { tenant_id: tenantId }, json: body, schema: S.Pricing });
  },
};
