/**
 * Tenant create, read, update, delete and pricing mode (GAPS: tenants, offering items, users,
 * roles, API clients; the HTTP statuses of the coded errors are ours).
 */
import { accountBadRequest, accountConflict, accountError, tenantNotFound } from '../errors';
import { z } from 'zod';
import { bool, closed, distinct, list, nonEmpty, oneOf, problem, text, uuid, version } from '../body';
import { json, noContent, queryBool, withBody, type Reply, type RequestContext, type Route } from '../router';
import { tenantDefaults } from '../seed';
import type { Store, Tenant, TenantKind } from '../store';
import { ADMIN_TENANTS, codedConflict, nowIso, PREFIX, queryVersion, versionMismatch, VIEW_TENANTS, visibleTenant } from './common';
import { renderTenant } from './tenants';

const KINDS = ['partner', 'folder', 'customer', 'unit'] as const satisfies readonly TenantKind[];
const CUSTOMER_TYPES: [string, ...string[]] = ['default', 'enterprise', 'consumer', 'small_office', 'ti_unified'];
const CONTACT_TYPES: [string, ...string[]] = ['legal', 'primary', 'billing', 'technical', 'management'];
const CONTACT_STRINGS = [
  'email',
  'firstname',
  'lastname',
  'phone',
  'address1',
  'address2',
  'city',
  'state',
  'zipcode',
  'country',
  'title',
  'website',
  'industry',
  'organization_size',
  'language',
];
/** Which kinds a tenant of each kind may have as children (ours: the platform's tree rules). */
const CHILD_KINDS: Record<TenantKind, readonly TenantKind[]> = {
  root: ['partner', 'folder', 'customer'],
  partner: ['partner', 'folder', 'customer'],
  folder: ['partner', 'folder', 'customer'],
  customer: ['unit'],
  unit: ['unit'],
};

const full = (ctx: RequestContext, t: Tenant): Reply => json(200, renderTenant(ctx.store, t, 'full'));

function checkKindUnder(parent: Tenant, kind: TenantKind): void {
  if (!CHILD_KINDS[parent.kind].includes(kind)) {
    throw accountBadRequest(
      'kind',
      `a ${kind} tenant cannot be created under a ${parent.kind} tenant (allowed: ${CHILD_KINDS[parent.kind].join(', ') || 'none'})`,
    );
  }
}

function checkNameFree(store: Store, parentId: string, name: string, self?: string): void {
  const taken = store.children(parentId).find((t) => t.name === name && t.id !== self);
  if (taken !== undefined) throw codedConflict(1004, `A tenant named "${name}" already exists under ${parentId}`, { name, parent_id: parentId, id: taken.id });
}

/** GAPS: tenant contact (ContactPut, every member optional). */
const Contact = closed(
  {
    ...Object.fromEntries(CONTACT_STRINGS.map((k) => [k, text().nullable().optional()])),
    types: list(oneOf(CONTACT_TYPES)).refine(distinct, 'must not repeat a type').optional(),
  },
  'a contact',
);

