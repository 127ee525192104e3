/**
 * Account management interface (`/api/2`): applications and bindings, inherited tenant settings,
 * infrastructure components, usage report configurations, tenants and search.
 */
import {
  accountBadRequest,
  accountConflict,
  accountError,
  accountNotFound,
  tenantNotFound,
} from './errors';
import {
  decodeCursor,
  encodeCursor,
  isObject,
  json,
  noContent,
  queryList,
  UUID_RE,
  type InterfaceRoutes,
  type Reply,
  type RequestContext,
} from './router';
import type { InfraComponent, OwnSetting, ReportConfig, Store, Tenant } from './store';

const AS = (role: string): string => `urn:vendor::account-server::${role}`;

// spec 01 endpoint tables; platform-interface: endpoint scopes
const VIEW_TENANTS = [AS('tenant_viewer'), AS('tenant_admin')];
const ADMIN_TENANTS = [AS('tenant_admin')];
const VIEW_INFRA = ['root_admin', 'partner_admin', 'company_admin', 'unit_admin', 'readonly_admin', 'tenant_viewer'].map(AS);
const ADMIN_INFRA = ['root_admin', 'partner_admin'].map(AS);
const VIEW_REPORTS = ['root_admin', 'partner_admin', 'company_admin', 'unit_admin', 'readonly_admin'].map(AS);
const ADMIN_REPORTS = ['root_admin', 'partner_admin', 'company_admin', 'unit_admin'].map(AS);

const PREFIX = '/api/2';

// ---------------------------------------------------------------- shared lookups

/** platform-interface: caller's subtree. A tenant the caller may see, else 404 1104. */
function visibleTenant(ctx: RequestContext, id: string): Tenant {
  const t = ctx.store.tenant(id);
  if (t === undefined || !ctx.store.isInSubtree(t.id, ctx.caller.tenantId)) throw tenantNotFound(id);
  return t;
}

