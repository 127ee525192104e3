import { z } from 'zod';
import { invalidValue, type AttributePath } from '../../diagnostics';
import { attr, oneOf, uuid, type Attributes } from '../attributes';
import { uuidImportId } from '../import-id';
import { defineResource, type OperationContext, type State } from '../declaration';
import type { PlannedOf, StateOf } from '../models';
import type { Report, ReportBody, ReportUpdate } from '../../api';
import { isNotFound } from '../../api/errors';
import { Unknown, valueEqual } from '../values';
import { deleteVersioned, updateVersioned, type VersionedObject } from '../versioned';
import { DISCOVERY_CONCURRENCY, mapLimit } from '../discovery';

// GAPS "Report enumerations".
const REPORT_KINDS = ['usage_daily', 'usage_summary', 'usage_current', 'usage_breakdown'] as const;
const REPORT_LEVELS = ['itself', 'direct_partners', 'all_partners', 'all_customers', 'accounts'] as const;
const REPORT_FORMATS = ['csv', 'html', 'json_v1', 'csv_v2_0', 'json_v2_0'] as const;
const SCHEDULE_TYPES = ['once', 'monthly'] as const;

const words = (values: readonly string[]) => `one of ${values.join(', ')}`;

/** A calendar date `YYYY-MM-DD` (spec 1: report dates). */
const date = z.iso.date();
const DATE_EXPECTS = 'a date YYYY-MM-DD';

const parameters = {
  tenant_id: attr.uuid({ mode: 'required', description: 'The tenant the report covers.' }),
  kind: attr.string({ mode: 'required', check: oneOf(REPORT_KINDS), expects: words(REPORT_KINDS), description: 'What the report counts.' }),
  level: attr.string({
    mode: 'required',
    check: oneOf(REPORT_LEVELS),
    expects: words(REPORT_LEVELS),
    description: 'Which tenants below `tenant_id` it details.',
  }),
  formats: attr.list(oneOf(REPORT_FORMATS), {
    mode: 'optional_computed',
    unique: true,
    expects: `report formats (${REPORT_FORMATS.join(', ')})`,
    description: 'The file formats produced. Left out, the platform chooses them (and tenantform keeps its choice).',
  }),
  show_skus: attr.bool({ mode: 'optional', description: 'Show SKUs in the report.' }),
  hide_zero_usage: attr.bool({ mode: 'optional', description: 'Leave out usages that are zero.' }),
  period: attr.object(
    {
      start: attr.string({ mode: 'required', check: date, expects: DATE_EXPECTS, description: 'First day of the period.' }),
      end: attr.string({ mode: 'required', check: date, expects: DATE_EXPECTS, description: 'Last day of the period.' }),
    },
    { mode: 'optional_computed', description: 'The period the report covers. Left out, the platform chooses it (and tenantform keeps its choice).' },
  ),
} satisfies Attributes;

const schedule = {
  type: attr.string({ mode: 'required', check: oneOf(SCHEDULE_TYPES), expects: words(SCHEDULE_TYPES), description: 'Run `once` or `monthly`.' }),
  enabled: attr.bool({ mode: 'optional', default: true, description: 'Whether the schedule runs.' }),
} satisfies Attributes;

/** GAPS "Usage report configuration: update": what a monthly report may change in place. */
const IN_PLACE = ['recipients', 'parameters.kind', 'parameters.level', 'schedule.enabled'];

const attributes = {
  id: attr.string({ mode: 'computed', key: true, description: 'The identifier the platform gives the report.' }),
  result_action: attr.string({
    mode: 'required',
    check: oneOf(['save', 'send']),
    expects: 'one of save, send',
    description: '`save` keeps the generated reports; `send` also mails them to the recipients.',
  }),
  recipients: attr.list(uuid, {
    mode: 'optional',
    default: [],
    unique: true,
    expects: 'user ids (lowercase uuids)',
    description: 'The users who receive the report.',
  }),
  parameters: attr.object(parameters, { mode: 'required', description: 'What the report contains.' }),
  schedule: attr.object(schedule, { mode: 'required', description: 'When the report runs.' }),
  generation_date: attr.string({
    mode: 'optional_computed',
    check: date,
    expects: DATE_EXPECTS,
    description: 'The date the report is generated; the platform chooses it when left out.',
  }),
  version: attr.number({ mode: 'computed', version: true, description: "The platform's version of the report." }),
};

