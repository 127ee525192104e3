/**
 * Alert interface (`/api/alert_manager/v1`): custom alert types, raising alerts and listing them.
 * tenantform raises an alert when drift is found.
 */
import { alertError } from './errors';
import { isObject, json, noContent, queryList, type InterfaceRoutes, type Reply, type RequestContext } from './router';
import type { Alert, AlertType } from './store';

const ADMIN = ['urn:vendor::alert_manager::admin'];
const VIEWER = ['urn:vendor::alert_manager::viewer', 'urn:vendor::alert_manager::admin'];

const PREFIX = '/api/alert_manager/v1';
const SEVERITIES = ['ok', 'information', 'warning', 'error', 'critical'];

const badRequest = (message: string, context: Record<string, unknown> = {}) => alertError(400, 'badRequest', message, context);

function registerTypes(ctx: RequestContext): Reply {
  const body = ctx.body;
  // GAPS: registering a custom alert type ({items: [{id, severity, enabled, category, ...}]} -> 204)
  if (!isObject(body) || !Array.isArray(body.items)) throw badRequest('body must be {items: [alert type, ...]}');
  const types = body.items.map((raw, i): AlertType => {
    if (!isObject(raw)) throw badRequest(`items[${i}] must be an object`);
    if (typeof raw.id !== 'string' || raw.id === '') throw badRequest(`items[${i}].id is required`);
    if (raw.severity !== undefined && (typeof raw.severity !== 'string' || !SEVERITIES.includes(raw.severity))) {
      throw badRequest(`items[${i}].severity must be one of ${SEVERITIES.join(', ')}`);
    }
    if (raw.enabled !== undefined && typeof raw.enabled !== 'boolean') throw badRequest(`items[${i}].enabled must be a boolean`);
    if (raw.category !== undefined && typeof raw.category !== 'string') throw badRequest(`items[${i}].category must be a string`);
    return { ...structuredClone(raw), id: raw.id, enabled: raw.enabled !== false, category: (raw.category as string | undefined) ?? 'custom' };
  });
  for (const t of types) ctx.store.world.alertTypes[t.id] = t;
  ctx.store.save();
  return noContent();
}

function getType(ctx: RequestContext): Reply {
  const id = ctx.params.id as string;
  const type = ctx.store.world.alertTypes[id];
  if (type === undefined) throw alertError(404, 'UnknownAlertType', `Alert type ${id} is not registered`, { type: id });
  return json(200, type);
}

function raiseAlert(ctx: RequestContext): Reply {
  const body = ctx.body;
  if (!isObject(body)) throw badRequest('body must be an alert object');
  const typeId = body.type;
  const type = typeof typeId === 'string' ? ctx.store.world.alertTypes[typeId] : undefined;
  // GAPS: custom alert (400 InvalidContext for a type that is not registered); spec 03: context.missing and context.type
  if (type === undefined) throw alertError(400, 'InvalidContext', `Alert type ${String(typeId)} is not registered`, { type: typeId ?? null, missing: ['type'] });
  const tenantId = body.tenantID;
  const tenant = typeof tenantId === 'string' ? ctx.store.tenant(tenantId) : undefined;
  if (tenant === undefined || !ctx.store.isInSubtree(tenant.id, ctx.caller.tenantId)) {
    throw alertError(400, 'InvalidContext', `tenantID ${String(tenantId)} is not a tenant you can see`, { type: type.id, missing: ['tenantID'] });
  }
  const severity = body.severity ?? type.severity;
  if (typeof severity !== 'string' || !SEVERITIES.includes(severity)) {
    throw alertError(400, 'InvalidContext', `severity must be one of ${SEVERITIES.join(', ')}`, { type: type.id, missing: ['severity'] });
  }
  if (body.details !== undefined && !isObject(body.details)) throw badRequest('details must be an object', { type: type.id });
  const now = new Date().toISOString();
  const alert: Alert = {
    id: ctx.store.newId(),
    type: type.id,
    category: type.category,
    severity,
    tenant: { id: tenant.id, locator: `/${ctx.store.pathUp(tenant.id).reverse().map((t) => t.id).join('/')}/` },
    createdAt: typeof body.createdAt === 'string' ? body.createdAt : now,
    updatedAt: now,
    receivedAt: now,
    details: structuredClone((body.details as Record<string, unknown> | undefined) ?? {}),
  };
  if (typeof body._source === 'string') alert._source = body._source;
  if (typeof body._sourceTimeStamp === 'number') alert._sourceTimeStamp = body._sourceTimeStamp;
  ctx.store.world.alerts.push(alert);
  ctx.store.save();
  return json(200, { id: alert.id });
}

/** The alerts in the caller's scope that the type, tenant and id filters select (spec 03 "Alert filters"). */
function matching(ctx: RequestContext, opts: { deleted: boolean }): Alert[] {
  const types = queryList(ctx.query, 'type');
  const tenants = queryList(ctx.query, 'tenant');
  const ids = queryList(ctx.query, 'id').map((id) => id.toLowerCase());
  return ctx.store.world.alerts
    .filter((a) => ctx.store.isInSubtree(a.tenant.id, ctx.caller.tenantId))
    .filter((a) => opts.deleted || a.deletedAt === undefined)
    .filter((a) => types.length === 0 || types.includes(a.type))
    .filter((a) => tenants.length === 0 || tenants.includes(a.tenant.id))
    .filter((a) => ids.length === 0 || ids.includes(a.id.toLowerCase()));
}

/** Spec 03: DELETE /alerts dismisses the matching alerts (no filter: all in scope). */
function dismissAlerts(ctx: RequestContext): Reply {
  const now = new Date().toISOString();
  for (const a of matching(ctx, { deleted: false })) {
    a.deletedAt = now;
    a.updatedAt = now;
  }
  ctx.store.save();
  return noContent();
}

function listAlerts(ctx: RequestContext): Reply {
  const rawLimit = ctx.query.get('limit');
  const limit = rawLimit === null ? undefined : Number(rawLimit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw badRequest('limit must be an integer >= 1');
  // Dismissed alerts are listed only with show_deleted.
  const items = matching(ctx, { deleted: ctx.query.get('show_deleted') === 'true' }).slice(0, limit);
  // platform-interface: alert types (paging.cursors is {})
  return json(200, { items, paging: { cursors: {} } });
}

export const alertRoutes: InterfaceRoutes = {
  name: 'alert',
  prefix: `${PREFIX}/`,
  routes: [
    { method: 'POST', pattern: `${PREFIX}/types`, scopes: ADMIN, jsonBody: true, handler: registerTypes },
    { method: 'GET', pattern: `${PREFIX}/types/:id`, scopes: VIEWER, handler: getType },
    { method: 'POST', pattern: `${PREFIX}/alerts`, scopes: ADMIN, jsonBody: true, handler: raiseAlert },
    { method: 'GET', pattern: `${PREFIX}/alerts`, scopes: VIEWER, handler: listAlerts },
    { method: 'DELETE', pattern: `${PREFIX}/alerts`, scopes: ADMIN, handler: dismissAlerts },
  ],
};
