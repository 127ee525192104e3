/** Users, their activation, and their roles (access policies). */
import { ROLE_TENANT_KINDS } from '../../api/roles';
import { accountBadRequest, accountConflict, accountNotFound } from '../errors';
import { isObject, json, noContent, UUID_RE, type Reply, type RequestContext, type Route } from '../router';
import type { AccessPolicy, Tenant, TenantKind, User } from '../store';
import { ADMIN_TENANTS, checkTypes, closedBody, nowIso, PREFIX, queryVersion, requireVersion, versionMismatch, VIEW_TENANTS, visibleTenant } from './common';

const NOTIFICATIONS = [
  'maintenance',
  'quota',
  'reports',
  'backup_error',
  'backup_warning',
  'backup_info',
  'backup_daily_report',
  'backup_critical',
  'device_control_warning',
];
/** What a new user gets by email when the create names nothing, as the live platform (and its console) gives it. */
export const DEFAULT_NOTIFICATIONS: readonly string[] = ['quota', 'reports', 'backup_daily_report'];
const CREATE_FIELDS = ['tenant_id', 'login', 'contact', 'enabled', 'language', 'notifications', 'business_types'];
const UPDATE_FIELDS = ['version', 'login', 'contact', 'enabled', 'language', 'notifications'];
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** GAPS: role ids and tenant kinds. */
export const ROLE_KINDS: Readonly<Record<string, readonly TenantKind[]>> = ROLE_TENANT_KINDS;

function userOr404(ctx: RequestContext): User {
  const id = ctx.params.id;
  const u = ctx.store.user(id);
  if (u === undefined || !ctx.store.isInSubtree(u.tenant_id, ctx.caller.tenantId)) throw accountNotFound('user_not_found', 'User', id);
  return u;
}

function checkStringList(v: unknown, allowed: readonly string[], field: string): string[] {
  if (!Array.isArray(v)) throw accountBadRequest(field, 'must be an array');
  v.forEach((x, i) => {
    if (typeof x !== 'string' || !allowed.includes(x)) throw accountBadRequest(`${field}[${i}]`, `must be one of ${allowed.join(', ')}`);
  });
  return [...new Set(v as string[])];
}

function checkUserFields(body: Record<string, unknown>, emailRequired: boolean): void {
  checkTypes(body, { login: 'string', enabled: 'boolean', language: 'string' });
  if (typeof body.login === 'string' && !/^[A-Za-z0-9._@+-]{1,255}$/.test(body.login))
    throw accountBadRequest('login', 'must be 1 to 255 letters, digits or . _ @ + -');
  if (body.contact !== undefined) {
    if (!isObject(body.contact)) throw accountBadRequest('contact', 'must be an object');
    // GAPS: create a user (`email` required when `contact` is given); an update may leave it
    // out, as the vendor's clients do when they change a first name (every contact member is
    // optional in the reference).
    const email = body.contact.email;
    if (email === undefined ? emailRequired : typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email))
      throw accountBadRequest('contact.email', emailRequired ? 'is required: an email address' : 'must be an email address');
    for (const [k, v] of Object.entries(body.contact)) if (v !== null && typeof v !== 'string') throw accountBadRequest(`contact.${k}`, 'must be a string');
  }
  if (body.notifications !== undefined) checkStringList(body.notifications, NOTIFICATIONS, 'notifications');
  if (body.business_types !== undefined) checkStringList(body.business_types, ['buyer'], 'business_types');
}

function loginTaken(ctx: RequestContext, login: string, self?: string): boolean {
  return ctx.store.usersWithLogin(login).some((u) => u.id !== self);
}

function loginConflict(login: string) {
  return accountConflict(`The login ${login} is taken`, { login });
}

