/** Applications, their bindings to tenants, and tenant settings inherited down the tree. */
import { z } from 'zod';
import { bool, closed } from '../body';
import { accountConflict, accountError } from '../errors';
import { json, noContent, withBody, type Reply, type RequestContext, type Route } from '../router';
import type { OwnSetting, Store, Tenant } from '../store';
import { ADMIN_TENANTS, applicationOr404, PREFIX, VIEW_TENANTS, visibleTenant } from './common';

function hasApplication(store: Store, tenant: Tenant, appId: string): boolean {
  // GAPS: enabling under a parent that lacks the application (the root has every application)
  if (tenant.parent_id === null) return true;
  return (store.world.bindings[tenant.id] ?? []).includes(appId);
}

/**
 * GAPS "Which applications a tenant has on": its bindings; or, in the reference's reading, the
 * applications available to it (what its parent has, and its own).
 */
function tenantApplications(store: Store, tenant: Tenant): string[] {
  const own = store.world.bindings[tenant.id] ?? [];
  if (store.tenantApplications === 'on') return [...own];
  const parent = tenant.parent_id === null ? undefined : store.tenant(tenant.parent_id);
  const available = store.world.applications.map((a) => a.id).filter((id) => parent === undefined || hasApplication(store, parent, id));
  return [...new Set([...own, ...available])];
}

function enableApplication(ctx: RequestContext): Reply {
  const app = applicationOr404(ctx, ctx.params.app);
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const bound = (ctx.store.world.bindings[tenant.id] ??= []);
  // platform-interface: binding (POST of an existing binding answers 204)
  if (bound.includes(app.id)) return noContent();
  const parent = tenant.parent_id === null ? undefined : ctx.store.tenant(tenant.parent_id);
  if (parent !== undefined && !hasApplication(ctx.store, parent, app.id)) {
    // GAPS: enabling under a parent that lacks the application
    throw accountConflict(`The parent tenant ${parent.id} does not have the application ${app.type}; enable it there first`, {
      application_id: app.id,
      tenant_id: tenant.id,
      parent_id: parent.id,
    });
  }
  bound.push(app.id);
  ctx.store.save();
  return noContent();
}

function disableApplication(ctx: RequestContext): Reply {
  const app = applicationOr404(ctx, ctx.params.app);
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const bound = ctx.store.world.bindings[tenant.id] ?? [];
  if (!bound.includes(app.id)) {
    // platform-interface: binding (DELETE of a missing binding answers 404 binding_not_found)
    throw accountError(404, 'binding_not_found', `Application ${app.type} is not enabled for tenant ${tenant.id}`, {
      context: { application_id: app.id, tenant_id: tenant.id },
    });
  }
  const childWithApp = ctx.store.children(tenant.id).find((c) => (ctx.store.world.bindings[c.id] ?? []).includes(app.id));
  if (childWithApp !== undefined) {
    // platform-interface: binding (a child that still has the application answers 409)
    throw accountConflict(`The child tenant ${childWithApp.id} still has the application ${app.type}; disable it there first`, {
      application_id: app.id,
      tenant_id: tenant.id,
      child_id: childWithApp.id,
    });
  }
  ctx.store.world.bindings[tenant.id] = bound.filter((id) => id !== app.id);
  ctx.store.save();
  return noContent();
}

// ---------------------------------------------------------------- settings (inherited down the tree)

interface SettingView {
  name: string;
  application_id: string;
  own: { value: unknown; lock: boolean; exclusive: boolean } | null;
  effective: { owner: { type: 'tenant'; id: string }; value: unknown; lock: boolean } | null;
}

function ownSetting(store: Store, appId: string, tenantId: string, name: string): OwnSetting | undefined {
  return store.ownSetting(appId, tenantId, name);
}

/**
 * The value an ancestor imposes: the topmost locked value on the path above the tenant.
 * An exclusive value never reaches the owner's children, so neither does its lock.
 */
function lockedAbove(store: Store, appId: string, tenant: Tenant, name: string): OwnSetting | undefined {
  const ancestors = store.pathUp(tenant.id).slice(1);
  let found: OwnSetting | undefined;
  for (const a of ancestors) {
    const s = ownSetting(store, appId, a.id, name);
    if (s !== undefined && !s.exclusive && s.lock) found = s; // keep walking: the topmost lock wins
  }
  return found;
}

