/**
 * Alert interface (`/api/alert_manager/v1`): custom alert types, raising alerts and listing them.
 * tenantform raises an alert when drift is found.
 */
import { alertError } from './errors';
import { SPOKEN_INTERFACES } from '../api/interfaces';
import { z } from 'zod';
import { bool, list, oneOf, problem, record, text } from './body';
import { decodeCursor, encodeCursor, json, noContent, queryList, withBody, type InterfaceRoutes, type Reply, type RequestContext } from './router';
import type { Alert, AlertType } from './store';

const ADMIN = ['urn:vendor::alert_manager::admin'];
const VIEWER = ['urn:vendor::alert_manager::viewer', 'urn:vendor::alert_manager::admin'];

const PREFIX = SPOKEN_INTERFACES.alert_manager.prefix;
const SEVERITIES: [string, ...string[]] = ['ok', 'information', 'warning', 'error', 'critical'];

const badRequest = (message: string, context: Record<string, unknown> = {}) => alertError(400, 'badRequest', message, context);

const names = () => list(text(), 'is required (a list of strings)');

// GAPS: registering a custom alert type ({items: [{id, severity, enabled, category, ...}]} -> 204)
const TypeRegistration = z.object(
  {
    items: list(
      z.looseObject(
        {
          id: text().min(1, 'is required'),
          severity: oneOf(SEVERITIES).optional(),
          enabled: bool().optional(),
          category: text().optional(),
          // The reference requires these three lists on every type.
          contextKeys: names(),
          searchableDetails: names(),
          supportedOS: names(),
        },
        problem('must be an object'),
      ),
    ),
  },
  problem('must be {items: [alert type, ...]}'),
);

/** What is checked by its meaning (the codes of spec 03 and GAPS: custom alert) is read, not refused, here. */
const AlertRaise = z.looseObject(
  { type: z.unknown().optional(), tenantID: z.unknown().optional(), severity: z.unknown().optional(), details: record().optional() },
  problem('must be an alert object'),
);

function registerTypes(ctx: RequestContext<z.output<typeof TypeRegistration>>): Reply {
  const types = ctx.body.items.map((raw): AlertType => ({ ...raw, enabled: raw.enabled !== false, category: raw.category ?? 'custom' }));
  for (const t of types) ctx.store.world.alertTypes[t.id] = t;
  ctx.store.save();
  return noContent();
}

function getType(ctx: RequestContext): Reply {
  const id = ctx.params.id;
  const type = ctx.store.world.alertTypes[id];
  if (type === undefined) throw alertError(404, 'UnknownAlertType', `Alert type ${id} is not registered`, { type: id });
  return json(200, type);
}

/** `GET /types`: the registered types, none of the reference's filters implemented (each refused by name). */
function listTypes(ctx: RequestContext): Reply {
  for (const name of new Set(ctx.query.keys()))
    throw badRequest(`the ${name} parameter of the types listing is not implemented by the emulator`, { parameter: name });
  return json(200, { items: Object.values(ctx.store.world.alertTypes) });
}

function getAlert(ctx: RequestContext): Reply {
  const id = ctx.params.id.toLowerCase();
  const alert = ctx.store.world.alerts.find((a) => a.id.toLowerCase() === id && ctx.store.isInSubtree(a.tenant.id, ctx.caller.tenantId));
  if (alert === undefined) throw alertError(404, 'NotFound', `Alert ${id} does not exist`, { id });
  return json(200, alert);
}

function raiseAlert(ctx: RequestContext<z.output<typeof AlertRaise>>): Reply {
  const body = ctx.body;
  const typeId = body.type;
  const type = typeof typeId === 'string' ? ctx.store.world.alertTypes[typeId] : undefined;
  // GAPS: custom alert (400 InvalidContext for a type that is not registered); spec 03: context.missing and context.type
  if (type === undefined)
    throw alertError(400, 'InvalidContext', `Alert type ${String(typeId)} is not registered`, { type: typeId ?? null, missing: ['type'] });
  const tenantId = body.tenantID;
  const tenant = typeof tenantId === 'string' ? ctx.store.tenant(tenantId) : undefined;
  if (tenant === undefined || !ctx.store.isInSubtree(tenant.id, ctx.caller.tenantId)) {
    throw alertError(400, 'InvalidContext', `tenantID ${String(tenantId)} is not a tenant you can see`, { type: type.id, missing: ['tenantID'] });
  }
  const severity = body.severity ?? type.severity;
  if (typeof severity !== 'string' || !SEVERITIES.includes(severity)) {
    throw alertError(400, 'InvalidContext', `severity must be one of ${SEVERITIES.join(', ')}`, { type: type.id, missing: ['severity'] });
  }
  const now = new Date().toISOString();
  const alert: Alert = {
    id: ctx.store.newId(),
    type: type.id,
    category: type.category,
    severity,
    tenant: {
      id: tenant.id,
      locator: `/${ctx.store
        .pathUp(tenant.id)
        .reverse()
        .map((t) => t.id)
        .join('/')}/`,
    },
    createdAt: typeof body.createdAt === 'string' ? body.createdAt : now,
    updatedAt: now,
    receivedAt: now,
    details: body.details ?? {},
  };
  if (typeof body._source === 'string') alert._source = body._source;
  if (typeof body._sourceTimeStamp === 'number') alert._sourceTimeStamp = body._sourceTimeStamp;
  ctx.store.world.alerts.push(alert);
  ctx.store.save();
  return json(200, { id: alert.id });
}

