/** Users, their activation, and their roles (access policies). */
import { ROLE_TENANT_KINDS } from '../../api/roles';
import { accountBadRequest, accountConflict, accountNotFound } from '../errors';
import { z } from 'zod';
import { bool, closed, list, oneOf, problem, text, uuid, version } from '../body';
import { json, noContent, withBody, type Reply, type RequestContext, type Route } from '../router';
import type { AccessPolicy, Tenant, TenantKind, User } from '../store';
import { ADMIN_TENANTS, nowIso, PREFIX, queryVersion, requireVersion, versionMismatch, VIEW_TENANTS, visibleTenant } from './common';

const NOTIFICATIONS: [string, ...string[]] = [
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
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** GAPS: role ids and tenant kinds. */
export const ROLE_KINDS: Readonly<Record<string, readonly TenantKind[]>> = ROLE_TENANT_KINDS;

function userOr404(ctx: RequestContext): User {
  const id = ctx.params.id;
  const u = ctx.store.user(id);
  if (u === undefined || !ctx.store.isInSubtree(u.tenant_id, ctx.caller.tenantId)) throw accountNotFound('user_not_found', 'User', id);
  return u;
}

/** A list of names from `allowed`, each kept once. */
const names = (allowed: readonly [string, ...string[]]) => list(oneOf(allowed)).transform((v) => [...new Set(v)]);

const LOGIN = text().regex(/^[A-Za-z0-9._@+-]{1,255}$/, 'must be 1 to 255 letters, digits or . _ @ + -');
const EMAIL = text('must be an email address').regex(/^[^@\s]+@[^@\s]+$/, 'must be an email address');

/**
 * GAPS: create a user (`email` required when `contact` is given); an update may leave it out, as
 * the vendor's clients do when they change a first name (every contact member is optional in
 * the reference). Every other member is text or null.
 */
const contact = (email: z.ZodType<string | undefined>) => z.object({ email }, problem('must be an object')).catchall(text().nullable());

const UserCreate = closed(
  {
    tenant_id: uuid('must be a tenant uuid'),
    login: LOGIN.optional(),
    contact: contact(EMAIL).optional(),
    enabled: bool().optional(),
    language: text().optional(),
    notifications: names(NOTIFICATIONS).optional(),
    business_types: names(['buyer']).optional(),
  },
  'a user create',
);

const UserUpdate = closed(
  {
    version,
    login: LOGIN.optional(),
    contact: contact(EMAIL.optional()).optional(),
    enabled: bool().optional(),
    language: text().optional(),
    notifications: names(NOTIFICATIONS).optional(),
  },
  'a user update',
);

/** An access policy of the set: `id` and `version` name one the user has (a nil or unknown id: a new one). */
const AccessPolicySet = closed(
  {
    items: list(
      z.looseObject(
        { tenant_id: uuid(), role_id: text(), trustee_id: z.unknown().optional(), id: z.unknown().optional(), version: z.unknown().optional() },
        problem('must be an object'),
      ),
    ),
  },
  'an access policy set',
);

function loginTaken(ctx: RequestContext, login: string, self?: string): boolean {
  return ctx.store.usersWithLogin(login).some((u) => u.id !== self);
}

function loginConflict(login: string) {
  return accountConflict(`The login ${login} is taken`, { login });
}

function createUser(ctx: RequestContext<z.output<typeof UserCreate>>): Reply {
  const body = ctx.body;
  const tenant = visibleTenant(ctx, body.tenant_id);
  const id = ctx.store.newId();
  const login = body.login ?? `user-${id.slice(0, 8)}`;
  if (loginTaken(ctx, login)) throw loginConflict(login);
  const now = nowIso();
  const user: User = {
    id,
    version: ctx.store.nextVersion(),
    tenant_id: tenant.id,
    personal_tenant_id: ctx.store.newId(),
    login,
    contact: { ...body.contact },
    enabled: body.enabled ?? true,
    activated: false,
    language: body.language ?? 'en',
    notifications: [...(body.notifications ?? DEFAULT_NOTIFICATIONS)],
    business_types: body.business_types ?? [],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  ctx.store.world.users.push(user);
  ctx.store.save();
  // GAPS: create a user (answers 200, not 201)
  return json(200, user);
}

function updateUser(ctx: RequestContext<z.output<typeof UserUpdate>>): Reply {
  const current = userOr404(ctx);
  const body = ctx.body;
  if (body.version !== current.version) throw versionMismatch('User', current.id, body.version, current.version);
  if (body.login !== undefined && loginTaken(ctx, body.login, current.id)) throw loginConflict(body.login);
  if (body.login !== undefined) {
    const previous = current.login;
    current.login = body.login;
    ctx.store.loginChanged(current, previous);
  }
  // GAPS: update a user: the members of `contact` sent change, the others stay (a null clears one).
  if (body.contact !== undefined) current.contact = { ...current.contact, ...body.contact };
  if (body.enabled !== undefined) current.enabled = body.enabled;
  if (body.language !== undefined) current.language = body.language;
  if (body.notifications !== undefined) current.notifications = body.notifications;
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

function putPolicies(ctx: RequestContext<z.output<typeof AccessPolicySet>>): Reply {
  const user = userOr404(ctx);
  const current = ctx.store.world.accessPolicies[user.id] ?? [];
  const next: AccessPolicy[] = ctx.body.items.map((raw, i) => {
    const at = `items[${i}]`;
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
  withBody({ method: 'POST', pattern: `${PREFIX}/users`, scopes: ADMIN_TENANTS, body: UserCreate, handler: createUser }),
  { method: 'GET', pattern: `${PREFIX}/users/:id`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, userOr404(ctx)) },
  withBody({ method: 'PUT', pattern: `${PREFIX}/users/:id`, scopes: ADMIN_TENANTS, body: UserUpdate, handler: updateUser }),
  { method: 'DELETE', pattern: `${PREFIX}/users/:id`, scopes: ADMIN_TENANTS, handler: deleteUser },
  { method: 'POST', pattern: `${PREFIX}/users/:id/send-activation-email`, scopes: ADMIN_TENANTS, handler: sendActivation },
  {
    method: 'GET',
    pattern: `${PREFIX}/users/:id/access_policies`,
    scopes: VIEW_TENANTS,
    handler: (ctx) => renderPolicies(ctx.store.world.accessPolicies[userOr404(ctx).id] ?? []),
  },
  withBody({ method: 'PUT', pattern: `${PREFIX}/users/:id/access_policies`, scopes: ADMIN_TENANTS, body: AccessPolicySet, handler: putPolicies }),
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