function applicationOr404(ctx: RequestContext, id: string) {
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

const sameValue = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

// ---------------------------------------------------------------- applications and bindings

function hasApplication(store: Store, tenant: Tenant, appId: string): boolean {
  // GAPS: enabling under a parent that lacks the application (the root has every application)
  if (tenant.parent_id === null) return true;
  return (store.world.bindings[tenant.id] ?? []).includes(appId);
}

function enableApplication(ctx: RequestContext): Reply {
  const app = applicationOr404(ctx, ctx.params.app as string);
  const tenant = visibleTenant(ctx, ctx.params.tenant as string);
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
  const app = applicationOr404(ctx, ctx.params.app as string);
  const tenant = visibleTenant(ctx, ctx.params.tenant as string);
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
  return store.world.settings.find((s) => s.application_id === appId && s.tenant_id === tenantId && s.name === name);
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
  const app = applicationOr404(ctx, ctx.params.app as string);
  const tenant = visibleTenant(ctx, ctx.params.tenant as string);
  const name = ctx.params.name as string;
  const view = resolveSetting(ctx.store, app.id, tenant, name);
  if (view === undefined) throw settingNotFound(app.id, tenant.id, name);
  return json(200, view);
}

function listSettings(ctx: RequestContext): Reply {
  const app = applicationOr404(ctx, ctx.params.app as string);
  const tenant = visibleTenant(ctx, ctx.params.tenant as string);
  const onPath = new Set(ctx.store.pathUp(tenant.id).map((t) => t.id));
  const names = [
    ...new Set(ctx.store.world.settings.filter((s) => s.application_id === app.id && onPath.has(s.tenant_id)).map((s) => s.name)),
  ].sort();
  // GAPS: list all settings of an application for a tenant
  return json(200, { settings: names.map((n) => resolveSetting(ctx.store, app.id, tenant, n)) });
}

function putSetting(ctx: RequestContext): Reply {
  const app = applicationOr404(ctx, ctx.params.app as string);
  const tenant = visibleTenant(ctx, ctx.params.tenant as string);
  const name = ctx.params.name as string;
  const body = ctx.body;
  // platform-interface: setting write
  if (!isObject(body)) throw accountBadRequest('body', 'must be an object {value, lock, exclusive}');
  if (!('value' in body)) throw accountBadRequest('value', 'is required');
  for (const k of Object.keys(body)) {
    if (!['value', 'lock', 'exclusive'].includes(k)) throw accountBadRequest(k, 'is not a setting field');
  }
  for (const k of ['lock', 'exclusive'] as const) {
    if (body[k] !== undefined && typeof body[k] !== 'boolean') throw accountBadRequest(k, 'must be a boolean');
  }
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
  const settings = ctx.store.world.settings;
  const i = settings.findIndex((s) => s.application_id === app.id && s.tenant_id === tenant.id && s.name === name);
  if (i >= 0) settings[i] = next;
  else settings.push(next);
  ctx.store.save();
  return json(200, resolveSetting(ctx.store, app.id, tenant, name));
}

function deleteSetting(ctx: RequestContext): Reply {
  const app = applicationOr404(ctx, ctx.params.app as string);
  const tenant = visibleTenant(ctx, ctx.params.tenant as string);
  const name = ctx.params.name as string;
  const settings = ctx.store.world.settings;
  const i = settings.findIndex((s) => s.application_id === app.id && s.tenant_id === tenant.id && s.name === name);
  if (i < 0) throw settingNotFound(app.id, tenant.id, name);
  settings.splice(i, 1);
  ctx.store.save();
  return noContent();
}

// ---------------------------------------------------------------- infrastructure components

const URL_RE = /^[a-z][a-z0-9+]*:\/\/\S/;
const CAPABILITIES = ['backup', 'disaster_recovery', 'files_cloud', 'vcd'];

/** Checks the writable fields that are present; `required` lists those that must be. */
function checkInfraFields(body: Record<string, unknown>, required: string[]): void {
  for (const f of required) {
    if (body[f] === undefined || body[f] === null) throw accountBadRequest(f, 'is required');
  }
  for (const f of ['owner_tenant_id', 'location_id']) {
    if (body[f] !== undefined && body[f] !== null && (typeof body[f] !== 'string' || !UUID_RE.test(body[f] as string))) throw accountBadRequest(f, 'must be a uuid');
  }
  if (body.name !== undefined && (typeof body.name !== 'string' || body.name.trim() === '')) throw accountBadRequest('name', 'must be a non-empty string');
  if (body.url !== undefined && (typeof body.url !== 'string' || !URL_RE.test(body.url))) {
    throw accountBadRequest('url', 'must start with a lowercase scheme followed by :// and an address');
  }
  for (const f of ['content_url', 'content_mobile_url']) {
    const v = body[f];
    if (v !== undefined && v !== null && (typeof v !== 'string' || !URL_RE.test(v))) {
      throw accountBadRequest(f, 'must start with a lowercase scheme followed by :// and an address');
    }
  }
  if (body.capabilities !== undefined) {
    if (!Array.isArray(body.capabilities)) throw accountBadRequest('capabilities', 'must be an array');
    body.capabilities.forEach((c, i) => {
      if (typeof c !== 'string' || !CAPABILITIES.includes(c)) throw accountBadRequest(`capabilities[${i}]`, `must be one of ${CAPABILITIES.join(', ')}`);
    });
  }
}

function infraOr404(ctx: RequestContext, id: string): InfraComponent {
  const c = ctx.store.world.infra[id];
  // platform-interface: not found codes (infra_not_found)
  if (c === undefined || !ctx.store.isInSubtree(c.owner_tenant_id, ctx.caller.tenantId)) {
    throw accountNotFound('infra_not_found', 'Infrastructure component', id);
  }
  return c;
}

function getInfra(ctx: RequestContext): Reply {
  const ids = queryList(ctx.query, 'uuids');
  if (ids.length === 0) throw accountBadRequest('uuids', 'is required');
  return json(200, { items: ids.map((id) => infraOr404(ctx, id)) });
}

function createInfra(ctx: RequestContext): Reply {
  const body = ctx.body;
  if (!isObject(body)) throw accountBadRequest('body', 'must be an object');
  // platform-interface: infra location (optional on create)
  checkInfraFields(body, ['owner_tenant_id', 'name', 'url']);
  const owner = visibleTenant(ctx, body.owner_tenant_id as string);
  const component: InfraComponent = {
    id: ctx.store.newId(),
    owner_tenant_id: owner.id,
    location_id: (body.location_id as string | null | undefined) ?? null,
    name: body.name as string,
    url: body.url as string,
    capabilities: [...((body.capabilities as string[] | undefined) ?? [])],
    content_url: (body.content_url as string | null | undefined) ?? null,
    content_mobile_url: (body.content_mobile_url as string | null | undefined) ?? null,
    backend_type: body.backend_type ?? null, // GAPS: backend_type values (any string or null)
    platform_owned: false,
    version: 1,
    readonly: false,
  };
  ctx.store.world.infra[component.id] = component;
  ctx.store.save();
  return json(201, component);
}

function requireVersion(raw: unknown, field = 'version'): number {
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) throw accountBadRequest(field, 'must be the current version (an integer >= 1)');
  return n;
}

