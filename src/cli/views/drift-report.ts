/** The drift report as text (terminal, cron mail), markdown (an issue or chat message) and JSON. */
import { formatPath, hasErrors, renderDiagnostic, type Diagnostic } from '../../diagnostics';
import { driftLines, formatValue, SENSITIVE_TEXT, type DriftLine } from './diff';
import { escapeMarkdown, inlineCode, proseMarkdown } from './markdown';
import { isDrifted, summarizeDrift, type DriftSummary } from '../../drift/detect';
import { IGNORE_FILE } from '../../drift/ignore';
import type { Coverage, DriftReport, ResourceDriftReport, UnmanagedObject } from '../../drift/model';
import { displayText, jsonText } from '../../api/display-text';

/** One attribute that moved, at leaf level: a JSON value or an object shows exactly which part. */
export interface DriftChange {
  readonly path: string;
  readonly state: unknown;
  readonly live: unknown;
}

export interface DriftJson {
  readonly format_version: '1.0';
  readonly stack: string;
  /** When the check ran (ISO 8601). */
  readonly checked_at: string | null;
  readonly summary: DriftSummary;
  readonly resources: Array<{
    address: string;
    type: string;
    status: ResourceDriftReport['status'];
    changes: DriftChange[];
    /** Attributes that moved but are in `lifecycle.ignore_changes`. */
    ignored_changes: string[];
  }>;
  /** Objects whose configuration differs from the last apply (`tenantform plan` shows how). */
  readonly configuration_differs: Array<{ address: string; action: string }>;
  /** Objects of the managed tenants that no configuration declares; null when not looked for. */
  readonly unmanaged: Array<{ type: string; id: string; tenant_id: string; tenant_name: string; label: string }> | null;
  readonly coverage: Coverage | null;
  readonly diagnostics: Array<Pick<Diagnostic, 'severity' | 'summary' | 'detail' | 'address'>>;
}

export function driftChanges(r: ResourceDriftReport): DriftChange[] {
  return driftLines(r.changes, new Set(r.sensitive), r.type).map((l: DriftLine) => ({
    path: formatPath(l.path),
    state: l.sensitive ? SENSITIVE_TEXT : l.state,
    live: l.sensitive ? SENSITIVE_TEXT : l.live,
  }));
}

export function renderDriftJson(report: DriftReport): string {
  const json: DriftJson = {
    format_version: '1.0',
    stack: report.stack,
    checked_at: report.checkedAt ?? null,
    summary: summarizeDrift(report),
    resources: report.resources.map((r) => ({ address: r.address, type: r.type, status: r.status, changes: driftChanges(r), ignored_changes: r.ignored })),
    configuration_differs: report.configurationDiffers.map((c) => ({ address: c.address, action: c.action })),
    unmanaged: report.unmanaged?.map((u) => ({ type: u.type, id: u.id, tenant_id: u.tenantId, tenant_name: u.tenantName, label: u.label })) ?? null,
    coverage: report.coverage ?? null,
    diagnostics: report.diagnostics.map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail, ...(d.address ? { address: d.address } : {}) })),
  };
  return `${jsonText(json, 2)}\n`;
}

function headline(report: DriftReport): string {
  const s = summarizeDrift(report);
  const noun = s.total === 1 ? 'resource' : 'resources';
  const unknown = s.unknown > 0 ? `, ${s.unknown} could not be read` : '';
  return `${s.total} ${noun}: ${s.in_sync} in sync, ${s.drifted} changed outside tenantform, ${s.deleted} deleted outside tenantform${unknown}.`;
}

/** The coverage sentence, and the unmanaged objects one per line. */
function unmanagedLines(report: DriftReport, item: (u: UnmanagedObject) => string): string[] {
  const { unmanaged, coverage } = report;
  if (!unmanaged || !coverage) return [];
  const total = coverage.managed + coverage.unmanaged;
  const head =
    coverage.percent === null
      ? 'Coverage: no objects to compare (none found in the tenants this stack manages).'
      : `Coverage: ${coverage.percent}% (${coverage.managed} of ${total} objects in the managed tenants are managed by this stack).`;
  if (unmanaged.length === 0) return [head, ''];
  return [
    head,
    '',
    `Unmanaged objects (on the platform, declared by no configuration; \`tenantform import\` adopts one, ${IGNORE_FILE} leaves it out):`,
    ...unmanaged.map(item),
    '',
  ];
}

const NEXT_STEPS = [
  'To keep the platform as it is now, record it in the state: tenantform apply --refresh-only',
  'To put the platform back as configured: tenantform apply',
];

const INCOMPLETE = 'The drift check is incomplete: the errors say what could not be read.';

const CONFIGURATION_NOTE = 'The configuration differs from the last apply (not drift; `tenantform plan` shows how):';

/** What needs a person first: deleted, then changed, then unread objects; each group in address order. */
const ATTENTION: Record<ResourceDriftReport['status'], number> = { deleted: 0, drifted: 1, unknown: 2, in_sync: 3 };

function needingAttention(report: DriftReport): { attention: ResourceDriftReport[]; inSync: ResourceDriftReport[] } {
  const attention = report.resources.filter((r) => r.status !== 'in_sync').sort((a, b) => ATTENTION[a.status] - ATTENTION[b.status]);
  return { attention, inSync: report.resources.filter((r) => r.status === 'in_sync') };
}