export const usageReport = defineResource({
  type: 'tenantform_usage_report',
  description:
    'A usage report configuration: what is counted, for which tenants, in which formats, and whether it runs once or monthly. Updates and deletes carry the version tenantform last saw.',
  schemaVersion: 0,
  attributes,
  notes: [
    'Only `recipients`, `parameters.kind`, `parameters.level` and `schedule.enabled` of a monthly report change in place. Any other change, and any change of a `once` report, replaces the report.',
    'An update or delete sends the version of the last plan; a concurrent change is reported as a version conflict, never overwritten.',
  ],
  importId: uuidImportId('report'),
  identity: (s) => s.id,
  discover: {
    rank: 60,
    async list(scope, tenant) {
      // GAPS "Usage report configuration: list for a tenant".
      const ids = await scope.client.listTenantReports(tenant.id);
      const reports = await mapLimit(ids, DISCOVERY_CONCURRENCY, (id) => scope.client.getReport(id));
      return reports
        .sort((a, b) => reportLabel(a).localeCompare(reportLabel(b)) || a.id.localeCompare(b.id))
        .map((r) => ({ identity: { id: r.id }, label: [reportLabel(r)] }));
    },
  },
  example: {
    name: 'acme_monthly',
    config: {
      result_action: 'save',
      parameters: { tenant_id: '${data.tenantform_tenant.acme.id}', kind: 'usage_summary', level: 'accounts', formats: ['csv'] },
      schedule: { type: 'monthly' },
    },
  },
  check(config) {
    const period = config.parameters === Unknown ? null : config.parameters.period;
    if (!period || period === Unknown || typeof period.start !== 'string' || typeof period.end !== 'string' || period.start <= period.end) return [];
    return [
      invalidValue({
        code: 'invalid_period',
        path: ['parameters', 'period', 'end'],
        expected: `a date on or after ${period.start}`,
        found: JSON.stringify(period.end),
        message: 'The period ends before it starts.',
      }),
    ];
  },
  // GAPS "Usage report configuration: update": a monthly report changes a few members in place; any other change replaces it.
  modifyPlan(_ctx, { prior, planned }) {
    if (!prior || !planned) return {};
    const changes = changedPaths(prior, planned);
    const monthly = prior.schedule.type === 'monthly' && !changes.some((p) => p.join('.') === 'schedule.type');
    return { requiresReplace: monthly ? changes.filter((p) => !IN_PLACE.includes(p.join('.'))) : changes };
  },
  // The POST creates a new report each time it is sent.
  nonIdempotentCreate: true,
  async read(ctx, state) {
    const live = await fetchOne(ctx, state.id);
    return live ? fromReport(live) : null;
  },
  async create(ctx, planned) {
    return fromReport(await ctx.client.createReport(toBody(planned)));
  },
  async update(ctx, prior, planned) {
    // GAPS "Usage report configuration: update": the body carries only what changes and no
    // version; the PUT is not conditional, so the version is compared on a read right before it.
    const changed = new Set(changedPaths(prior, planned).map((p) => p.join('.')));
    const want = toBody(planned);
    const body: ReportUpdate = {};
    if (changed.has('recipients')) body.recipients = want.recipients;
    // Only the member that changed: sending both would reset the other to what this plan saw.
    if (changed.has('parameters.kind') || changed.has('parameters.level')) {
      body.parameters = {
        ...(changed.has('parameters.kind') ? { kind: want.parameters.kind } : {}),
        ...(changed.has('parameters.level') ? { level: want.parameters.level } : {}),
      };
    }
    if (changed.has('schedule.enabled')) body.schedule = { enabled: want.schedule.enabled };
    const updated = await updateVersioned(ctx, prior, reports, () => ctx.client.updateReport(prior.id, body));
    return fromReport(updated);
  },
  async delete(ctx, prior) {
    // GAPS "Usage report configuration: delete": `?version=`, 409 when stale.
    await deleteVersioned(ctx, prior, reports, (version) => ctx.client.deleteReport(prior.id, version));
  },
  async adoptionCandidates(ctx, pending) {
    const wanted = fromReport({ generation_date: null, ...toBody(pending), id: '', version: 0 });
    const matches: ReportState[] = [];
    for (const id of await ctx.client.listTenantReports(pending.parameters.tenant_id)) {
      const live = await fetchOne(ctx, id);
      if (live && sameConfiguration(wanted, fromReport(live))) matches.push(fromReport(live));
    }
    return matches;
  },
});