/** platform-interface: alerts paging (default page size). */
const PAGE_SIZE = 100;
const RANK = new Map(SEVERITIES.map((s, i) => [s, i]));

/** A filter value `v`, `eq(v)`, `lt(v)`, `gt(v)`, `le(v)`, `ge(v)` or `or(a,b)` (spec 3, alert filters). */
function operator(raw: string, param: string): { op: 'eq' | 'lt' | 'gt' | 'le' | 'ge' | 'or'; values: string[] } {
  const m = /^(eq|lt|gt|le|ge|or)\((.*)\)$/.exec(raw);
  if (!m) return { op: 'eq', values: [raw] };
  const values = m[2].split(',').map((v) => v.trim());
  if (values.some((v) => v === '') || (m[1] !== 'or' && values.length !== 1)) throw badRequest(`${param} has a malformed operator: ${raw}`);
  return { op: m[1] as 'eq', values };
}

function compares(op: string, cmp: number): boolean {
  return op === 'lt' ? cmp < 0 : op === 'gt' ? cmp > 0 : op === 'le' ? cmp <= 0 : op === 'ge' ? cmp >= 0 : cmp === 0;
}

function severityFilter(raw: string): (a: Alert) => boolean {
  const { op, values } = operator(raw, 'severity');
  for (const v of values) if (!RANK.has(v)) throw badRequest(`severity must be one of ${SEVERITIES.join(', ')}`);
  if (op === 'or') return (a) => values.includes(a.severity);
  return (a) => compares(op, (RANK.get(a.severity) ?? 0) - (RANK.get(values[0]) ?? 0));
}

/** Times are Unix timestamps in nanoseconds (spec 3). */
function timeFilter(raw: string, param: string, at: (a: Alert) => string | undefined): (a: Alert) => boolean {
  const { op, values } = operator(raw, param);
  if (op === 'or' || !/^\d+$/.test(values[0])) throw badRequest(`${param} must be a number of nanoseconds, or eq, lt, gt, le, ge of one`);
  const bound = BigInt(values[0]);
  return (a) => {
    const t = at(a);
    if (t === undefined) return false;
    const ns = BigInt(Date.parse(t)) * 1_000_000n;
    return compares(op, ns < bound ? -1 : ns > bound ? 1 : 0);
  };
}

function booleanParam(query: URLSearchParams, name: string): boolean {
  const raw = query.get(name);
  if (raw === null) return false;
  if (raw !== 'true' && raw !== 'false') throw badRequest(`${name} must be true or false`);
  return raw === 'true';
}

/** The cursor carries the filters (the query's text) and the position: a later page never mixes filters. */
const Cursor = z.object({ q: z.string(), o: z.number().int().min(0) });

function readCursor(raw: string): { query: URLSearchParams; offset: number } {
  const cursor = decodeCursor(raw, Cursor);
  if (cursor === undefined) throw badRequest('after is not a cursor of this listing');
  return { query: new URLSearchParams(cursor.q), offset: cursor.o };
}

/** The query parameters of `GET /alerts` the emulator implements; `after` is its cursor. */
const LISTING_PARAMETERS = [
  'after',
  'limit',
  'type',
  'tenant',
  'severity',
  'created_at',
  'updated_at',
  'deleted_at',
  'show_deleted',
  'show_deleted_only',
  'order',
];
/** The reference's other filters: refused by name, since a filter ignored would answer alerts the reader did not ask for. */
const UNIMPLEMENTED_FILTERS = ['skip', 'id', 'query', 'source', 'source_time_stamp', 'category', 'planId', 'resourceId', 'planName', 'resourceName'];

/** Refuses any query parameter but `known`: unimplemented filters by name, anything else as unknown. */
function onlyParameters(query: URLSearchParams, known: readonly string[]): void {
  for (const name of new Set(query.keys())) {
    if (known.includes(name)) continue;
    if (UNIMPLEMENTED_FILTERS.includes(name)) throw badRequest(`the ${name} filter is not implemented by the emulator`, { parameter: name });
    throw badRequest(`${name} is not a parameter of this listing`, { parameter: name });
  }
}