/** `tenantform_tenant: 1 deleted; tenantform_infra_component: 2 changed`: the kinds that need attention, most first. */
function perKind(attention: readonly ResourceDriftReport[]): string {
  const counts = new Map<string, Map<ResourceDriftReport['status'], number>>();
  for (const r of attention) {
    const kind = counts.get(r.type) ?? new Map<ResourceDriftReport['status'], number>();
    kind.set(r.status, (kind.get(r.status) ?? 0) + 1);
    counts.set(r.type, kind);
  }
  const words = { deleted: 'deleted', drifted: 'changed', unknown: 'not read', in_sync: 'in sync' };
  const total = (m: Map<ResourceDriftReport['status'], number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return [...counts]
    .sort(([a, x], [b, y]) => total(y) - total(x) || a.localeCompare(b))
    .map(([type, m]) => `${type}: ${[...m].map(([status, n]) => `${n} ${words[status]}`).join(', ')}`)
    .join('; ');
}

export function renderDriftText(report: DriftReport): string {
  const out: string[] = [`Drift report for stack "${report.stack}": ${headline(report)}`, ''];
  const { attention, inSync } = needingAttention(report);
  if (attention.length > 0) out.push(`By kind: ${perKind(attention)}.`, '');
  for (const r of attention) {
    if (r.status === 'deleted') out.push(`  - ${r.address}: deleted outside tenantform`);
    else if (r.status === 'unknown') out.push(`  ? ${r.address}: could not be read`);
    else {
      out.push(`  ~ ${r.address}: changed outside tenantform`);
      for (const c of driftChanges(r)) out.push(`      ${c.path}: ${show(c.state)} (state) -> ${show(c.live)} (live)`);
    }
  }
  if (attention.length > 0 && inSync.length > 0) out.push('');
  if (inSync.length > 0) out.push(`In sync (${inSync.length}):`, ...inSync.map((r) => `    ${r.address}${ignoredNote(r)}`));
  out.push('');
  if (report.configurationDiffers.length > 0) {
    out.push(CONFIGURATION_NOTE, ...report.configurationDiffers.map((c) => `    ${c.address} (${c.action})`), '');
  }
  out.push(...unmanagedLines(report, (u) => `  + ${u.type} ${displayText(u.id)} (${displayText(`${u.tenantName}: ${u.label}`)})`));
  if (hasErrors(report.diagnostics)) out.push(INCOMPLETE, '');
  if (isDrifted(report)) out.push(...NEXT_STEPS, '');
  return `${out.join('\n')}`;
}

export function renderDriftMarkdown(report: DriftReport): string {
  const checked = report.checkedAt ? `Checked at ${report.checkedAt}. ` : '';
  const out: string[] = [`## Drift report for stack ${inlineCode(report.stack)}`, '', escapeMarkdown(`${checked}${headline(report)}`), ''];
  const { attention, inSync } = needingAttention(report);
  if (attention.length > 0) {
    out.push(escapeMarkdown(`By kind: ${perKind(attention)}.`), '');
    out.push('| Resource | Status | Attribute | In the state | On the platform |', '|---|---|---|---|---|');
  }
  for (const r of attention) {
    const address = inlineCode(r.address, true);
    const changes = driftChanges(r);
    if (changes.length === 0) {
      out.push(`| ${address} | ${statusWords(r)} | | | |`);
      continue;
    }
    changes.forEach((c, i) => {
      const cells = [
        i === 0 ? address : '',
        i === 0 ? statusWords(r) : '',
        inlineCode(c.path, true),
        inlineCode(show(c.state), true),
        inlineCode(show(c.live), true),
      ];
      out.push(`| ${cells.join(' | ')} |`);
    });
  }
  if (attention.length > 0) out.push('');
  // The objects in sync are folded: on the first screen, only what needs a person.
  if (inSync.length > 0) {
    out.push(`<details><summary>${inSync.length} ${inSync.length === 1 ? 'resource' : 'resources'} in sync</summary>`, '');
    out.push(...inSync.map((r) => `- ${inlineCode(r.address)}${escapeMarkdown(ignoredNote(r))}`), '', '</details>', '');
  }
  if (report.configurationDiffers.length > 0) {
    out.push(proseMarkdown(CONFIGURATION_NOTE), '', ...report.configurationDiffers.map((c) => `- ${inlineCode(c.address)} (${c.action})`), '');
  }
  // Names come from the platform: shown inert (no escape sequence, no line break that starts a heading).
  out.push(
    ...unmanagedLines(report, (u) => `- ${inlineCode(displayText(`${u.type} ${u.id}`))} (${escapeMarkdown(displayText(`${u.tenantName}: ${u.label}`))})`).map(
      (l) => (l.startsWith('- ') || l === '' ? l : escapeMarkdown(l)),
    ),
  );
  for (const d of report.diagnostics) out.push(`- ${proseMarkdown(renderDiagnostic(d)).replace(/\n/g, '<br>')}`);
  if (report.diagnostics.length > 0) out.push('');
  if (hasErrors(report.diagnostics)) out.push(`**${escapeMarkdown(INCOMPLETE)}**`, '');
  if (isDrifted(report)) out.push(...NEXT_STEPS.map((s) => `- ${escapeMarkdown(s)}`), '');
  return `${out.join('\n')}`;
}

function statusWords(r: ResourceDriftReport): string {
  return { in_sync: 'in sync', drifted: 'changed outside tenantform', deleted: 'deleted outside tenantform', unknown: 'could not be read' }[r.status];
}

function ignoredNote(r: ResourceDriftReport): string {
  return r.ignored.length > 0 ? ` (changes of ${r.ignored.join(', ')} ignored by lifecycle.ignore_changes)` : '';
}

function show(v: unknown): string {
  return v === SENSITIVE_TEXT ? SENSITIVE_TEXT : formatValue(v);
}
