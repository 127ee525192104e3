/**
 * Reads of a tenant's surroundings that the vendor's own clients make beside tenantform's:
 * its children, and its usages (the metered amounts of its offering items).
 */
import { accountBadRequest } from '../errors';
import { json, queryBool, type Reply, type RequestContext, type Route } from '../router';
import type { OfferingItem, Tenant } from '../store';
import { PREFIX, VIEW_TENANTS, visibleTenant } from './common';

/** Refuses parameters the emulator does not implement, by name: a filter ignored answers what nobody asked for. */
function onlyParameters(ctx: RequestContext, known: readonly string[]): void {
  for (const name of new Set(ctx.query.keys())) {
    if (!known.includes(name)) throw accountBadRequest(name, 'is not implemented by the emulator for this listing');
  }
}

/** `GET /tenants/{id}/children`: the reference's `uuidList` of the tenant's children (deleted ones with `allow_deleted`). */
function children(ctx: RequestContext): Reply {
  onlyParameters(ctx, ['allow_deleted']);
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const live = ctx.store.children(tenant.id).map((t) => t.id);
  const deleted =
    queryBool(ctx.query, 'allow_deleted') === true ? ctx.store.world.deletedTenants.filter((t) => t.parent_id === tenant.id).map((t) => t.id) : [];
  return json(200, { items: [...live, ...deleted] });
}

/**
 * One usage: what a tenant's offering item has used. The emulator meters nothing, so every
 * usage is 0; the members are the offering item's, as the vendor's usage readers expect them.
 */
function usageOf(item: OfferingItem): Record<string, unknown> {
  const { application_id, name, edition, usage_name, type, measurement_unit, tenant_id, infra_id } = item;
  return {
    tenant_id,
    application_id,
    name,
    edition,
    usage_name,
    type,
    measurement_unit,
    ...(infra_id !== undefined ? { infra_id } : {}),
    value: 0,
    absolute_value: 0,
    offering_item: { status: item.status, ...(item.quota ? { quota: item.quota } : {}) },
  };
}

function usagesOf(ctx: RequestContext, tenant: Tenant): Array<Record<string, unknown>> {
  return ctx.store.itemsOf(tenant.id).map(usageOf);
}

/** `GET /tenants/{id}/usages`: the tenant's usages, one per offering item it has. */
function tenantUsages(ctx: RequestContext): Reply {
  onlyParameters(ctx, []);
  return json(200, { items: usagesOf(ctx, visibleTenant(ctx, ctx.params.tenant)) });
}

/** `GET /tenants/usages?tenants=...`: the usages of several tenants at once. */
function usagesOfTenants(ctx: RequestContext): Reply {
  onlyParameters(ctx, ['tenants']);
  const ids = (ctx.query.get('tenants') ?? '').split(',').filter((id) => id !== '');
  if (ids.length === 0) throw accountBadRequest('tenants', 'is required: the tenant ids, comma-separated');
  return json(200, { items: ids.flatMap((id) => usagesOf(ctx, visibleTenant(ctx, id))) });
}

export const tenantReadRoutes: Route[] = [
  { method: 'GET', pattern: `${PREFIX}/tenants/usages`, scopes: VIEW_TENANTS, handler: usagesOfTenants },
  { method: 'GET', pattern: `${PREFIX}/tenants/:tenant/children`, scopes: VIEW_TENANTS, handler: children },
  { method: 'GET', pattern: `${PREFIX}/tenants/:tenant/usages`, scopes: VIEW_TENANTS, handler: tenantUsages },
];
