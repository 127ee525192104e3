/** Tenants: listing and search. */
import { z } from 'zod';
import { accountBadRequest, accountError } from '../errors';
import { decodeCursor, encodeCursor, json, queryList, UUID_RE, type Reply, type RequestContext, type Route } from '../router';
import type { Store, Tenant } from '../store';
import { parseLimit, PREFIX, VIEW_TENANTS, visibleTenant } from './common';

/** How much of a tenant a listing answers (`lod`, the level of detail). */
const LOD = z.enum(['stamps', 'basic', 'full']);
export type Lod = z.output<typeof LOD>;

/** The emulator's one brand and identity provider: the reference requires their ids on a full tenant. */
const DEFAULT_BRAND_UUID = '00000000-0000-4000-8000-00000000b4a9';
const DEFAULT_IDP_ID = '00000000-0000-4000-8000-0000000001d9';

/** A contact as the platform answers it: every member present, `email` a string, `types` a list. */
function renderContact(t: Tenant): Record<string, unknown> {
  const c = t.contact;
  const text = (k: string) => (typeof c[k] === 'string' ? c[k] : null);
  return {
    ...c,
    id: t.id,
    created_at: t.created_at,
    updated_at: t.updated_at,
    types: Array.isArray(c.types) ? c.types : [],
    email: typeof c.email === 'string' ? c.email : '',
    firstname: text('firstname'),
    lastname: text('lastname'),
  };
}

export function renderTenant(store: Store, t: Tenant, lod: Lod): Record<string, unknown> {
  const stamps: Record<string, unknown> = {
    id: t.id,
    // The reference: the root tenant's parent is itself.
    parent_id: t.parent_id ?? t.id,
    version: t.version,
    created_at: t.created_at,
    updated_at: t.updated_at,
    deleted_at: t.deleted_at ?? null,
    contacts: [],
    offering_items: [],
  };
  if (lod === 'stamps') return stamps;
  const basic = { ...stamps, name: t.name, kind: t.kind, enabled: t.enabled };
  if (lod === 'basic') return basic;
  return {
    ...basic,
    customer_type: t.customer_type,
    customer_id: t.customer_id,
    brand_id: 1,
    brand_uuid: DEFAULT_BRAND_UUID,
    brand_enabled: false,
    barrier: t.barrier ? 1 : 0,
    internal_tag: t.internal_tag,
    language: t.language,
    owner_id: null,
    has_children: store.children(t.id).length > 0,
    default_idp_id: DEFAULT_IDP_ID,
    update_lock: { ...t.update_lock },
    ancestral_access: !t.barrier,
    mfa_status: 'disabled',
    pricing_mode: t.pricing.mode,
    contact: renderContact(t),
    external_operation_status: null,
    production_start_date: t.pricing.production_start_date,
  };
}

/** A listing's filters, as a page's cursor carries them. */
const TenantQuery = z.object({
  uuids: z.array(z.string()).optional(),
  parent_id: z.string().optional(),
  subtree_root_id: z.string().optional(),
  updated_since: z.string().optional(),
  lod: LOD,
  limit: z.number(),
});
type TenantQuery = z.output<typeof TenantQuery>;

const TenantCursor = z.object({ q: TenantQuery, o: z.number() });

function parseTenantQuery(q: URLSearchParams): TenantQuery {
  const uuids = queryList(q, 'uuids');
  const parent = q.get('parent_id') ?? undefined;
  const subtree = q.get('subtree_root_id') ?? undefined;
  const given = [uuids.length > 0, parent !== undefined, subtree !== undefined].filter(Boolean).length;
  // GAPS: listing tenants without a filter (there is no "everything I can see" listing)
  if (given === 0) {
    throw accountError(400, 'ParameterMalformed', 'One of the parameters uuids, parent_id, subtree_root_id or after is required', {
      info: 'uuids, parent_id, subtree_root_id, after',
      context: { parameters: ['uuids', 'parent_id', 'subtree_root_id', 'after'] },
    });
  }
  if (given > 1) throw accountBadRequest('uuids', 'uuids, parent_id and subtree_root_id are mutually exclusive');
  if (uuids.length > 100) throw accountBadRequest('uuids', 'at most 100 ids');
  for (const id of [...uuids, parent, subtree]) {
    if (id !== undefined && !UUID_RE.test(id)) throw accountBadRequest('uuids', `${id} is not a uuid`);
  }
  const lod = LOD.safeParse(q.get('lod') ?? 'full');
  if (!lod.success) throw accountBadRequest('lod', 'must be stamps, basic or full');
  const limit = parseLimit(q.get('limit'), 5000);
  const since = q.get('updated_since') ?? undefined;
  if (since !== undefined && Number.isNaN(Date.parse(since))) throw accountBadRequest('updated_since', 'must be an RFC 3339 date-time');
  const out: TenantQuery = { lod: lod.data, limit };
  if (uuids.length > 0) out.uuids = uuids;
  if (parent !== undefined) out.parent_id = parent;
  if (subtree !== undefined) out.subtree_root_id = subtree;
  if (since !== undefined) out.updated_since = since;
  return out;
}