function staleVersion(kind: string, id: string, sent: number, current: number) {
  return accountConflict(`${kind} ${id} is at version ${current}, the request was made for version ${sent}`, {
    id,
    version: current,
    requested_version: sent,
  });
}

function updateInfra(ctx: RequestContext): Reply {
  const current = infraOr404(ctx, ctx.params.id as string);
  const body = ctx.body;
  if (!isObject(body)) throw accountBadRequest('body', 'must be an object');
  // GAPS: infrastructure component update (the current version is required in the body)
  const version = requireVersion(body.version);
  checkInfraFields(body, []);
  if (body.owner_tenant_id !== undefined && body.owner_tenant_id !== current.owner_tenant_id) {
    throw accountBadRequest('owner_tenant_id', 'cannot change; register a new component instead');
  }
  if (version !== current.version) throw staleVersion('Infrastructure component', current.id, version, current.version);
  // platform-interface: partial updates
  const next: InfraComponent = { ...current, version: current.version + 1 };
  if (body.name !== undefined) next.name = body.name as string;
  if (body.location_id !== undefined) next.location_id = body.location_id as string | null;
  if (body.url !== undefined) next.url = body.url as string;
  if (body.capabilities !== undefined) next.capabilities = [...(body.capabilities as string[])];
  if (body.content_url !== undefined) next.content_url = body.content_url as string | null;
  if (body.content_mobile_url !== undefined) next.content_mobile_url = body.content_mobile_url as string | null;
  if ('backend_type' in body) next.backend_type = body.backend_type;
  ctx.store.world.infra[current.id] = next;
  ctx.store.save();
  return json(200, next);
}

function deleteInfra(ctx: RequestContext): Reply {
  const current = infraOr404(ctx, ctx.params.id as string);
  const raw = ctx.query.get('version');
  if (raw === null) throw accountBadRequest('version', 'is required');
  const version = requireVersion(raw);
  // GAPS: infrastructure component delete with a stale version
  if (version !== current.version) throw staleVersion('Infrastructure component', current.id, version, current.version);
  // GAPS: infrastructure component delete while in use
  const usage = ctx.store.world.infraUsage?.[current.id] ?? [];
  const force = ctx.query.get('force') === 'true';
  const offered = usage.filter((u) => u.offering_items_on);
  if (usage.length > 0 && !force) {
    throw accountConflict(`Infrastructure component ${current.id} is in use by ${usage.length} customer tenant(s): ${usage.map((u) => u.tenant_id).join(', ')}`, { id: current.id, in_use_by: usage.map((u) => u.tenant_id) });
  }
  if (offered.length > 0) {
    throw accountConflict(`Infrastructure component ${current.id} has offering items turned on for customer tenant(s): ${offered.map((u) => u.tenant_id).join(', ')}`, { id: current.id, offering_items_on: offered.map((u) => u.tenant_id) });
  }
  delete ctx.store.world.infra[current.id];
  if (ctx.store.world.infraUsage) delete ctx.store.world.infraUsage[current.id];
  ctx.store.save();
  return noContent();
}

