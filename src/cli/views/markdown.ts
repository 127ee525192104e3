import { formatPath, type Diagnostic } from '../../diagnostics';
import type { Action } from '../../resources/plan';
import { changedOutputs, hasChanges, summarize, summaryText, type DriftedResource, type Plan, type PlannedChange } from '../../plans/model';
import { KINDS } from '../../resources/registry';
import { actionableChanges, driftLines, formatValue, scrubSecrets, secretTexts, sensitiveByAddress, SENSITIVE_TEXT, viewChange, type LeafChange } from './diff';

export interface MarkdownOptions {
  /** GitHub refuses comments over 65536 characters; the default leaves room for a header. */
  readonly maxLength?: number;
}

export const DEFAULT_MAX_LENGTH = 65000;

type Acting = Exclude<Action, 'no-op'>;

const ACTION_ORDER: Acting[] = ['create', 'update', 'replace', 'delete'];

const ACTION_WORDS: Record<Acting, string> = {
  create: 'create',
  update: 'update in-place',
  replace: 'replace',
  delete: 'destroy',
};

const HEADLINES: Record<Acting, string> = {
  create: 'will be created',
  update: 'will be updated in-place',
  replace: 'must be replaced',
  delete: 'will be destroyed',
};

/** Escapes the characters that would turn a value into markup (or break a table). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|~]/g, (c) => `\\${c}`);
}

/**
 * Prose that quotes commands between backticks (the diagnostics, the notes): each quoted part as
 * a code span, the rest escaped, so that no backslash before a backtick reaches the reader.
 */
export function proseMarkdown(text: string): string {
  return text
    .split(/`([^`\n]+)`/)
    .map((part, i) => (i % 2 === 1 ? inlineCode(part) : escapeMarkdown(part)))
    .join('');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/** A code span that survives backticks in the text, and pipes inside a table cell. */
export function inlineCode(text: string, inTable = false): string {
  const fence = '`'.repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  const body = inTable ? text.replace(/\|/g, '\\|') : text;
  return `${fence}${pad}${body}${pad}${fence}`;
}

