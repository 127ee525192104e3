/** Usage report configurations. */
import { accountBadRequest, accountNotFound } from '../errors';
import { z } from 'zod';
import { bool, closed, list, oneOf, text, uuid } from '../body';
import { json, noContent, withBody, type Reply, type RequestContext, type Route } from '../router';
import type { ReportConfig } from '../store';
import { ADMIN_REPORTS, PREFIX, queryVersion, sameValue, staleVersion, VIEW_REPORTS, visibleTenant } from './common';

// GAPS: report enumerations
const REPORT_KINDS: [string, ...string[]] = ['usage_daily', 'usage_summary', 'usage_current', 'usage_breakdown'];
const REPORT_LEVELS: [string, ...string[]] = ['itself', 'direct_partners', 'all_partners', 'all_customers', 'accounts'];
const REPORT_FORMATS: [string, ...string[]] = ['csv', 'html', 'json_v1', 'csv_v2_0', 'json_v2_0'];
const SCHEDULE_TYPES: [string, ...string[]] = ['once', 'monthly'];
const RESULT_ACTIONS: [string, ...string[]] = ['save', 'send'];
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

const date = () => text('must be a date YYYY-MM-DD').regex(DATE_RE, 'must be a date YYYY-MM-DD');
const WHAT = 'a usage report configuration';

/** The members of a configuration; a create requires `result_action`, `parameters` (with `tenant_id`, `level`, `kind`) and `schedule.type`. */
const PARAMETERS = {
  tenant_id: uuid(),
  formats: list(oneOf(REPORT_FORMATS)).optional(),
  show_skus: bool().optional(),
  hide_zero_usage: bool().optional(),
  kind: oneOf(REPORT_KINDS),
  period: closed({ start: date().optional(), end: date().optional() }, WHAT, 'must be an object {start, end}').optional(),
  level: oneOf(REPORT_LEVELS),
};
const REPORT = {
  result_action: oneOf(RESULT_ACTIONS),
  // `recipients` may be left out: the vendor's example does, and live answers `recipients: []`.
  recipients: list(uuid(), 'must be an array of user uuids').optional(),
  parameters: closed(PARAMETERS, WHAT),
  schedule: closed({ type: oneOf(SCHEDULE_TYPES), enabled: bool().optional() }, WHAT),
  generation_date: date().optional(),
};

// GAPS: usage report configuration create (unknown body fields are rejected)
const ReportCreate = closed(REPORT, WHAT);

const ReportUpdate = closed(
  {
    id: z.unknown().optional(),
    version: z.unknown().optional(),
    result_action: REPORT.result_action.optional(),
    recipients: REPORT.recipients,
    parameters: closed(
      { ...PARAMETERS, tenant_id: PARAMETERS.tenant_id.optional(), kind: PARAMETERS.kind.optional(), level: PARAMETERS.level.optional() },
      WHAT,
    ).optional(),
    schedule: closed({ type: oneOf(SCHEDULE_TYPES).optional(), enabled: bool().optional() }, WHAT).optional(),
    generation_date: REPORT.generation_date,
  },
  WHAT,
);

function reportOr404(ctx: RequestContext, id: string): ReportConfig {
  const r = ctx.store.world.reports[id];
  // platform-interface: not found codes (report_not_found)
  if (r === undefined || !ctx.store.isInSubtree(r.parameters.tenant_id, ctx.caller.tenantId)) {
    throw accountNotFound('report_not_found', 'Usage report', id);
  }
  return r;
}

function createReport(ctx: RequestContext<z.output<typeof ReportCreate>>): Reply {
  const body = ctx.body;
  const params = body.parameters;
  visibleTenant(ctx, params.tenant_id);
  const schedule = { ...body.schedule, enabled: body.schedule.enabled ?? true };
  // platform-interface: report generation date
  const generationDate = body.generation_date ?? new Date().toISOString().slice(0, 10);
  const report: ReportConfig = {
    id: ctx.store.newId(),
    version: ctx.store.nextVersion(),
    result_action: body.result_action,
    recipients: body.recipients ?? [],
    // platform-interface: report defaults (the reference's answer always carries formats and period)
    parameters: { formats: ['csv'], period: { start: `${generationDate.slice(0, 8)}01`, end: generationDate }, ...params },
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
    const a: Record<string, unknown> = before[group];
    const b: Record<string, unknown> = after[group];
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (!sameValue(a[k], b[k])) out.push(`${group}.${k}`);
  }
  return out;
}

function updateReport(ctx: RequestContext<z.output<typeof ReportUpdate>>): Reply {
  const current = reportOr404(ctx, ctx.params.id);
  const body = ctx.body;
  if (body.id !== undefined && body.id !== current.id) throw accountBadRequest('id', 'does not match the path');
  // GAPS: usage report configuration update (no version in the body: the PUT is not conditional)
  // platform-interface: partial updates
  const next: ReportConfig = structuredClone(current);
  if (body.result_action !== undefined) next.result_action = body.result_action;
  if (body.recipients !== undefined) next.recipients = body.recipients;
  if (body.generation_date !== undefined) next.generation_date = body.generation_date;
  if (body.parameters !== undefined) next.parameters = { ...next.parameters, ...body.parameters };
  if (body.schedule !== undefined) next.schedule = { ...next.schedule, ...body.schedule };
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
  withBody({ method: 'POST', pattern: `${PREFIX}/reports`, scopes: ADMIN_REPORTS, body: ReportCreate, handler: createReport }),
  withBody({ method: 'PUT', pattern: `${PREFIX}/reports/:id`, scopes: ADMIN_REPORTS, body: ReportUpdate, handler: updateReport }),
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
