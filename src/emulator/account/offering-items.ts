/**
 * A tenant's offering items: listing, what a new child can get, and setting items and quotas.
 * Answers are the vendor reference's `offeringItemList` (`timestamp` beside `items`); storage
 * items are per storage infrastructure component (`type: infra`, `bytes`, `infra_id`).
 */
import { accountBadRequest, accountError } from '../errors';
import { catalogueOf, isStorageUsage, offeringItem, storageComponentsFor, UNLIMITED } from '../offerings';
import { z } from 'zod';
import { bool, closed, list, problem, text, uuid, version } from '../body';
import { json, queryList, withBody, type Reply, type RequestContext, type Route } from '../router';
import type { OfferingItem, Store, Tenant } from '../store';
import { ADMIN_TENANTS, nowIso, PREFIX, versionMismatch, VIEW_TENANTS, visibleTenant } from './common';

const sameItem = (a: { application_id: string; name: string; infra_id?: string | undefined }, b: typeof a): boolean =>
  a.application_id === b.application_id && a.name === b.name && (a.infra_id ?? null) === (b.infra_id ?? null);

function itemsOf(store: Store, tenantId: string): OfferingItem[] {
  return [...store.itemsOf(tenantId)];
}

/** The reference's `offeringItemList`. */
function itemList(items: OfferingItem[]): Reply {
  return json(200, { timestamp: nowIso(), items });
}

/**
 * The editions the platform offers today: the vendor's current configurations name the
 * per-workload and per-gigabyte ones beside `standard` and `advanced`.
 */
export const EDITIONS = ['standard', 'advanced', 'per_workload', 'pck_per_gigabyte', 'pck_per_workload'] as const;

/**
 * The members of an offering item that the platform answers and keeps to itself: the vendor's
 * canonical flow ("turn on everything available to this customer") puts listed items back as
 * they are, and live accepts them (the values are its own, so they are ignored).
 */
const READ_ONLY_ITEM_MEMBERS = ['edition', 'usage_name', 'type', 'measurement_unit', 'tenant_id', 'locked', 'updated_at', 'deleted_at'];

/** GAPS: list a tenant's offering items (`edition` defaults to `standard`, `*` for all; `infra_uuid` keeps one component's items). */
function filterItems(ctx: RequestContext, items: OfferingItem[]): OfferingItem[] {
  const edition = ctx.query.get('edition') ?? 'standard';
  // An edition the platform does not offer would list nothing, which reads as "no items": say so.
  if (edition !== '*' && !EDITIONS.some((e) => e === edition)) throw accountBadRequest('edition', `must be * or one of ${EDITIONS.join(', ')}`);
  const usages = queryList(ctx.query, 'usage_names');
  const status = ctx.query.get('status');
  const type = ctx.query.get('type');
  const infra = ctx.query.get('infra_uuid');
  if (status !== null && status !== '0' && status !== '1') throw accountBadRequest('status', 'must be 0 or 1');
  return items.filter(
    (i) =>
      (edition === '*' || i.edition === edition) &&
      (usages.length === 0 || usages.includes(i.usage_name)) &&
      (status === null || String(i.status) === status) &&
      (type === null || i.type === type) &&
      (infra === null || i.infra_id === infra),
  );
}

/** Whether the tenant's parent has the item on (the root has every item). */
function parentHas(store: Store, tenant: Tenant, want: { application_id: string; name: string; infra_id?: string }): boolean {
  if (tenant.parent_id === null) return true;
  const parent = store.tenant(tenant.parent_id);
  if (parent === undefined || parent.parent_id === null) return true;
  return itemsOf(store, parent.id).some((i) => sameItem(i, want) && i.status === 1);
}

function notAvailable(tenant: Tenant, item: Record<string, unknown>, why: string) {
  // GAPS: set offering items (an item the parent does not have on: 400, code 1021, the item in context)
  return accountError(400, 1021, `Offering item ${String(item.name)} is not available for tenant ${tenant.id}: ${why}`, {
    info: 'offering_items',
    context: { tenant_id: tenant.id, item: { application_id: item.application_id, name: item.name, ...(item.infra_id ? { infra_id: item.infra_id } : {}) } },
  });
}

const LIMIT = 'must be an integer >= 0 or null (unlimited)';
const limit = () => z.number(problem(LIMIT)).int(LIMIT).min(0, LIMIT).nullable().optional();
const VERSION = 'must be the current quota version';

/** GAPS: set offering items (a quota carries its current version; 0 is that of an unlimited quota that never changed). */
const Quota = z.object(
  { value: limit(), overage: limit(), version: z.union([z.literal(0), version], problem(VERSION)) },
  problem('must be an object {value, overage, version}'),
);