function tenantInfra(ctx: RequestContext): Reply {
  const tenant = visibleTenant(ctx, ctx.params.tenant as string);
  // GAPS: infrastructure components of a tenant
  return json(200, { infras: Object.values(ctx.store.world.infra).filter((c) => c.owner_tenant_id === tenant.id).map((c) => c.id) });
}

// ---------------------------------------------------------------- usage report configurations

// GAPS: report enumerations
const REPORT_KINDS = ['usage_daily', 'usage_summary', 'usage_current', 'usage_breakdown'];
const REPORT_LEVELS = ['itself', 'direct_partners', 'all_partners', 'all_customers', 'accounts'];
const REPORT_FORMATS = ['csv', 'html', 'json_v1', 'csv_v2_0', 'json_v2_0'];
const SCHEDULE_TYPES = ['once', 'monthly'];
const RESULT_ACTIONS = ['save', 'send'];
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

const REPORT_FIELDS = ['result_action', 'recipients', 'parameters', 'schedule', 'generation_date'];
const PARAMETER_FIELDS = ['tenant_id', 'formats', 'show_skus', 'hide_zero_usage', 'kind', 'period', 'level'];
const SCHEDULE_FIELDS = ['type', 'enabled'];
const PERIOD_FIELDS = ['start', 'end'];

function rejectUnknown(obj: Record<string, unknown>, allowed: string[], at: string): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) throw accountBadRequest(`${at}${k}`, 'is not a field of a usage report configuration');
  }
}

function checkEnum(v: unknown, allowed: string[], field: string): void {
  if (v !== undefined && (typeof v !== 'string' || !allowed.includes(v))) throw accountBadRequest(field, `must be one of ${allowed.join(', ')}`);
}

/** Shape checks for create (`create` = true: required fields too) and update bodies. */
function checkReportBody(body: Record<string, unknown>, create: boolean): void {
  // GAPS: usage report configuration create (unknown body fields are rejected)
  rejectUnknown(body, create ? REPORT_FIELDS : [...REPORT_FIELDS, 'id', 'version'], '');
  if (create) {
    for (const f of ['recipients', 'result_action', 'parameters', 'schedule']) if (body[f] === undefined) throw accountBadRequest(f, 'is required');
  }
  checkEnum(body.result_action, RESULT_ACTIONS, 'result_action');
  if (body.recipients !== undefined) {
    if (!Array.isArray(body.recipients)) throw accountBadRequest('recipients', 'must be an array of user uuids');
    body.recipients.forEach((r, i) => {
      if (typeof r !== 'string' || !UUID_RE.test(r)) throw accountBadRequest(`recipients[${i}]`, 'must be a uuid');
    });
  }
  if (body.generation_date !== undefined && (typeof body.generation_date !== 'string' || !DATE_RE.test(body.generation_date))) {
    throw accountBadRequest('generation_date', 'must be a date YYYY-MM-DD');
  }
  if (body.parameters !== undefined) {
    const p = body.parameters;
    if (!isObject(p)) throw accountBadRequest('parameters', 'must be an object');
    rejectUnknown(p, PARAMETER_FIELDS, 'parameters.');
    if (create) for (const f of ['tenant_id', 'level', 'kind']) if (p[f] === undefined) throw accountBadRequest(`parameters.${f}`, 'is required');
    if (p.tenant_id !== undefined && (typeof p.tenant_id !== 'string' || !UUID_RE.test(p.tenant_id))) throw accountBadRequest('parameters.tenant_id', 'must be a uuid');
    checkEnum(p.kind, REPORT_KINDS, 'parameters.kind');
    checkEnum(p.level, REPORT_LEVELS, 'parameters.level');
    if (p.formats !== undefined) {
      if (!Array.isArray(p.formats)) throw accountBadRequest('parameters.formats', 'must be an array');
      p.formats.forEach((f, i) => checkEnum(f, REPORT_FORMATS, `parameters.formats[${i}]`));
    }
    for (const f of ['show_skus', 'hide_zero_usage']) {
      if (p[f] !== undefined && typeof p[f] !== 'boolean') throw accountBadRequest(`parameters.${f}`, 'must be a boolean');
    }
    if (p.period !== undefined) {
      if (!isObject(p.period)) throw accountBadRequest('parameters.period', 'must be an object {start, end}');
      rejectUnknown(p.period, PERIOD_FIELDS, 'parameters.period.');
      for (const f of PERIOD_FIELDS) {
        const v = p.period[f];
        if (v !== undefined && (typeof v !== 'string' || !DATE_RE.test(v))) throw accountBadRequest(`parameters.period.${f}`, 'must be a date YYYY-MM-DD');
      }
    }
  }
  if (body.schedule !== undefined) {
    const s = body.schedule;
    if (!isObject(s)) throw accountBadRequest('schedule', 'must be an object');
    rejectUnknown(s, SCHEDULE_FIELDS, 'schedule.');
    if (create && s.type === undefined) throw accountBadRequest('schedule.type', 'is required');
    checkEnum(s.type, SCHEDULE_TYPES, 'schedule.type');
    if (s.enabled !== undefined && typeof s.enabled !== 'boolean') throw accountBadRequest('schedule.enabled', 'must be a boolean');
  }
}

