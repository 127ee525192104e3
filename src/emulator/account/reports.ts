/** Usage report configurations. */
import { accountBadRequest, accountNotFound } from '../errors';
import { isObject, json, noContent, UUID_RE, type Reply, type RequestContext, type Route } from '../router';
import type { ReportConfig } from '../store';
import { ADMIN_REPORTS, PREFIX, queryVersion, sameValue, staleVersion, VIEW_REPORTS, visibleTenant } from './common';

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
    // `recipients` may be left out: the vendor's example does, and live answers `recipients: []`.
    for (const f of ['result_action', 'parameters', 'schedule']) if (body[f] === undefined) throw accountBadRequest(f, 'is required');
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
    if (p.tenant_id !== undefined && (typeof p.tenant_id !== 'string' || !UUID_RE.test(p.tenant_id)))
      throw accountBadRequest('parameters.tenant_id', 'must be a uuid');
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
  // platform-interface: report generation date
  const generationDate = (body.generation_date as string | undefined) ?? new Date().toISOString().slice(0, 10);
  const report: ReportConfig = {
    id: ctx.store.newId(),
    version: ctx.store.nextVersion(),
    result_action: body.result_action as string,
    recipients: [...((body.recipients as string[] | undefined) ?? [])],
    // platform-interface: report defaults (the reference's answer always carries formats and period)
    parameters: { formats: ['csv'], period: { start: `${generationDate.slice(0, 8)}01`, end: generationDate }, ...structuredClone(params) },
    schedule,
    generation_date: generationDate,
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
  const current = reportOr404(ctx, ctx.params.id);
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
    const why =
      current.schedule.type === 'monthly'
        ? 'only recipients, parameters.kind, parameters.level and schedule.enabled may change'
        : `a report scheduled '${current.schedule.type}' cannot change`;
    throw accountBadRequest(refused[0], `${why}; create a new report instead`);
  }
  next.version = ctx.store.nextVersion(current.version);
  ctx.store.world.reports[current.id] = next;
  ctx.store.save();
  return json(200, next);
}

function deleteReport(ctx: RequestContext): Reply {
  const current = reportOr404(ctx, ctx.params.id);
  const version = queryVersion(ctx);
  // GAPS: usage report configuration delete (stale version: 409 conflict)
  if (version !== current.version) throw staleVersion('Usage report', current.id, version, current.version);
  delete ctx.store.world.reports[current.id];
  ctx.store.save();
  return noContent();
}

function tenantReports(ctx: RequestContext): Reply {
  const tenant = visibleTenant(ctx, ctx.params.tenant);
  // GAPS: usage report configuration, list for a tenant
  return json(200, {
    items: Object.values(ctx.store.world.reports)
      .filter((r) => r.parameters.tenant_id === tenant.id)
      .map((r) => r.id),
  });
}

export const reportRoutes: Route[] = [
  { method: 'GET', pattern: `${PREFIX}/reports/:id`, scopes: VIEW_REPORTS, handler: (ctx) => json(200, reportOr404(ctx, ctx.params.id)) },
  { method: 'POST', pattern: `${PREFIX}/reports`, scopes: ADMIN_REPORTS, jsonBody: true, handler: createReport },
  { method: 'PUT', pattern: `${PREFIX}/reports/:id`, scopes: ADMIN_REPORTS, jsonBody: true, handler: updateReport },
  { method: 'DELETE', pattern: `${PREFIX}/reports/:id`, scopes: ADMIN_REPORTS, handler: deleteReport },
  { method: 'GET', pattern: `${PREFIX}/tenants/:tenant/reports`, scopes: VIEW_REPORTS, handler: tenantReports },
  // The emulator generates no report: a configuration has no stored report yet.
  {
    method: 'GET',
    pattern: `${PREFIX}/reports/:id/stored`,
    scopes: VIEW_REPORTS,
    handler: (ctx) => (reportOr404(ctx, ctx.params.id), json(200, { items: [] })),
  },
  {
    method: 'GET',
    pattern: `${PREFIX}/reports/:id/stored/:stored`,
    scopes: VIEW_REPORTS,
    handler: (ctx) => {
      reportOr404(ctx, ctx.params.id);
      throw accountNotFound('stored_report_not_found', 'Stored report', ctx.params.stored);
    },
  },
];