/** Attribute paths (one level into objects) whose planned value differs from the prior one. */
function changedPaths(prior: State, planned: State): AttributePath[] {
  const out: AttributePath[] = [];
  for (const [name, a] of Object.entries(attributes)) {
    if (a.mode === 'computed') continue;
    const before = prior[name];
    const after = planned[name];
    if (a.type === 'object' && before && after && after !== Unknown) {
      const [was, will] = [membersOf(before), membersOf(after)];
      for (const [member, m] of Object.entries(a.attributes)) {
        if (!valueEqual(m, was[member], will[member])) out.push([name, member]);
      }
    } else if (after === Unknown || !valueEqual(a, before, after)) {
      out.push([name]);
    }
  }
  return out;
}

/** Words naming a report within its tenant, e.g. `monthly usage`. */
function reportLabel(r: Report): string {
  return `${r.schedule.type} ${r.parameters.kind}`;
}

/**
 * The configuration as the platform takes it: members that are unset, or not known before the
 * platform sets them, are left out rather than null.
 */
function toBody(s: PlannedOf<typeof attributes>) {
  const p = s.parameters;
  return {
    result_action: s.result_action,
    // GAPS "Report enumerations": `recipients` is required on create, so an empty list is sent.
    recipients: [...s.recipients],
    parameters: {
      tenant_id: p.tenant_id,
      kind: p.kind,
      level: p.level,
      ...(p.formats === null || p.formats === Unknown ? {} : { formats: [...p.formats] }),
      ...(p.show_skus === null ? {} : { show_skus: p.show_skus }),
      ...(p.hide_zero_usage === null ? {} : { hide_zero_usage: p.hide_zero_usage }),
      ...(p.period === null || p.period === Unknown ? {} : { period: { start: p.period.start, end: p.period.end } }),
    },
    schedule: { type: s.schedule.type, enabled: s.schedule.enabled },
    ...(s.generation_date === null || s.generation_date === Unknown ? {} : { generation_date: s.generation_date }),
  } satisfies ReportBody;
}

/** The members of an object value by name; none for null or an unknown value. */
function membersOf(v: unknown): Readonly<Record<string, unknown>> {
  return v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v)) : {};
}

type ReportState = StateOf<typeof attributes>;

function fromReport(r: Report): ReportState {
  const p = r.parameters;
  const period = membersOf(p.period);
  return {
    id: r.id,
    result_action: r.result_action,
    recipients: [...r.recipients],
    parameters: {
      tenant_id: p.tenant_id,
      kind: p.kind,
      level: p.level,
      formats: p.formats ? [...p.formats] : null,
      show_skus: typeof p.show_skus === 'boolean' ? p.show_skus : null,
      hide_zero_usage: typeof p.hide_zero_usage === 'boolean' ? p.hide_zero_usage : null,
      period: typeof period.start === 'string' && typeof period.end === 'string' ? { start: period.start, end: period.end } : null,
    },
    // A schedule without `enabled` runs (the attribute's default).
    schedule: { type: r.schedule.type, enabled: r.schedule.enabled ?? true },
    generation_date: r.generation_date ?? null,
    version: r.version,
  };
}

/** Same configuration, leaving out what the platform chooses when the configuration does not. */
function sameConfiguration(wanted: State, live: State): boolean {
  return Object.entries(attributes).every(([name, a]) => {
    if (a.mode === 'computed' || (name === 'generation_date' && wanted[name] === null)) return true;
    const [w, l] = [wanted[name], live[name]];
    if (a.type !== 'object' || !w || !l || w === Unknown) return valueEqual(a, w, l);
    // Members the configuration leaves to the platform match whatever it chose.
    return Object.entries(a.attributes).every(([member, m]) => {
      const wm = membersOf(w)[member];
      return (m.mode === 'optional_computed' && (wm === null || wm === Unknown)) || valueEqual(m, wm, membersOf(l)[member]);
    });
  });
}

async function fetchOne(ctx: OperationContext, id: string): Promise<Report | null> {
  try {
    return await ctx.client.getReport(id);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

function describe(s: ReportState): string {
  return `usage report ${s.id}`;
}

export default usageReport;

const reports: VersionedObject<Report> = { fetch: fetchOne, describe };