function reportOr404(ctx: RequestContext, id: string): ReportConfig {
  const r = ctx.store.world.reports[id];
  // platform-interface: not found codes (report_not_found)
  if (r === undefined || !ctx.store.isInSubtree(r.parameters.tenant_id, ctx.caller.tenantId)) {
    throw accountNotFound('report_not_found', 'Usage report', id);
  }
  return r;
}

function createReport(ctx: RequestContext): Reply {
  const body = ctx.body;
  if (!isObject(body)) throw accountBadRequest('body', 'must be an object');
  checkReportBody(body, true);
  const params = body.parameters as ReportConfig['parameters'];
  visibleTenant(ctx, params.tenant_id);
  const schedule = { ...(body.schedule as ReportConfig['schedule']) };
  if (schedule.enabled === undefined) schedule.enabled = true;
  const report: ReportConfig = {
    id: ctx.store.newId(),
    version: 1,
    result_action: body.result_action as string,
    recipients: [...(body.recipients as string[])],
    parameters: structuredClone(params),
    schedule,
    // platform-interface: report generation date
    generation_date: (body.generation_date as string | undefined) ?? new Date().toISOString().slice(0, 10),
  };
  ctx.store.world.reports[report.id] = report;
  ctx.store.save();
  // GAPS: usage report configuration create (200 with the stored configuration, version 1)
  return json(200, report);
}

/** Paths whose values differ between two configurations (one level into parameters and schedule). */
function changedPaths(before: ReportConfig, after: ReportConfig): string[] {
  const out: string[] = [];
  for (const k of ['result_action', 'recipients', 'generation_date'] as const) if (!sameValue(before[k], after[k])) out.push(k);
  for (const group of ['parameters', 'schedule'] as const) {
    const a = before[group] as Record<string, unknown>;
    const b = after[group] as Record<string, unknown>;
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (!sameValue(a[k], b[k])) out.push(`${group}.${k}`);
  }
  return out;
}