function createUser(ctx: RequestContext): Reply {
  const body = closedBody(ctx, CREATE_FIELDS, 'a user create');
  if (typeof body.tenant_id !== 'string' || !UUID_RE.test(body.tenant_id)) throw accountBadRequest('tenant_id', 'is required (a tenant uuid)');
  checkUserFields(body, true);
  const tenant = visibleTenant(ctx, body.tenant_id);
  const id = ctx.store.newId();
  const login = (body.login as string | undefined) ?? `user-${id.slice(0, 8)}`;
  if (loginTaken(ctx, login)) throw loginConflict(login);
  const now = nowIso();
  const user: User = {
    id,
    version: ctx.store.nextVersion(),
    tenant_id: tenant.id,
    personal_tenant_id: ctx.store.newId(),
    login,
    contact: { ...((body.contact as Record<string, unknown> | undefined) ?? {}) },
    enabled: (body.enabled as boolean | undefined) ?? true,
    activated: false,
    language: (body.language as string | undefined) ?? 'en',
    notifications: [...((body.notifications as string[] | undefined) ?? DEFAULT_NOTIFICATIONS)],
    business_types: [...((body.business_types as string[] | undefined) ?? [])],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  ctx.store.world.users.push(user);
  ctx.store.save();
  // GAPS: create a user (answers 200, not 201)
  return json(200, user);
}

function updateUser(ctx: RequestContext): Reply {
  const current = userOr404(ctx);
  const body = closedBody(ctx, UPDATE_FIELDS, 'a user update');
  const version = requireVersion(body.version);
  checkUserFields(body, false);
  if (version !== current.version) throw versionMismatch('User', current.id, version, current.version);
  if (typeof body.login === 'string' && loginTaken(ctx, body.login, current.id)) throw loginConflict(body.login);
  if (body.login !== undefined) {
    const previous = current.login;
    current.login = body.login as string;
    ctx.store.loginChanged(current, previous);
  }
  // GAPS: update a user: the members of `contact` sent change, the others stay (a null clears one).
  if (body.contact !== undefined) current.contact = { ...current.contact, ...(body.contact as Record<string, unknown>) };
  if (body.enabled !== undefined) current.enabled = body.enabled as boolean;
  if (body.language !== undefined) current.language = body.language as string;
  if (body.notifications !== undefined) current.notifications = [...new Set(body.notifications as string[])];
  current.version = ctx.store.nextVersion(current.version);
  current.updated_at = nowIso();
  ctx.store.save();
  return json(200, current);
}

function deleteUser(ctx: RequestContext): Reply {
  const current = userOr404(ctx);
  const version = queryVersion(ctx);
  if (version !== current.version) throw versionMismatch('User', current.id, version, current.version);
  // GAPS: delete a user (disable first; an enabled user answers 409)
  if (current.enabled) throw accountConflict(`User ${current.id} is enabled; disable it (PUT enabled: false) before deleting it`, { id: current.id });
  const w = ctx.store.world;
  w.users = w.users.filter((u) => u.id !== current.id);
  delete w.accessPolicies[current.id];
  ctx.store.save();
  return noContent();
}

function checkLogin(ctx: RequestContext): Reply {
  const login = ctx.query.get('username');
  if (login === null || login === '') throw accountBadRequest('username', 'is required');
  // GAPS: login available (204 free, 409 taken)
  if (loginTaken(ctx, login)) throw loginConflict(login);
  return noContent();
}

function sendActivation(ctx: RequestContext): Reply {
  const user = userOr404(ctx);
  // GAPS: activation. The emulator has no mailbox: the user counts as having followed the link.
  user.activated = true;
  ctx.store.save();
  return noContent();
}

// ---------------------------------------------------------------- roles

function checkRole(tenant: Tenant, roleId: string, at: string): void {
  const kinds = ROLE_KINDS[roleId];
  if (kinds === undefined) throw accountBadRequest(`${at}.role_id`, `must be one of ${Object.keys(ROLE_KINDS).join(', ')}`);
  // GAPS: role ids and tenant kinds (a role on the wrong kind of tenant: 400)
  if (!kinds.includes(tenant.kind))
    throw accountBadRequest(`${at}.role_id`, `${roleId} cannot be granted on a ${tenant.kind} tenant (only on ${kinds.join(', ')})`);
}

/** A user's access policies as the platform answers them: the list's `timestamp`, each item's times. */
function renderPolicies(policies: readonly AccessPolicy[]): Reply {
  const now = nowIso();
  return json(200, {
    timestamp: now,
    items: policies.map((p) => ({ ...p, created_at: p.created_at ?? now, updated_at: p.updated_at ?? now, deleted_at: null })),
  });
}

function putPolicies(ctx: RequestContext): Reply {
  const user = userOr404(ctx);
  const body = closedBody(ctx, ['items'], 'an access policy set');
  if (!Array.isArray(body.items)) throw accountBadRequest('items', 'is required (an array)');
  const current = ctx.store.world.accessPolicies[user.id] ?? [];
  const next: AccessPolicy[] = body.items.map((raw: unknown, i: number) => {
    const at = `items[${i}]`;
    if (!isObject(raw)) throw accountBadRequest(at, 'must be an object');
    if (typeof raw.tenant_id !== 'string' || !UUID_RE.test(raw.tenant_id)) throw accountBadRequest(`${at}.tenant_id`, 'must be a uuid');
    if (typeof raw.role_id !== 'string') throw accountBadRequest(`${at}.role_id`, 'is required');
    if (raw.trustee_id !== undefined && raw.trustee_id !== user.id) throw accountBadRequest(`${at}.trustee_id`, 'must be the user of the path');
    checkRole(visibleTenant(ctx, raw.tenant_id), raw.role_id, at);
    const known = typeof raw.id === 'string' && raw.id !== NIL_UUID ? current.find((p) => p.id === raw.id) : undefined;
    if (known !== undefined) {
      const version = requireVersion(raw.version, `${at}.version`);
      if (version !== known.version) throw versionMismatch('Access policy', known.id, version, known.version);
      const same = known.tenant_id === raw.tenant_id && known.role_id === raw.role_id;
      return same ? known : { ...known, tenant_id: raw.tenant_id, role_id: raw.role_id, version: ctx.store.nextVersion(known.version), updated_at: nowIso() };
    }
    // GAPS: user roles (new entries: nil id and issuer, version 0)
    return {
      id: ctx.store.newId(),
      issuer_id: ctx.caller.tenantId,
      trustee_id: user.id,
      trustee_type: 'user',
      tenant_id: raw.tenant_id,
      role_id: raw.role_id,
      version: ctx.store.nextVersion(),
      created_at: nowIso(),
      updated_at: nowIso(),
    };
  });
  const keys = next.map((p) => `${p.tenant_id}/${p.role_id}`);
  if (new Set(keys).size !== keys.length) throw accountBadRequest('items', 'names the same role on the same tenant twice');
  ctx.store.world.accessPolicies[user.id] = next;
  ctx.store.save();
  return renderPolicies(next);
}

export const userRoutes: Route[] = [
  { method: 'GET', pattern: `${PREFIX}/users/check_login`, scopes: VIEW_TENANTS, handler: checkLogin },
  { method: 'POST', pattern: `${PREFIX}/users`, scopes: ADMIN_TENANTS, jsonBody: true, handler: createUser },
  { method: 'GET', pattern: `${PREFIX}/users/:id`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, userOr404(ctx)) },
  { method: 'PUT', pattern: `${PREFIX}/users/:id`, scopes: ADMIN_TENANTS, jsonBody: true, handler: updateUser },
  { method: 'DELETE', pattern: `${PREFIX}/users/:id`, scopes: ADMIN_TENANTS, handler: deleteUser },
  { method: 'POST', pattern: `${PREFIX}/users/:id/send-activation-email`, scopes: ADMIN_TENANTS, handler: sendActivation },
  {
    method: 'GET',
    pattern: `${PREFIX}/users/:id/access_policies`,
    scopes: VIEW_TENANTS,
    handler: (ctx) => renderPolicies(ctx.store.world.accessPolicies[userOr404(ctx).id] ?? []),
  },
  { method: 'PUT', pattern: `${PREFIX}/users/:id/access_policies`, scopes: ADMIN_TENANTS, jsonBody: true, handler: putPolicies },
  {
    method: 'GET',
    pattern: `${PREFIX}/tenants/:tenant/users`,
    scopes: VIEW_TENANTS,
    // The users of one tenant (public reference: `{items: [user uuid, ...]}`).
    handler: (ctx) => {
      const tenant = visibleTenant(ctx, ctx.params.tenant);
      return json(200, { items: ctx.store.usersOf(tenant.id).map((u) => u.id) });
    },
  },
];