/** When an alert was last changed: raised, or dismissed (spec 03: `updated_at` filters on either). */
const updatedAt = (a: Alert) => a.deletedAt ?? a.updatedAt ?? a.createdAt;

/** The orderings the emulator implements: `p`, `asc(p)` or `desc(p)` of these (spec 03, `order`). */
const ORDER_KEYS: Readonly<Record<string, (a: Alert) => string | number>> = {
  created_at: (a) => Date.parse(a.createdAt),
  updated_at: (a) => Date.parse(updatedAt(a)),
  deleted_at: (a) => (a.deletedAt === undefined ? 0 : Date.parse(a.deletedAt)),
  severity: (a) => RANK.get(a.severity) ?? 0,
  type: (a) => a.type,
};

function ordering(raw: string | null): ((a: Alert, b: Alert) => number) | undefined {
  if (raw === null) return undefined;
  const m = /^(?:(asc|desc)\((\w+)\)|(\w+))$/.exec(raw);
  const key = m?.[2] ?? m?.[3];
  const by = key === undefined ? undefined : ORDER_KEYS[key];
  if (by === undefined) throw badRequest(`order must be p, asc(p) or desc(p) with p one of ${Object.keys(ORDER_KEYS).join(', ')}`, { parameter: 'order' });
  const sign = m?.[1] === 'desc' ? -1 : 1;
  return (a, b) => {
    const x = by(a);
    const y = by(b);
    return sign * (x < y ? -1 : x > y ? 1 : 0);
  };
}

function listAlerts(ctx: RequestContext): Reply {
  const after = ctx.query.get('after');
  if (after !== null && [...ctx.query.keys()].some((k) => k !== 'after' && k !== 'limit')) throw badRequest('after takes no other parameter than limit');
  const { query, offset } = after !== null ? readCursor(after) : { query: ctx.query, offset: 0 };
  onlyParameters(query, LISTING_PARAMETERS);
  const types = queryList(query, 'type');
  const tenants = queryList(query, 'tenant');
  const rawLimit = query.get('limit');
  const limit = rawLimit === null ? PAGE_SIZE : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1) throw badRequest('limit must be an integer >= 1');
  const filters: Array<(a: Alert) => boolean> = [
    (a) => ctx.store.isInSubtree(a.tenant.id, ctx.caller.tenantId),
    (a) => types.length === 0 || types.includes(a.type),
    (a) => tenants.length === 0 || tenants.includes(a.tenant.id),
  ];
  const severity = query.get('severity');
  if (severity !== null) filters.push(severityFilter(severity));
  const createdAt = query.get('created_at');
  if (createdAt !== null) filters.push(timeFilter(createdAt, 'created_at', (a) => a.createdAt));
  const changedAt = query.get('updated_at');
  if (changedAt !== null) filters.push(timeFilter(changedAt, 'updated_at', updatedAt));
  const dismissedAt = query.get('deleted_at');
  if (dismissedAt !== null) filters.push(timeFilter(dismissedAt, 'deleted_at', (a) => a.deletedAt));
  const deletedOnly = booleanParam(query, 'show_deleted_only');
  const withDeleted = booleanParam(query, 'show_deleted');
  filters.push((a) => (deletedOnly ? a.deletedAt !== undefined : withDeleted || a.deletedAt === undefined));
  const all = ctx.store.world.alerts.filter((a) => filters.every((f) => f(a)));
  const order = ordering(query.get('order'));
  // A stable sort: alerts equal in the order keep the oldest first.
  if (order) all.sort(order);
  const items = all.slice(offset, offset + limit);
  const next = offset + limit < all.length ? encodeCursor({ q: query.toString(), o: offset + limit } satisfies z.input<typeof Cursor>) : undefined;
  // platform-interface: alerts paging (`after` absent on the last page)
  return json(200, { items, paging: { cursors: next ? { after: next } : {} } });
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

export const alertRoutes: InterfaceRoutes = {
  name: 'alert',
  prefix: `${PREFIX}/`,
  routes: [
    withBody({ method: 'POST', pattern: `${PREFIX}/types`, scopes: ADMIN, body: TypeRegistration, handler: registerTypes }),
    { method: 'GET', pattern: `${PREFIX}/types`, scopes: VIEWER, handler: listTypes },
    { method: 'GET', pattern: `${PREFIX}/types/:id`, scopes: VIEWER, handler: getType },
    { method: 'GET', pattern: `${PREFIX}/alerts/:id`, scopes: VIEWER, handler: getAlert },
    withBody({ method: 'POST', pattern: `${PREFIX}/alerts`, scopes: ADMIN, body: AlertRaise, handler: raiseAlert }),
    { method: 'GET', pattern: `${PREFIX}/alerts`, scopes: VIEWER, handler: listAlerts },
    { method: 'DELETE', pattern: `${PREFIX}/alerts`, scopes: ADMIN, handler: dismissAlerts },
  ],
};