function updateReport(ctx: RequestContext): Reply {
  const current = reportOr404(ctx, ctx.params.id as string);
  const body = ctx.body;
  if (!isObject(body)) throw accountBadRequest('body', 'must be an object');
  checkReportBody(body, false);
  if (body.id !== undefined && body.id !== current.id) throw accountBadRequest('id', 'does not match the path');
  // GAPS: usage report configuration update (no version in the body: the PUT is not conditional)
  // platform-interface: partial updates
  const next: ReportConfig = structuredClone(current);
  if (body.result_action !== undefined) next.result_action = body.result_action as string;
  if (body.recipients !== undefined) next.recipients = [...(body.recipients as string[])];
  if (body.generation_date !== undefined) next.generation_date = body.generation_date as string;
  if (body.parameters !== undefined) next.parameters = { ...next.parameters, ...structuredClone(body.parameters as Record<string, unknown>) };
  if (body.schedule !== undefined) next.schedule = { ...next.schedule, ...(body.schedule as Record<string, unknown>) };
  // GAPS: usage report configuration update (only kind, level and enabled of a monthly report)
  const mutable = current.schedule.type === 'monthly' ? ['recipients', 'parameters.kind', 'parameters.level', 'schedule.enabled'] : [];
  const refused = changedPaths(current, next).filter((p) => !mutable.includes(p));
  if (refused.length > 0) {
    const why = current.schedule.type === 'monthly' ? 'only recipients, parameters.kind, parameters.level and schedule.enabled may change' : `a report scheduled '${current.schedule.type}' cannot change`;
    throw accountBadRequest(refused[0] as string, `${why}; create a new report instead`);
  }
  next.version = current.version + 1;
  ctx.store.world.reports[current.id] = next;
  ctx.store.save();
  return json(200, next);
}

function deleteReport(ctx: RequestContext): Reply {
  const current = reportOr404(ctx, ctx.params.id as string);
  const raw = ctx.query.get('version');
  if (raw === null) throw accountBadRequest('version', 'is required');
  const version = requireVersion(raw);
  // GAPS: usage report configuration delete (stale version: 409 conflict)
  if (version !== current.version) throw staleVersion('Usage report', current.id, version, current.version);
  delete ctx.store.world.reports[current.id];
  ctx.store.save();
  return noContent();
}

function tenantReports(ctx: RequestContext): Reply {
  const tenant = visibleTenant(ctx, ctx.params.tenant as string);
  // GAPS: usage report configuration, list for a tenant
  return json(200, { items: Object.values(ctx.store.world.reports).filter((r) => r.parameters.tenant_id === tenant.id).map((r) => r.id) });
}

// ---------------------------------------------------------------- tenants and search

type Lod = 'stamps' | 'basic' | 'full';

function renderTenant(store: Store, t: Tenant, lod: Lod): Record<string, unknown> {
  const stamps: Record<string, unknown> = {
    id: t.id,
    parent_id: t.parent_id,
    version: t.version,
    created_at: t.created_at,
    updated_at: t.updated_at,
    deleted_at: null,
    contacts: [],
    offering_items: [],
  };
  if (lod === 'stamps') return stamps;
  const basic = { ...stamps, name: t.name, kind: t.kind, enabled: t.enabled };
  if (lod === 'basic') return basic;
  return {
    ...basic,
    customer_type: 'default',
    customer_id: null,
    brand_id: 1,
    brand_uuid: null,
    brand_enabled: false,
    barrier: t.barrier,
    internal_tag: null,
    language: 'en',
    owner_id: null,
    has_children: store.children(t.id).length > 0,
    default_idp_id: null,
    update_lock: { enabled: false, owner_id: null },
    ancestral_access: !t.barrier,
    mfa_status: 'disabled',
    pricing_mode: 'production',
    contact: {},
    external_operation_status: null,
    production_start_date: null,
  };
}

interface TenantQuery {
  uuids?: string[];
  parent_id?: string;
  subtree_root_id?: string;
  updated_since?: string;
  lod: Lod;
  limit: number;
}