/** spec 01: effective = the nearest own value walking up, skipping ancestors' exclusive values; a lock above wins. */
function resolveSetting(store: Store, appId: string, tenant: Tenant, name: string): SettingView | undefined {
  const own = ownSetting(store, appId, tenant.id, name);
  const path = store.pathUp(tenant.id);
  const anyOnPath = path.some((t) => ownSetting(store, appId, t.id, name) !== undefined);
  // platform-interface: setting read (404 setting_not_found when nobody on the path set it)
  if (!anyOnPath) return undefined;
  let source: OwnSetting | undefined = lockedAbove(store, appId, tenant, name);
  if (source === undefined) source = own;
  if (source === undefined) {
    for (const a of path.slice(1)) {
      const s = ownSetting(store, appId, a.id, name);
      if (s !== undefined && !s.exclusive) {
        source = s;
        break;
      }
    }
  }
  return {
    name,
    application_id: appId,
    own: own === undefined ? null : { value: own.value, lock: own.lock, exclusive: own.exclusive },
    effective: source === undefined ? null : { owner: { type: 'tenant', id: source.tenant_id }, value: source.value, lock: source.lock },
  };
}

function settingNotFound(appId: string, tenantId: string, name: string) {
  return accountError(404, 'setting_not_found', `Setting ${name} is not set for tenant ${tenantId}`, {
    context: { application_id: appId, tenant_id: tenantId, name },
  });
}

function getSetting(ctx: RequestContext): Reply {
  const app = applicationOr404(ctx, ctx.params.app);
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const name = ctx.params.name;
  const view = resolveSetting(ctx.store, app.id, tenant, name);
  if (view === undefined) throw settingNotFound(app.id, tenant.id, name);
  return json(200, view);
}

// platform-interface: setting write (`value` is required and may be any JSON, null included)
const SettingWrite = closed(
  { value: z.unknown().refine((v) => v !== undefined, 'is required'), lock: bool().optional(), exclusive: bool().optional() },
  'a setting',
  'must be an object {value, lock, exclusive}',
);

function putSetting(ctx: RequestContext<z.output<typeof SettingWrite>>): Reply {
  const app = applicationOr404(ctx, ctx.params.app);
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const name = ctx.params.name;
  const body = ctx.body;
  const locked = lockedAbove(ctx.store, app.id, tenant, name);
  if (locked !== undefined) {
    // GAPS: overriding a setting locked above
    throw accountConflict(`Setting ${name} is locked by tenant ${locked.tenant_id}`, { owner_id: locked.tenant_id, name });
  }
  const next: OwnSetting = {
    application_id: app.id,
    tenant_id: tenant.id,
    name,
    value: body.value,
    lock: body.lock === true,
    exclusive: body.exclusive === true,
  };
  ctx.store.putSetting(next);
  ctx.store.save();
  return json(200, resolveSetting(ctx.store, app.id, tenant, name));
}

function deleteSetting(ctx: RequestContext): Reply {
  const app = applicationOr404(ctx, ctx.params.app);
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  const name = ctx.params.name;
  const own = ctx.store.ownSetting(app.id, tenant.id, name);
  if (own === undefined) throw settingNotFound(app.id, tenant.id, name);
  ctx.store.deleteSetting(own);
  ctx.store.save();
  return noContent();
}

export const applicationRoutes: Route[] = [
  { method: 'GET', pattern: `${PREFIX}/applications`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, { items: ctx.store.world.applications }) },
  { method: 'GET', pattern: `${PREFIX}/applications/:id`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, applicationOr404(ctx, ctx.params.id)) },
  { method: 'POST', pattern: `${PREFIX}/applications/:app/bindings/tenants/:tenant`, scopes: ADMIN_TENANTS, handler: enableApplication },
  { method: 'DELETE', pattern: `${PREFIX}/applications/:app/bindings/tenants/:tenant`, scopes: ADMIN_TENANTS, handler: disableApplication },
  { method: 'GET', pattern: `${PREFIX}/applications/:app/settings/tenants/:tenant/:name`, scopes: VIEW_TENANTS, handler: getSetting },
  withBody({
    method: 'PUT',
    pattern: `${PREFIX}/applications/:app/settings/tenants/:tenant/:name`,
    scopes: ADMIN_TENANTS,
    body: SettingWrite,
    handler: putSetting,
  }),
  { method: 'DELETE', pattern: `${PREFIX}/applications/:app/settings/tenants/:tenant/:name`, scopes: ADMIN_TENANTS, handler: deleteSetting },
  {
    method: 'GET',
    pattern: `${PREFIX}/tenants/:tenant/applications`,
    scopes: VIEW_TENANTS,
    handler: (ctx) => json(200, { items: tenantApplications(ctx.store, visibleTenant(ctx, ctx.params.tenant)) }),
  },
];