const ItemSetting = closed(
  {
    application_id: uuid(),
    name: text('is required').min(1, 'is required'),
    infra_id: uuid().nullable().optional(),
    status: z.union([z.literal(0), z.literal(1)], problem('must be 0 (off) or 1 (on)')).optional(),
    quota: Quota.nullable().optional(),
    ...Object.fromEntries(READ_ONLY_ITEM_MEMBERS.map((k) => [k, z.unknown().optional()])),
  },
  'an offering item',
);

// `timestamp`: the vendor's examples send back the listing's, and live accepts it.
const ItemsUpdate = closed(
  { offering_items: list(ItemSetting), check_usage: bool().optional(), timestamp: z.unknown().optional() },
  'an offering items update',
);

function putItems(ctx: RequestContext<z.output<typeof ItemsUpdate>>): Reply {
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const store = ctx.store;
  const next = structuredClone(itemsOf(store, tenant.id));
  ctx.body.offering_items.forEach((raw, i) => {
    const at = `offering_items[${i}]`;
    const app = store.application(raw.application_id);
    if (app === undefined) throw notAvailable(tenant, raw, 'the application offers no such item');
    const catalogue = catalogueOf(app, storageComponentsFor(app, store.world.infra));
    const infraId = raw.infra_id ?? null;
    const known = catalogue.find((c) => c.name === raw.name && (c.infra_id ?? null) === infraId);
    if (known === undefined) {
      // GAPS: offering item (a storage item is offered per storage infrastructure component: it is named by its infra_id)
      if (app.usages.includes(raw.name) && isStorageUsage(raw.name)) {
        if (infraId === null) throw accountBadRequest(`${at}.infra_id`, `is required: ${raw.name} is offered per storage infrastructure component`);
        throw notAvailable(tenant, raw, `infrastructure component ${infraId} is no storage of this application`);
      }
      if (infraId !== null && catalogue.some((c) => c.name === raw.name))
        throw notAvailable(tenant, raw, 'the item is not offered per infrastructure component');
      throw notAvailable(tenant, raw, 'the application offers no such item');
    }
    const key = { application_id: app.id, name: raw.name, ...(infraId !== null ? { infra_id: infraId } : {}) };
    let item = next.find((x) => sameItem(x, key));
    if (item === undefined) {
      item = offeringItem(app, known, tenant.id, 0, UNLIMITED);
      next.push(item);
    }
    if (raw.status !== undefined) item.status = raw.status;
    if (item.status === 1 && !parentHas(store, tenant, key)) throw notAvailable(tenant, raw, 'the parent tenant does not have it on');
    if (raw.quota !== undefined && raw.quota !== null) {
      const { version, value = null, overage = null } = raw.quota;
      const current = item.quota ?? UNLIMITED;
      // GAPS: set offering items (stale quota version: 409, code 1001)
      if (version !== current.version) throw versionMismatch(`Quota of offering item ${raw.name} of tenant`, tenant.id, version, current.version);
      if (value !== current.value || overage !== current.overage) item.quota = { value, overage, version: store.nextVersion(current.version) };
    }
  });
  // Items not named stay as they are.
  store.setItemsOf(tenant.id, next);
  store.save();
  return itemList(next);
}

/**
 * What a new child can get: the items the tenant has on, as live lists them (the vendor's
 * examples): on, unlimited and unlocked, so that putting the list back as it is turns them all
 * on for the child. `kind` is optional, as in the reference.
 */
function availableForChild(ctx: RequestContext): Reply {
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const kind = ctx.query.get('kind');
  if (kind !== null && !['partner', 'folder', 'customer', 'unit'].includes(kind)) throw accountBadRequest('kind', 'must be partner, folder, customer or unit');
  const own = itemsOf(ctx.store, tenant.id).filter((i) => i.status === 1);
  // The reference's items carry `tenant_id` (required): the tenant asked about, whose items these are.
  return itemList(filterItems(ctx, own).map((item) => ({ ...item, status: 1, quota: { ...UNLIMITED }, locked: false })));
}

export const offeringItemRoutes: Route[] = [
  {
    method: 'GET',
    pattern: `${PREFIX}/tenants/:tenant/offering_items`,
    scopes: VIEW_TENANTS,
    handler: (ctx) => itemList(filterItems(ctx, itemsOf(ctx.store, visibleTenant(ctx, ctx.params.tenant).id))),
  },
  { method: 'GET', pattern: `${PREFIX}/tenants/:tenant/offering_items/available_for_child`, scopes: VIEW_TENANTS, handler: availableForChild },
  withBody({ method: 'PUT', pattern: `${PREFIX}/tenants/:tenant/offering_items`, scopes: ADMIN_TENANTS, body: ItemsUpdate, handler: putItems }),
];