function parseTenantQuery(q: URLSearchParams): TenantQuery {
  const uuids = queryList(q, 'uuids');
  const parent = q.get('parent_id') ?? undefined;
  const subtree = q.get('subtree_root_id') ?? undefined;
  const given = [uuids.length > 0, parent !== undefined, subtree !== undefined].filter(Boolean).length;
  if (given > 1) throw accountBadRequest('uuids', 'uuids, parent_id and subtree_root_id are mutually exclusive');
  if (uuids.length > 100) throw accountBadRequest('uuids', 'at most 100 ids');
  for (const id of [...uuids, parent, subtree]) {
    if (id !== undefined && !UUID_RE.test(id)) throw accountBadRequest('uuids', `${id} is not a uuid`);
  }
  const lod = (q.get('lod') ?? 'full') as Lod;
  if (!['stamps', 'basic', 'full'].includes(lod)) throw accountBadRequest('lod', 'must be stamps, basic or full');
  const limit = parseLimit(q.get('limit'), 5000);
  const since = q.get('updated_since') ?? undefined;
  if (since !== undefined && Number.isNaN(Date.parse(since))) throw accountBadRequest('updated_since', 'must be an RFC 3339 date-time');
  const out: TenantQuery = { lod, limit };
  if (uuids.length > 0) out.uuids = uuids;
  if (parent !== undefined) out.parent_id = parent;
  if (subtree !== undefined) out.subtree_root_id = subtree;
  if (since !== undefined) out.updated_since = since;
  return out;
}

function parseLimit(raw: string | null, fallback: number): number {
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw accountBadRequest('limit', 'must be an integer >= 1');
  return n;
}

function listTenants(ctx: RequestContext): Reply {
  const after = ctx.query.get('after');
  let query: TenantQuery;
  let offset = 0;
  if (after !== null) {
    // spec 01: the cursor carries every filter and sort argument
    const state = decodeCursor<{ q: TenantQuery; o: number }>(after);
    if (state === undefined || !isObject(state.q) || typeof state.o !== 'number') throw accountBadRequest('after', 'is not a cursor of this listing');
    query = state.q;
    offset = state.o;
    if (ctx.query.get('limit') !== null) query = { ...query, limit: parseLimit(ctx.query.get('limit'), query.limit) };
  } else {
    query = parseTenantQuery(ctx.query);
  }
  const store = ctx.store;
  const visible = store.subtree(ctx.caller.tenantId);
  let matches: Tenant[];
  if (query.uuids !== undefined) {
    const wanted = new Set(query.uuids);
    matches = visible.filter((t) => wanted.has(t.id));
  } else if (query.parent_id !== undefined) {
    visibleTenant(ctx, query.parent_id);
    matches = store.children(query.parent_id);
  } else if (query.subtree_root_id !== undefined) {
    visibleTenant(ctx, query.subtree_root_id);
    matches = store.subtree(query.subtree_root_id);
  } else {
    matches = visible;
  }
  if (query.updated_since !== undefined) {
    const since = Date.parse(query.updated_since);
    matches = matches.filter((t) => Date.parse(t.updated_at) > since);
  }
  // spec 01: sorted by tenant level (stable: siblings keep their order)
  matches = matches
    .map((t, i) => ({ t, i, level: store.level(t.id) }))
    .sort((a, b) => a.level - b.level || a.i - b.i)
    .map((x) => x.t);
  const page = matches.slice(offset, offset + query.limit);
  const next = offset + page.length;
  const cursors: Record<string, string> = {};
  // platform-interface: tenants listing (after is absent on the last page)
  if (next < matches.length) cursors.after = encodeCursor({ q: query, o: next });
  return json(200, {
    timestamp: new Date().toISOString(),
    paging: { cursors },
    items: page.map((t) => renderTenant(store, t, query.lod)),
  });
}

function search(ctx: RequestContext): Reply {
  const tenantId = ctx.query.get('tenant');
  const text = ctx.query.get('text');
  if (tenantId === null || tenantId === '') throw accountBadRequest('tenant', 'is required');
  if (text === null || text === '') throw accountBadRequest('text', 'is required');
  const limit = parseLimit(ctx.query.get('limit'), 10);
  const tenant = visibleTenant(ctx, tenantId);
  const needle = text.toLowerCase();
  const items = ctx.store
    .subtree(tenant.id)
    .filter((t) => t.name.toLowerCase().includes(needle))
    .slice(0, limit)
    .map((t) => ({
      id: t.id,
      parent_id: t.parent_id,
      obj_type: 'tenant',
      name: t.name,
      kind: t.kind,
      first_name: null,
      last_name: null,
      path: ctx.store.pathUp(t.id).slice(1).reverse().map((a) => a.name),
      deleted_at: null,
    }));
  return json(200, { items });
}