/** A fenced block whose fence is longer than any backtick run inside it. */
export function fencedBlock(language: string, lines: string[]): string {
  const body = lines.join('\n');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
  return `${fence}${language}\n${body}\n${fence}`;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function details(summaryHtml: string, body: string): string {
  return `<details><summary>${summaryHtml}</summary>\n\n${body}\n\n</details>`;
}

function diffLines(path: string, leaf: LeafChange, sensitive: boolean, forces: boolean): string[] {
  const show = (v: unknown) => (sensitive ? SENSITIVE_TEXT : formatValue(v));
  const mark = forces ? ' # forces replacement' : '';
  switch (leaf.kind) {
    case 'add':
      return [`+ ${path} = ${show(leaf.after)}${mark}`];
    case 'remove':
      return [`- ${path} = ${show(leaf.before)}${mark}`];
    case 'change':
      return [`- ${path} = ${show(leaf.before)}`, `+ ${path} = ${show(leaf.after)}${mark}`];
    default:
      return [`  ${path} = ${show(leaf.before)}${mark}`];
  }
}

function changeDetails(change: PlannedChange): string {
  const action = change.action as Acting;
  const view = viewChange(change, { deleteShows: 'identifying' });
  const lines: string[] = [];
  for (const a of view.attributes) {
    a.leaves.forEach((leaf, i) => {
      const forces = leaf.forcesReplacement || (a.forcesReplacement && i === 0);
      lines.push(...diffLines(formatPath([a.name, ...leaf.path]), leaf, a.sensitive, forces));
    });
  }
  if (view.hiddenUnchanged > 0) {
    const noun = action === 'delete' ? ['other attribute', 'other attributes'] : ['unchanged attribute', 'unchanged attributes'];
    lines.push(`  # (${plural(view.hiddenUnchanged, noun[0], noun[1])} hidden)`);
  }
  const reason =
    change.actionReason === 'delete_because_no_resource_config'
      ? ' (no longer in the configuration)'
      : change.actionReason === 'replace_because_tainted'
        ? ' (it is tainted)'
        : '';
  const moved = change.previousAddress === undefined ? '' : ` (moved from <code>${escapeHtml(change.previousAddress)}</code>)`;
  const imported = change.importing === undefined ? '' : ` (imported from <code>${escapeHtml(change.importing.id)}</code>)`;
  const headline =
    change.action === 'no-op' && change.previousAddress === undefined && change.importing !== undefined
      ? 'will be imported'
      : change.action === 'no-op'
        ? 'has moved here'
        : change.forget
          ? 'will no longer be managed, but will not be destroyed'
          : HEADLINES[action];
  const summary = `<code>${escapeHtml(change.address)}</code> ${headline}${reason}${moved}${change.action === 'no-op' ? '' : imported}`;
  return details(summary, fencedBlock('diff', lines.length > 0 ? lines : ['  # (no attributes to show)']));
}

function driftDetails(drift: DriftedResource, sensitive: ReadonlySet<string>): string | null {
  const address = `<code>${escapeHtml(drift.address)}</code>`;
  if (drift.action === 'delete') {
    return details(`${address} was deleted outside tenantform`, 'The object no longer exists on the platform.');
  }
  const lines = driftLines(drift.changes, sensitive, drift.type);
  if (lines.length === 0) return null;
  const body = lines.flatMap((l) => {
    const show = (v: unknown) => (l.sensitive ? SENSITIVE_TEXT : formatValue(v));
    const path = formatPath(l.path);
    return [`- ${path} = ${show(l.state)}`, `+ ${path} = ${show(l.live)}`];
  });
  return details(`${address} was changed outside tenantform`, fencedBlock('diff', body));
}

/**
 * One item per distinct diagnostic: the same warning for many objects (what a destroy of that
 * kind means) is said once, naming them all.
 */
function diagnosticItems(diagnostics: readonly Diagnostic[], secrets: ReadonlyArray<string>): string[] {
  const text = (s: string) => escapeMarkdown(scrubSecrets(s, secrets)).replace(/\n/g, '<br>');
  const groups = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) {
    const key = JSON.stringify([d.severity, d.summary, d.detail, formatPath(d.path)]);
    groups.set(key, [...(groups.get(key) ?? []), d]);
  }
  return [...groups.values()].map((same) => {
    const d = same[0];
    const head = d.severity === 'error' ? '**Error:**' : '**Warning:**';
    const path = formatPath(d.path);
    const addresses = same.map((x) => x.address).filter((a): a is string => a !== undefined);
    const where =
      addresses.length > 1
        ? `${addresses.length} objects (${addresses
            .slice(0, 3)
            .map((a) => inlineCode(a))
            .join(', ')}${addresses.length > 3 ? ', …' : ''})${path ? ` at ${inlineCode(path)}` : ''}: `
        : [addresses[0], path].filter(Boolean).length > 0
          ? `${inlineCode([addresses[0], path].filter(Boolean).join(': '))}: `
          : '';
    const files = new Set(same.map((x) => x.file));
    const file = files.size === 1 ? d.file : undefined;
    const source = file === undefined ? '' : `on ${inlineCode(file)}${same.length === 1 && d.line !== undefined ? ` line ${d.line}` : ''}: `;
    return `- ${head} ${where}${source}${text(d.summary)}<br>${text(d.detail)}`;
  });
}

/** From this many objects, changes of one kind that change the same attributes are one row. */
export const GROUPED_FROM = 50;

/** Changes of one action and kind that change the same attributes, in plan order. */
interface ChangeGroup {
  readonly word: string;
  readonly type: string;
  readonly attributes: readonly string[];
  readonly changes: PlannedChange[];
}

