/**
 * Tenant create, read, update, delete and pricing mode (GAPS: tenants, offering items, users,
 * roles, API clients; the HTTP statuses of the coded errors are ours).
 */
import { accountBadRequest, accountConflict, accountError, tenantNotFound } from '../errors';
import { isObject, json, noContent, queryBool, UUID_RE, type Reply, type RequestContext, type Route } from '../router';
import { tenantDefaults } from '../seed';
import type { Store, Tenant, TenantKind } from '../store';
import {
  ADMIN_TENANTS,
  checkTypes,
  closedBody,
  codedConflict,
  nowIso,
  PREFIX,
  queryVersion,
  requireVersion,
  versionMismatch,
  VIEW_TENANTS,
  visibleTenant,
} from './common';
import { renderTenant } from './tenants';

const KINDS: readonly TenantKind[] = ['partner', 'folder', 'customer', 'unit'];
const CUSTOMER_TYPES = ['default', 'enterprise', 'consumer', 'small_office', 'ti_unified'];
const CONTACT_TYPES = ['legal', 'primary', 'billing', 'technical', 'management'];
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
const CREATE_FIELDS = ['name', 'parent_id', 'kind', 'contact', 'enabled', 'customer_id', 'internal_tag', 'language', 'update_lock', 'ancestral_access'];
const UPDATE_FIELDS = [
  'version',
  'name',
  'customer_type',
  'contact',
  'enabled',
  'customer_id',
  'internal_tag',
  'language',
  'update_lock',
  'ancestral_access',
  'parent_id',
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
function checkContact(v: unknown): Record<string, unknown> {
  if (!isObject(v)) throw accountBadRequest('contact', 'must be an object');
  for (const k of Object.keys(v)) {
    if (k !== 'types' && !CONTACT_STRINGS.includes(k)) throw accountBadRequest(`contact.${k}`, 'is not a contact field');
  }
  checkTypes(v, Object.fromEntries(CONTACT_STRINGS.map((k) => [k, 'string' as const])), CONTACT_STRINGS, 'contact.');
  if (v.types !== undefined) {
    if (!Array.isArray(v.types)) throw accountBadRequest('contact.types', 'must be an array');
    v.types.forEach((t, i) => {
      if (typeof t !== 'string' || !CONTACT_TYPES.includes(t)) throw accountBadRequest(`contact.types[${i}]`, `must be one of ${CONTACT_TYPES.join(', ')}`);
    });
    if (new Set(v.types).size !== v.types.length) throw accountBadRequest('contact.types', 'must not repeat a type');
  }
  return v;
}

function checkCommon(body: Record<string, unknown>): void {
  checkTypes(body, { name: 'string', enabled: 'boolean', customer_id: 'string', internal_tag: 'string', language: 'string', ancestral_access: 'boolean' }, [
    'customer_id',
    'internal_tag',
  ]);
  if (typeof body.name === 'string' && body.name.trim() === '') throw accountBadRequest('name', 'must not be empty');
  if (body.contact !== undefined) checkContact(body.contact);
  if (body.update_lock !== undefined && (!isObject(body.update_lock) || lockEnabled(body.update_lock.enabled) === undefined)) {
    throw accountBadRequest('update_lock', 'must be an object {enabled: boolean}');
  }
}

/** `update_lock.enabled`: a boolean, or the string the vendor's example sends (`"true"`, `"false"`), which live accepts. */
function lockEnabled(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  return v === 'true' ? true : v === 'false' ? false : undefined;
}

/** Applies the members both create and update take. */
function applyCommon(ctx: RequestContext, t: Tenant, body: Record<string, unknown>): void {
  if (body.name !== undefined) t.name = body.name as string;
  if (body.enabled !== undefined) t.enabled = body.enabled as boolean;
  if (body.customer_id !== undefined) t.customer_id = body.customer_id as string | null;
  if (body.internal_tag !== undefined) t.internal_tag = body.internal_tag as string | null;
  if (body.language !== undefined) t.language = body.language as string;
  if (body.ancestral_access !== undefined) t.barrier = !(body.ancestral_access as boolean);
  // GAPS: tenant contact (a PUT merges the members it sends)
  if (body.contact !== undefined) t.contact = { ...t.contact, ...(body.contact as Record<string, unknown>) };
  if (isObject(body.update_lock)) {
    // GAPS: update lock (the owner is the caller's tenant)
    t.update_lock = lockEnabled(body.update_lock.enabled) ? { enabled: true, owner_id: ctx.caller.tenantId } : { enabled: false, owner_id: null };
  }
}

function createTenant(ctx: RequestContext): Reply {
  const body = closedBody(ctx, CREATE_FIELDS, 'a tenant create');
  for (const f of ['name', 'parent_id', 'kind']) if (body[f] === undefined || body[f] === null) throw accountBadRequest(f, 'is required');
  if (typeof body.parent_id !== 'string' || !UUID_RE.test(body.parent_id)) throw accountBadRequest('parent_id', 'must be a uuid');
  if (typeof body.kind !== 'string' || !KINDS.includes(body.kind as TenantKind)) throw accountBadRequest('kind', `must be one of ${KINDS.join(', ')}`);
  checkCommon(body);
  const parent = visibleTenant(ctx, body.parent_id);
  const kind = body.kind as TenantKind;
  checkKindUnder(parent, kind);
  checkNameFree(ctx.store, parent.id, body.name as string);
  const tenant: Tenant = { id: ctx.store.newId(), parent_id: parent.id, name: body.name as string, kind, ...tenantDefaults(kind, nowIso()) };
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

function updateTenant(ctx: RequestContext): Reply {
  const current = visibleTenant(ctx, ctx.params.id);
  const body = closedBody(ctx, UPDATE_FIELDS, 'a tenant update');
  // GAPS: update a tenant (`version` required in the body)
  const version = requireVersion(body.version);
  checkCommon(body);
  if (body.customer_type !== undefined && (typeof body.customer_type !== 'string' || !CUSTOMER_TYPES.includes(body.customer_type))) {
    throw accountBadRequest('customer_type', `must be one of ${CUSTOMER_TYPES.join(', ')}`);
  }
  checkUnlocked(ctx, current);
  if (version !== current.version) throw versionMismatch('Tenant', current.id, version, current.version);
  const next: Tenant = structuredClone(current);
  if (body.parent_id !== undefined && body.parent_id !== current.parent_id) {
    if (typeof body.parent_id !== 'string' || !UUID_RE.test(body.parent_id)) throw accountBadRequest('parent_id', 'must be a uuid');
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

function putPricing(ctx: RequestContext): Reply {
  const t = customerOr403(ctx);
  // `production_start_date` is the platform's: the vendor's example puts it back, live accepts and ignores it.
  const body = closedBody(ctx, ['version', 'mode', 'currency', 'production_start_date'], 'a pricing update');
  const version = requireVersion(body.version);
  checkTypes(body, { mode: 'string', currency: 'string' });
  if (body.mode !== undefined && !['trial', 'production', 'suspended'].includes(body.mode as string))
    throw accountBadRequest('mode', 'must be trial, production or suspended');
  if (version !== t.pricing.version) throw versionMismatch('Pricing of tenant', t.id, version, t.pricing.version);
  const mode = (body.mode as Tenant['pricing']['mode'] | undefined) ?? t.pricing.mode;
  if (mode === 'trial' && t.pricing.mode !== 'trial') {
    // GAPS: pricing mode (trial to production once, never back)
    throw accountConflict(`Tenant ${t.id} is in ${t.pricing.mode}; a tenant never returns to trial`, { id: t.id, mode: t.pricing.mode });
  }
  const start = t.pricing.production_start_date ?? (mode === 'production' ? nowIso() : null);
  t.pricing = {
    mode,
    currency: (body.currency as string | undefined) ?? t.pricing.currency,
    version: ctx.store.nextVersion(t.pricing.version),
    production_start_date: start,
  };
  t.updated_at = nowIso();
  ctx.store.save();
  return json(200, pricingView(t));
}

export const tenantLifecycleRoutes: Route[] = [
  { method: 'POST', pattern: `${PREFIX}/tenants`, scopes: ADMIN_TENANTS, jsonBody: true, handler: createTenant },
  { method: 'GET', pattern: `${PREFIX}/tenants/:id`, scopes: VIEW_TENANTS, handler: getTenant },
  { method: 'PUT', pattern: `${PREFIX}/tenants/:id`, scopes: ADMIN_TENANTS, jsonBody: true, handler: updateTenant },
  { method: 'DELETE', pattern: `${PREFIX}/tenants/:id`, scopes: ADMIN_TENANTS, handler: deleteTenant },
  { method: 'GET', pattern: `${PREFIX}/tenants/:id/pricing`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, pricingView(customerOr403(ctx))) },
  { method: 'PUT', pattern: `${PREFIX}/tenants/:id/pricing`, scopes: ADMIN_TENANTS, jsonBody: true, handler: putPricing },
];