/** `update_lock.enabled`: a boolean, or the string the vendor's example sends (`"true"`, `"false"`), which live accepts. */
const UpdateLock = z.object(
  { enabled: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')], problem('must be a boolean')) },
  problem('must be an object {enabled: boolean}'),
);

/** The members both create and update take. */
const COMMON = {
  name: nonEmpty().optional(),
  contact: Contact.optional(),
  enabled: bool().optional(),
  customer_id: text().nullable().optional(),
  internal_tag: text().nullable().optional(),
  language: text().optional(),
  update_lock: UpdateLock.optional(),
  ancestral_access: bool().optional(),
};

const TenantCreate = closed({ ...COMMON, name: nonEmpty(), parent_id: uuid(), kind: oneOf(KINDS) }, 'a tenant create');
// GAPS: update a tenant (`version` required in the body)
const TenantUpdate = closed(
  { ...COMMON, version, customer_type: oneOf(CUSTOMER_TYPES).optional(), parent_id: uuid().nullable().optional() },
  'a tenant update',
);

type CommonMembers = Omit<z.output<typeof TenantUpdate>, 'version' | 'customer_type' | 'parent_id'>;

/** Applies the members both create and update take. */
function applyCommon(ctx: RequestContext, t: Tenant, body: CommonMembers): void {
  if (body.name !== undefined) t.name = body.name;
  if (body.enabled !== undefined) t.enabled = body.enabled;
  if (body.customer_id !== undefined) t.customer_id = body.customer_id;
  if (body.internal_tag !== undefined) t.internal_tag = body.internal_tag;
  if (body.language !== undefined) t.language = body.language;
  if (body.ancestral_access !== undefined) t.barrier = !body.ancestral_access;
  // GAPS: tenant contact (a PUT merges the members it sends)
  if (body.contact !== undefined) t.contact = { ...t.contact, ...body.contact };
  if (body.update_lock !== undefined) {
    // GAPS: update lock (the owner is the caller's tenant)
    t.update_lock = body.update_lock.enabled ? { enabled: true, owner_id: ctx.caller.tenantId } : { enabled: false, owner_id: null };
  }
}

function createTenant(ctx: RequestContext<z.output<typeof TenantCreate>>): Reply {
  const { parent_id, kind, ...body } = ctx.body;
  const parent = visibleTenant(ctx, parent_id);
  checkKindUnder(parent, kind);
  checkNameFree(ctx.store, parent.id, body.name);
  const tenant: Tenant = { id: ctx.store.newId(), parent_id: parent.id, name: body.name, kind, ...tenantDefaults(kind, nowIso()) };
  tenant.version = ctx.store.nextVersion();
  tenant.pricing.version = ctx.store.nextVersion();
  applyCommon(ctx, tenant, body);
  ctx.store.world.tenants.push(tenant);
  ctx.store.world.bindings[tenant.id] = [];
  ctx.store.save();
  return json(201, renderTenant(ctx.store, tenant, 'full'));
}

/** A deleted tenant is still readable with `allow_deleted=true` by whoever could see it. */
function deletedVisible(ctx: RequestContext, id: string): Tenant | undefined {
  const deleted = ctx.store.world.deletedTenants;
  let cur = deleted.find((t) => t.id === id);
  const found = cur;
  for (let i = 0; cur !== undefined && i <= deleted.length; i++) {
    if (cur.parent_id === null) return undefined;
    if (ctx.store.tenant(cur.parent_id) !== undefined) return ctx.store.isInSubtree(cur.parent_id, ctx.caller.tenantId) ? found : undefined;
    cur = deleted.find((t) => t.id === cur?.parent_id);
  }
  return undefined;
}

function getTenant(ctx: RequestContext): Reply {
  const id = ctx.params.id;
  if (queryBool(ctx.query, 'allow_deleted') === true && ctx.store.tenant(id) === undefined) {
    const gone = deletedVisible(ctx, id);
    if (gone === undefined) throw tenantNotFound(id);
    return full(ctx, gone);
  }
  return full(ctx, visibleTenant(ctx, id));
}

/** GAPS: update lock (only the locking tenant's callers change a locked tenant: 403, code 1012). */
function checkUnlocked(ctx: RequestContext, t: Tenant): void {
  if (t.update_lock.enabled && t.update_lock.owner_id !== ctx.caller.tenantId) {
    throw accountError(403, 1012, `Tenant ${t.id} is locked for updates by tenant ${String(t.update_lock.owner_id)}`, {
      context: { id: t.id, owner_id: t.update_lock.owner_id },
    });
  }
}

function updateTenant(ctx: RequestContext<z.output<typeof TenantUpdate>>): Reply {
  const current = visibleTenant(ctx, ctx.params.id);
  const body = ctx.body;
  checkUnlocked(ctx, current);
  if (body.version !== current.version) throw versionMismatch('Tenant', current.id, body.version, current.version);
  const next: Tenant = structuredClone(current);
  if (body.parent_id !== undefined && body.parent_id !== current.parent_id) {
    if (body.parent_id === null) throw accountBadRequest('parent_id', 'must be a uuid');
    const parent = visibleTenant(ctx, body.parent_id);
    if (ctx.store.isInSubtree(parent.id, current.id)) throw accountBadRequest('parent_id', 'cannot move a tenant below itself');
    checkKindUnder(parent, current.kind);
    next.parent_id = parent.id;
  }
  applyCommon(ctx, next, body);
  if (body.customer_type !== undefined) next.customer_type = body.customer_type;
  if (next.parent_id !== null && (next.name !== current.name || next.parent_id !== current.parent_id))
    checkNameFree(ctx.store, next.parent_id, next.name, current.id);
  next.version = ctx.store.nextVersion(current.version);
  next.updated_at = nowIso();
  const moved = next.parent_id !== current.parent_id;
  Object.assign(current, next);
  if (moved) ctx.store.tenantMoved();
  ctx.store.save();
  return full(ctx, current);
}

function deleteTenant(ctx: RequestContext): Reply {
  const current = visibleTenant(ctx, ctx.params.id);
  const version = queryVersion(ctx);
  if (current.id === ctx.caller.tenantId) throw accountError(403, 'access_denied', 'A caller cannot delete its own tenant', { context: { id: current.id } });
  checkUnlocked(ctx, current);
  if (version !== current.version) throw versionMismatch('Tenant', current.id, version, current.version);
  // GAPS: delete a tenant (disable first: deleting an enabled tenant answers 409, code 1006)
  if (current.enabled) {
    throw codedConflict(1006, `Tenant ${current.id} is enabled; disable it (PUT enabled: false) before deleting it`, { id: current.id });
  }
  removeSubtree(ctx.store, current.id);
  ctx.store.save();
  return noContent();
}

/** Soft-deletes the tenant and its sub-tenants, with their users, roles, items, settings and clients. */
function removeSubtree(store: Store, id: string): void {
  const w = store.world;
  const doomed = new Set(store.subtree(id).map((t) => t.id));
  const at = nowIso();
  for (const t of w.tenants.filter((x) => doomed.has(x.id))) w.deletedTenants.push({ ...t, deleted_at: at });
  w.tenants = w.tenants.filter((t) => !doomed.has(t.id));
  for (const u of w.users.filter((x) => doomed.has(x.tenant_id))) delete w.accessPolicies[u.id];
  w.users = w.users.filter((u) => !doomed.has(u.tenant_id));
  for (const list of Object.values(w.accessPolicies)) list.splice(0, list.length, ...list.filter((p) => !doomed.has(p.tenant_id)));
  w.offeringItems = w.offeringItems.filter((i) => !doomed.has(i.tenant_id));
  w.settings = w.settings.filter((s) => !doomed.has(s.tenant_id));
  w.clients = w.clients.filter((c) => !doomed.has(c.tenant_id));
  for (const t of doomed) delete w.bindings[t];
}

// ---------------------------------------------------------------- pricing mode

function customerOr403(ctx: RequestContext): Tenant {
  const t = visibleTenant(ctx, ctx.params.id);
  // GAPS: pricing mode (only customer tenants; other kinds answer 403)
  if (t.kind !== 'customer')
    throw accountError(403, 'access_denied', `Tenant ${t.id} is a ${t.kind}: only customer tenants have a pricing mode`, {
      context: { id: t.id, kind: t.kind },
    });
  return t;
}

/** How long a customer's trial lasts: its pricing answers the trial's end as `production_start_date`. */
const TRIAL_DAYS = 30;

/** A customer's pricing; a trial's `production_start_date` is the day its trial ends, as live answers it. */
const pricingView = (t: Tenant) => {
  const trialEnd = new Date(Date.parse(t.created_at) + TRIAL_DAYS * 86_400_000).toISOString();
  return { ...t.pricing, production_start_date: t.pricing.production_start_date ?? (t.pricing.mode === 'trial' ? trialEnd : null) };
};

const PricingUpdate = closed(
  {
    version,
    mode: oneOf(['trial', 'production', 'suspended'], 'must be trial, production or suspended').optional(),
    currency: text().optional(),
    // The platform's: the vendor's example puts it back, live accepts and ignores it.
    production_start_date: z.unknown().optional(),
  },
  'a pricing update',
);

function putPricing(ctx: RequestContext<z.output<typeof PricingUpdate>>): Reply {
  const t = customerOr403(ctx);
  const body = ctx.body;
  if (body.version !== t.pricing.version) throw versionMismatch('Pricing of tenant', t.id, body.version, t.pricing.version);
  const mode = body.mode ?? t.pricing.mode;
  if (mode === 'trial' && t.pricing.mode !== 'trial') {
    // GAPS: pricing mode (trial to production once, never back)
    throw accountConflict(`Tenant ${t.id} is in ${t.pricing.mode}; a tenant never returns to trial`, { id: t.id, mode: t.pricing.mode });
  }
  const start = t.pricing.production_start_date ?? (mode === 'production' ? nowIso() : null);
  t.pricing = {
    mode,
    currency: body.currency ?? t.pricing.currency,
    version: ctx.store.nextVersion(t.pricing.version),
    production_start_date: start,
  };
  t.updated_at = nowIso();
  ctx.store.save();
  return json(200, pricingView(t));
}

export const tenantLifecycleRoutes: Route[] = [
  withBody({ method: 'POST', pattern: `${PREFIX}/tenants`, scopes: ADMIN_TENANTS, body: TenantCreate, handler: createTenant }),
  { method: 'GET', pattern: `${PREFIX}/tenants/:id`, scopes: VIEW_TENANTS, handler: getTenant },
  withBody({ method: 'PUT', pattern: `${PREFIX}/tenants/:id`, scopes: ADMIN_TENANTS, body: TenantUpdate, handler: updateTenant }),
  { method: 'DELETE', pattern: `${PREFIX}/tenants/:id`, scopes: ADMIN_TENANTS, handler: deleteTenant },
  { method: 'GET', pattern: `${PREFIX}/tenants/:id/pricing`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, pricingView(customerOr403(ctx))) },
  withBody({ method: 'PUT', pattern: `${PREFIX}/tenants/:id/pricing`, scopes: ADMIN_TENANTS, body: PricingUpdate, handler: putPricing }),
];