function groupsOf(changes: readonly PlannedChange[], word: (c: PlannedChange) => string): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup>();
  for (const c of changes) {
    const attributes = c.action === 'update' || c.action === 'replace' ? [...c.changed].sort() : [];
    const key = JSON.stringify([word(c), c.type, attributes]);
    const group = groups.get(key) ?? { word: word(c), type: c.type, attributes, changes: [] };
    group.changes.push(c);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** A delete that only stops managing the object: the platform cannot delete it, so nothing is destroyed. */
function onlyForgets(c: PlannedChange): boolean {
  return c.action === 'delete' && (c.forget === true || KINDS.resource(c.type)?.deleteOnlyForgets !== undefined);
}

/** Objects only imported: a row each, or a row per type where an estate is adopted at once. */
function importRows(imports: readonly PlannedChange[]): string[] {
  const byType = new Map<string, PlannedChange[]>();
  for (const c of imports) {
    const same = byType.get(c.type);
    if (same) same.push(c);
    else byType.set(c.type, [c]);
  }
  return [...byType].flatMap(([type, all]) =>
    all.length >= GROUPED_FROM
      ? [`| import | ${all.length.toLocaleString('en-US')} × ${inlineCode(type, true)} |`]
      : all.map((c) => `| import | ${inlineCode(c.address, true)} (id ${inlineCode(c.importing!.id, true)}) |`),
  );
}

/** The pieces of a plan's markdown, shared by the single comment and the numbered comments. */
export function markdownParts(plan: Plan) {
  const secrets = secretTexts(plan);
  const sensitive = sensitiveByAddress(plan);
  const changes = actionableChanges(plan);
  const byAction = ACTION_ORDER.flatMap((a) => changes.filter((c) => c.action === a));
  const destructive = byAction.filter((c) => (c.action === 'delete' && !onlyForgets(c)) || c.action === 'replace');
  // What a destroy takes with it (a tenant's users and data) leads the comment, said once there.
  const consequences = new Map(plan.diagnostics.filter((d) => d.code === 'delete_takes_more' && d.address).map((d) => [d.address as string, d.detail]));
  const word = (c: PlannedChange) =>
    c.forget ? 'forget (stays on the platform)' : onlyForgets(c) ? 'forget (the platform cannot delete it)' : ACTION_WORDS[c.action as Acting];
  const groups = groupsOf(byAction, word);
  const grouped = (g: ChangeGroup) => g.changes.length >= GROUPED_FROM;
  const groupOfChange = new Map(groups.flatMap((g) => g.changes.map((c) => [c, g] as const)));
  const kindOf = (g: ChangeGroup) => `${inlineCode(g.type, true)}${g.attributes.length > 0 ? ` (${g.attributes.map(escapeMarkdown).join(', ')})` : ''}`;
  const s = summarize(plan.changes);
  const outputs = changedOutputs(plan);
  const headline = hasChanges(plan)
    ? `**Plan:** ${summaryText(s)}`
    : outputs.length > 0
      ? '**Only outputs change.** Applying saves their new values; nothing changes on the platform.'
      : '**No changes.** Your configuration matches the platform.';
  const deletes = destructive.filter((c) => c.action === 'delete').length;
  const counts = [
    deletes > 0 ? `destroys ${plural(deletes, 'resource', 'resources')}` : '',
    destructive.length > deletes ? `replaces ${plural(destructive.length - deletes, 'resource', 'resources')}` : '',
  ].filter(Boolean);
  return {
    headline,
    bannerHead: `> [!WARNING]\n> This plan ${counts.join(' and ')}. Review before merging:`,
    bannerItems: destructive.map((c) => {
      const consequence = consequences.get(c.address);
      return `> - ${inlineCode(c.address)} ${HEADLINES[c.action as Acting]}${consequence ? `: ${escapeMarkdown(scrubSecrets(consequence, secrets)).replace(/\n/g, ' ')}` : ''}`;
    }),
    tableRows: [
      ...groups.flatMap((g) =>
        grouped(g)
          ? [`| ${g.word} | ${g.changes.length.toLocaleString('en-US')} × ${kindOf(g)} |`]
          : g.changes.map((c) => `| ${g.word} | ${inlineCode(c.address, true)} |`),
      ),
      ...changes
        .filter((c) => c.action === 'no-op' && c.previousAddress !== undefined)
        .map((c) => `| move | ${inlineCode(c.address, true)} (from ${inlineCode(c.previousAddress ?? '', true)}) |`),
      ...importRows(changes.filter((c) => c.action === 'no-op' && c.importing !== undefined && c.previousAddress === undefined)),
    ],
    outputs,
    drift: plan.drift.map((d) => driftDetails(d, sensitive.get(d.address) ?? new Set())).filter((d): d is string => d !== null),
    // In plan order; a large group shows its first object's change as the example, where it stands.
    details: changes.flatMap((c) => {
      const g = groupOfChange.get(c);
      if (!g || !grouped(g)) return [changeDetails(c)];
      if (g.changes[0] !== c) return [];
      const others = g.changes.slice(1);
      const named = others.slice(0, 3).map((o) => inlineCode(o.address));
      return [
        changeDetails(c),
        `_… and ${others.length.toLocaleString('en-US')} more ${kindOf(g)} to ${g.word} like it (${named.join(', ')}${others.length > 3 ? ', …' : ''}); \`tenantform plan\` lists each._`,
      ];
    }),
    diagnostics: diagnosticItems(
      plan.diagnostics.filter((d) => !(d.code === 'delete_takes_more' && d.address !== undefined && destructive.some((c) => c.address === d.address))),
      secrets,
    ),
  };
}

/** How much of each shrinkable part a rendering keeps. */
interface Kept {
  changeDetails: number;
  driftDetails: number;
  diagnostics: number;
  tableRows: number;
  bannerItems: number;
}

/**
 * The plan as a pull-request comment, no longer than maxLength: when it would be, the
 * per-resource details go first (the last ones first), then drift details, diagnostics,
 * and only as a last resort rows of the table and the banner, each cut saying so.
 */
export function renderMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  const { headline, bannerHead, bannerItems, tableRows, drift, details, diagnostics } = markdownParts(plan);

  const omitted = (count: number, what: string) => `_Details of ${count} ${what} omitted to fit the comment limit; run \`tenantform plan\` to see them._`;

  const assemble = (kept: Kept): string => {
    const parts: string[] = [headline];
    if (bannerItems.length > 0) {
      const banner = [bannerHead];
      banner.push(...bannerItems.slice(0, kept.bannerItems));
      const cut = bannerItems.length - kept.bannerItems;
      if (cut > 0) banner.push(`> - … and ${cut} more`);
      parts.push(banner.join('\n'));
    }
    if (tableRows.length > 0) {
      const table = ['| Action | Resource |', '| --- | --- |', ...tableRows.slice(0, kept.tableRows)];
      const cut = tableRows.length - kept.tableRows;
      if (cut > 0) table.push(`| … | ${plural(cut, 'more resource', 'more resources')} |`);
      parts.push(table.join('\n'));
    }
    if (drift.length > 0) {
      const section = ['### Changed outside tenantform', ...drift.slice(0, kept.driftDetails)];
      const cut = drift.length - kept.driftDetails;
      if (cut > 0) section.push(omitted(cut, cut === 1 ? 'drifted object' : 'drifted objects'));
      if (plan.refreshOnly) section.push('This is a refresh-only plan: applying it records these values in the state.');
      parts.push(section.join('\n\n'));
    }
    if (details.length > 0) {
      const section = ['### Changes', ...details.slice(0, kept.changeDetails)];
      const cut = details.length - kept.changeDetails;
      if (cut > 0) section.push(omitted(cut, cut === 1 ? 'resource' : 'resources'));
      parts.push(section.join('\n\n'));
    }
    if (diagnostics.length > 0) {
      const list = diagnostics.slice(0, kept.diagnostics);
      const cut = diagnostics.length - kept.diagnostics;
      if (cut > 0) list.push(`- _${plural(cut, 'more diagnostic', 'more diagnostics')} omitted to fit the comment limit._`);
      parts.push(['### Diagnostics', list.join('\n')].join('\n\n'));
    }
    return `${parts.join('\n\n')}\n`;
  };

  const kept: Kept = {
    changeDetails: details.length,
    driftDetails: drift.length,
    diagnostics: diagnostics.length,
    tableRows: tableRows.length,
    bannerItems: bannerItems.length,
  };
  for (const part of ['changeDetails', 'driftDetails', 'diagnostics', 'tableRows', 'bannerItems'] as const) {
    if (assemble(kept).length <= maxLength) break;
    // The length grows with what is kept, so the most that fits is found by bisection.
    let low = 0;
    let high = kept[part];
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (assemble({ ...kept, [part]: mid }).length <= maxLength) low = mid;
      else high = mid - 1;
    }
    kept[part] = low;
  }
  const text = assemble(kept);
  if (text.length <= maxLength) return text;
  const notice = '\n\n_Comment cut to fit the limit; run `tenantform plan` to see the plan._\n';
  if (notice.length >= maxLength) return text.slice(0, maxLength);
  return text.slice(0, maxLength - notice.length) + notice;
}
