/** What the account management areas share: scopes, path prefix, lookups and version checks. */
import { accountBadRequest, accountConflict, accountError, accountNotFound, tenantNotFound } from '../errors';
import { isObject, type RequestContext } from '../router';
import type { Tenant } from '../store';
import { SPOKEN_INTERFACES } from '../../api/interfaces';

const AS = (role: string): string => `urn:vendor::account-server::${role}`;

// spec 01 endpoint tables; platform-interface: endpoint scopes
export const VIEW_TENANTS = [AS('tenant_viewer'), AS('tenant_admin')];
export const ADMIN_TENANTS = [AS('tenant_admin')];
export const VIEW_INFRA = ['root_admin', 'partner_admin', 'company_admin', 'unit_admin', 'readonly_admin', 'tenant_viewer'].map(AS);
export const ADMIN_INFRA = ['root_admin', 'partner_admin'].map(AS);
export const VIEW_REPORTS = ['root_admin', 'partner_admin', 'company_admin', 'unit_admin', 'readonly_admin'].map(AS);
export const ADMIN_REPORTS = ['root_admin', 'partner_admin', 'company_admin', 'unit_admin'].map(AS);

export const PREFIX = SPOKEN_INTERFACES.account_management.prefix;

/** platform-interface: caller's subtree. A tenant the caller may see, else 404 1104. */
export function visibleTenant(ctx: RequestContext, id: string): Tenant {
  const t = ctx.store.tenant(id);
  if (t === undefined || !ctx.store.isInSubtree(t.id, ctx.caller.tenantId)) throw tenantNotFound(id);
  return t;
}

export function applicationOr404(ctx: RequestContext, id: string) {
  const app = ctx.store.application(id);
  // platform-interface: not found codes (application_not_found with context.id)
  if (app === undefined) throw accountNotFound('application_not_found', 'Application', id);
  return app;
}

/** Canonical JSON: equal values give equal text whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v)) {
    return `{${Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export const sameValue = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

export function requireVersion(raw: unknown, field = 'version'): number {
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw accountBadRequest(field, 'must be the current version (an integer >= 1)');
  return n;
}

export function staleVersion(kind: string, id: string, sent: number, current: number) {
  return accountConflict(`${kind} ${id} is at version ${current}, the request was made for version ${sent}`, {
    id,
    version: current,
    requested_version: sent,
  });
}

/** The `version` query parameter of a versioned DELETE, required. */
export function queryVersion(ctx: RequestContext): number {
  const raw = ctx.query.get('version');
  if (raw === null) throw accountBadRequest('version', 'is required');
  return requireVersion(raw);
}

export function parseLimit(raw: string | null, fallback: number): number {
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw accountBadRequest('limit', 'must be an integer >= 1');
  return n;
}

/** GAPS: the platform's error codes (1001 version mismatch, 1004 name taken, 1006 delete of an enabled object...). */
export function codedConflict(code: number, message: string, context: Record<string, unknown>) {
  return accountError(409, code, message, { context, info: 'conflict' });
}

/** A stale `version`: 409 with code 1001, both versions in the context. */
export function versionMismatch(what: string, id: string, sent: number, current: number) {
  return codedConflict(1001, `${what} ${id} is at version ${current}, the request was made for version ${sent}`, {
    id,
    version: current,
    requested_version: sent,
  });
}

export const nowIso = (): string => new Date().toISOString();