function listTenants(ctx: RequestContext): Reply {
  const after = ctx.query.get('after');
  let query: TenantQuery;
  let offset = 0;
  if (after !== null) {
    // spec 01: the cursor carries every filter and sort argument
    const state = decodeCursor(after, TenantCursor);
    if (state === undefined) throw accountBadRequest('after', 'is not a cursor of this listing');
    query = state.q;
    offset = state.o;
    if (ctx.query.get('limit') !== null) query = { ...query, limit: parseLimit(ctx.query.get('limit'), query.limit) };
  } else {
    query = parseTenantQuery(ctx.query);
  }
  const store = ctx.store;
  let matches: readonly Tenant[];
  if (query.uuids !== undefined) {
    // Each id looked up, not the caller's whole subtree scanned: a drift of an estate asks for tens of thousands, a hundred at a time.
    const found = [...new Set(query.uuids)]
      .map((id) => store.tenant(id))
      .filter((t): t is Tenant => t !== undefined && store.isInSubtree(t.id, ctx.caller.tenantId));
    // spec 01: sorted by tenant level (stable: tenants of one level keep the order they were asked in)
    matches = found
      .map((t, i) => ({ t, i, level: store.level(t.id) }))
      .sort((a, b) => a.level - b.level || a.i - b.i)
      .map((x) => x.t);
  } else if (query.parent_id !== undefined) {
    visibleTenant(ctx, query.parent_id);
    matches = store.children(query.parent_id);
  } else {
    // Already by level: the subtree is walked level by level.
    matches = store.subtree(visibleTenant(ctx, query.subtree_root_id ?? '').id);
  }
  if (query.updated_since !== undefined) {
    const since = Date.parse(query.updated_since);
    matches = matches.filter((t) => Date.parse(t.updated_at) > since);
  }
  const page = matches.slice(offset, offset + query.limit);
  const next = offset + page.length;
  const cursors: Record<string, string> = {};
  // platform-interface: tenants listing (after is absent on the last page)
  if (next < matches.length) cursors.after = encodeCursor({ q: query, o: next } satisfies z.input<typeof TenantCursor>);
  return json(200, {
    timestamp: new Date().toISOString(),
    paging: { cursors },
    items: page.map((t) => renderTenant(store, t, query.lod)),
  });
}

function search(ctx: RequestContext): Reply {
  const tenantId = ctx.query.get('tenant');
  const text = ctx.query.get('text');
  if (tenantId === null || tenantId === '') throw accountBadRequest('tenant', 'is required');
  if (text === null || text === '') throw accountBadRequest('text', 'is required');
  const limit = parseLimit(ctx.query.get('limit'), 10);
  const tenant = visibleTenant(ctx, tenantId);
  const needle = text.toLowerCase();
  const items = ctx.store
    .subtree(tenant.id)
    .filter((t) => t.name.toLowerCase().includes(needle))
    .slice(0, limit)
    .map((t) => ({
      id: t.id,
      parent_id: t.parent_id,
      obj_type: 'tenant',
      name: t.name,
      kind: t.kind,
      first_name: null,
      last_name: null,
      path: ctx.store
        .pathUp(t.id)
        .slice(1)
        .reverse()
        .map((a) => a.name),
      deleted_at: null,
    }));
  return json(200, { items });
}

export const tenantRoutes: Route[] = [
  { method: 'GET', pattern: `${PREFIX}/tenants`, scopes: VIEW_TENANTS, handler: listTenants },
  { method: 'GET', pattern: `${PREFIX}/search`, scopes: VIEW_TENANTS, handler: search },
];