// ---------------------------------------------------------------- routes

export const accountRoutes: InterfaceRoutes = {
  name: 'account',
  prefix: `${PREFIX}/`,
  routes: [
    { method: 'GET', pattern: `${PREFIX}/applications`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, { items: ctx.store.world.applications }) },
    { method: 'GET', pattern: `${PREFIX}/applications/:id`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, applicationOr404(ctx, ctx.params.id as string)) },
    { method: 'POST', pattern: `${PREFIX}/applications/:app/bindings/tenants/:tenant`, scopes: ADMIN_TENANTS, handler: enableApplication },
    { method: 'DELETE', pattern: `${PREFIX}/applications/:app/bindings/tenants/:tenant`, scopes: ADMIN_TENANTS, handler: disableApplication },
    { method: 'GET', pattern: `${PREFIX}/applications/:app/settings/tenants/:tenant`, scopes: VIEW_TENANTS, handler: listSettings },
    { method: 'GET', pattern: `${PREFIX}/applications/:app/settings/tenants/:tenant/:name`, scopes: VIEW_TENANTS, handler: getSetting },
    { method: 'PUT', pattern: `${PREFIX}/applications/:app/settings/tenants/:tenant/:name`, scopes: ADMIN_TENANTS, jsonBody: true, handler: putSetting },
    { method: 'DELETE', pattern: `${PREFIX}/applications/:app/settings/tenants/:tenant/:name`, scopes: ADMIN_TENANTS, handler: deleteSetting },
    {
      method: 'GET',
      pattern: `${PREFIX}/tenants/:tenant/applications`,
      scopes: VIEW_TENANTS,
      // GAPS: which applications a tenant has on
      handler: (ctx) => json(200, { items: [...(ctx.store.world.bindings[visibleTenant(ctx, ctx.params.tenant as string).id] ?? [])] }),
    },
    { method: 'GET', pattern: `${PREFIX}/infra`, scopes: VIEW_INFRA, handler: getInfra },
    { method: 'POST', pattern: `${PREFIX}/infra`, scopes: ADMIN_INFRA, jsonBody: true, handler: createInfra },
    { method: 'PUT', pattern: `${PREFIX}/infra/:id`, scopes: ADMIN_INFRA, jsonBody: true, handler: updateInfra },
    { method: 'DELETE', pattern: `${PREFIX}/infra/:id`, scopes: ADMIN_INFRA, handler: deleteInfra },
    { method: 'GET', pattern: `${PREFIX}/tenants/:tenant/infra`, scopes: VIEW_INFRA, handler: tenantInfra },
    { method: 'GET', pattern: `${PREFIX}/reports/:id`, scopes: VIEW_REPORTS, handler: (ctx) => json(200, reportOr404(ctx, ctx.params.id as string)) },
    { method: 'POST', pattern: `${PREFIX}/reports`, scopes: ADMIN_REPORTS, jsonBody: true, handler: createReport },
    { method: 'PUT', pattern: `${PREFIX}/reports/:id`, scopes: ADMIN_REPORTS, jsonBody: true, handler: updateReport },
    { method: 'DELETE', pattern: `${PREFIX}/reports/:id`, scopes: ADMIN_REPORTS, handler: deleteReport },
    { method: 'GET', pattern: `${PREFIX}/tenants/:tenant/reports`, scopes: VIEW_REPORTS, handler: tenantReports },
    { method: 'GET', pattern: `${PREFIX}/tenants`, scopes: VIEW_TENANTS, handler: listTenants },
    { method: 'GET', pattern: `${PREFIX}/search`, scopes: VIEW_TENANTS, handler: search },
  ],
};
