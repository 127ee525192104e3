import { formatPath, renderDiagnostic } from '../../diagnostics';
import type { Action } from '../../resources/plan';
import { nestedAttributeLines } from './nested-text';
import { changeLines } from './value-text';
import { changedOutputs, hasChanges, summarize, summaryText, type DriftedResource, type OutputChange, type Plan, type PlannedChange } from '../../plans/model';
import {
  actionableChanges,
  driftLines,
  formatValue,
  scrubSecrets,
  secretTexts,
  sensitiveByAddress,
  SENSITIVE_TEXT,
  UNKNOWN_TEXT,
  viewChange,
  type AttributeChange,
  type LeafChange,
  type LineKind,
} from './diff';

export interface TextOptions {
  readonly color: boolean;
  /** Warnings as one line each (their summaries), as terraform's -compact-warnings; errors stay whole. */
  readonly compactWarnings?: boolean;
}

export const NO_CHANGES_TEXT = 'No changes. Your configuration matches the platform.';
export const NOTHING_TO_DESTROY_TEXT = 'No changes. No objects need to be destroyed.';
export const PLAN_FAILED_TEXT = 'The plan failed: nothing can be applied until the errors above are fixed.';
export const OUTPUTS_ONLY_TEXT = 'You can apply this plan to save these new output values to the state, without changing anything on the platform.';
export const REFRESH_ONLY_TEXT = 'Run `tenantform apply --refresh-only` to accept these values into the state.';

/**
 * Colour for a terminal, or wherever FORCE_COLOR asks for it (CI logs render it); never when
 * the user asked for none (`--no-color`, https://no-color.org). NO_COLOR wins over FORCE_COLOR.
 */
export function shouldColor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env, requested = true): boolean {
  if (!requested || env.NO_COLOR !== undefined) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  if (!stream.isTTY) return false;
  return env.TERM !== 'dumb';
}

const ANSI = { bold: 1, red: 31, green: 32, yellow: 33 } as const;
type Style = keyof typeof ANSI;

type Paint = (style: Style, text: string) => string;

function painter(color: boolean): Paint {
  return color ? (style, text) => `\x1b[${ANSI[style]}m${text}\x1b[0m` : (_style, text) => text;
}

const MARKERS: Record<Exclude<Action, 'no-op'>, string> = {
  create: '+',
  update: '~',
  delete: '-',
  replace: '-/+',
};

const HEADLINES: Record<Exclude<Action, 'no-op'>, string> = {
  create: 'will be created',
  update: 'will be updated in-place',
  delete: 'will be destroyed',
  replace: 'must be replaced',
};

const LEGEND: Record<Exclude<Action, 'no-op'>, string> = {
  create: 'create',
  update: 'update in-place',
  delete: 'destroy',
  replace: 'destroy and then create replacement',
};

function paintMarker(paint: Paint, marker: string): string {
  switch (marker) {
    case '+':
      return paint('green', marker);
    case '-':
      return paint('red', marker);
    case '~':
      return paint('yellow', marker);
    case '-/+':
      return `${paint('red', '-')}/${paint('green', '+')}`;
    default:
      return marker;
  }
}

const LINE_MARKERS: Record<LineKind, string> = { add: '+', remove: '-', change: '~', same: ' ' };

function leafValue(leaf: LeafChange, sensitive: boolean): string {
  if (sensitive) return leaf.kind === 'remove' ? `${SENSITIVE_TEXT} -> null` : SENSITIVE_TEXT;
  switch (leaf.kind) {
    case 'add':
      return formatValue(leaf.after);
    case 'remove':
      return `${formatValue(leaf.before)} -> null`;
    case 'change':
      return `${formatValue(leaf.before)} -> ${formatValue(leaf.after)}`;
    default:
      return formatValue(leaf.before);
  }
}

function attributeLines(attrs: ReadonlyArray<AttributeChange>, indent: string, paint: Paint): string[] {
  const lines: string[] = [];
  const inline = (a: AttributeChange) => a.structure === 'scalar' || a.leaves.every((l) => l.path.length === 0);
  // Lists, sets and maps of objects are written as Terraform writes them, aligned with the rest.
  const width = Math.max(0, ...attrs.filter((a) => inline(a) || a.nested).map((a) => a.name.length));
  const forces = paint('red', ' # forces replacement');
  const markLine = (marker: string) => paintMarker(paint, marker);
  for (const a of attrs) {
    const marker = paintMarker(paint, LINE_MARKERS[a.kind]);
    const mark = a.forcesReplacement ? forces : '';
    if (a.nested && !inline(a)) {
      const nested = nestedAttributeLines(
        a.name,
        a.nested.attribute,
        a.kind === 'add' ? null : a.nested.before,
        a.kind === 'remove' ? null : a.nested.after,
        indent,
        width,
        markLine,
      );
      nested[0] += mark;
      lines.push(...nested);
      continue;
    }
    if (inline(a)) {
      const leaf = a.leaves[0];
      const value = leaf ? leafValue(leaf, a.sensitive) : 'null';
      lines.push(`${indent}${marker} ${a.name.padEnd(width)} = ${value}${mark}`);
      continue;
    }
    const isList = a.leaves.every((l) => typeof l.path[0] === 'number');
    const [open, close] = isList ? ['[', ']'] : ['{', '}'];
    const [prefix, suffix] = a.structure === 'json' ? ['jsonencode(', ')'] : ['', ''];
    lines.push(`${indent}${marker} ${a.name} = ${prefix}${open}${mark}`);
    const paths = a.leaves.map((l) => formatPath(l.path));
    const pathWidth = Math.max(...paths.map((p) => p.length));
    a.leaves.forEach((leaf, i) => {
      const leafMark = leaf.forcesReplacement ? forces : '';
      lines.push(`${indent}    ${paintMarker(paint, LINE_MARKERS[leaf.kind])} ${paths[i].padEnd(pathWidth)} = ${leafValue(leaf, false)}${leafMark}`);
    });
    lines.push(`${indent}  ${close}${suffix}`);
  }
  return lines;
}

function renderChange(change: PlannedChange, paint: Paint): string[] {
  if (change.action === 'no-op') return renderMove(change, paint);
  if (change.forget) return renderForget(change, paint);
  const action = change.action;
  const headline =
    change.actionReason === 'replace_because_tainted'
      ? 'is tainted, so must be replaced'
      : change.actionReason === 'replace_by_request'
        ? 'will be replaced, as requested'
        : HEADLINES[action];
  const lines = [paint('bold', `  # ${change.address} ${headline}`)];
  if (change.previousAddress !== undefined) lines.push(`  # (moved from ${change.previousAddress})`);
  if (change.importing !== undefined) lines.push(`  # (imported from ${JSON.stringify(change.importing.id)})`);
  if (change.actionReason === 'delete_because_no_resource_config') {
    lines.push(`  # (because ${change.address} is not in configuration)`);
  }
  const marker = MARKERS[action];
  lines.push(`${' '.repeat(3 - marker.length)}${paintMarker(paint, marker)} resource "${change.type}" "${change.name}" {`);
  const view = viewChange(change, { deleteShows: 'all' });
  lines.push(...attributeLines(view.attributes, '      ', paint));
  if (view.hiddenUnchanged > 0) {
    const noun = view.hiddenUnchanged === 1 ? 'attribute' : 'attributes';
    lines.push(`        # (${view.hiddenUnchanged} unchanged ${noun} hidden)`);
  }
  lines.push('    }');
  return lines;
}

/** An object a removed block lets go of, as Terraform shows it: it stays on the platform. */
function renderForget(change: PlannedChange, paint: Paint): string[] {
  const lines = [
    paint('bold', `  # ${change.address} will no longer be managed by tenantform, but will not be destroyed`),
    '  # (destroy = false is set in the configuration)',
    `  . resource "${change.type}" "${change.name}" {`,
  ];
  const view = viewChange({ ...change, action: 'no-op', after: change.before }, { deleteShows: 'all' });
  lines.push(...attributeLines(view.attributes, '      ', paint));
  if (view.hiddenUnchanged > 0) lines.push(`        # (${view.hiddenUnchanged} unchanged ${view.hiddenUnchanged === 1 ? 'attribute' : 'attributes'} hidden)`);
  lines.push('    }');
  return lines;
}

/** An object that only moved or is only imported, as Terraform shows it: the address, its identifying attributes. */
function renderMove(change: PlannedChange, paint: Paint): string[] {
  const headline = change.previousAddress !== undefined ? `${change.previousAddress} has moved to ${change.address}` : `${change.address} will be imported`;
  const lines = [paint('bold', `  # ${headline}`), `    resource "${change.type}" "${change.name}" {`];
  const view = viewChange(change, { deleteShows: 'all' });
  lines.push(...attributeLines(view.attributes, '      ', paint));
  if (view.hiddenUnchanged > 0) lines.push(`        # (${view.hiddenUnchanged} unchanged ${view.hiddenUnchanged === 1 ? 'attribute' : 'attributes'} hidden)`);
  lines.push('    }');
  return lines;
}

function renderDrift(drift: DriftedResource, sensitive: ReadonlySet<string>, paint: Paint): string[] {
  if (drift.action === 'delete') {
    return [`  ${paintMarker(paint, '-')} ${drift.address} ${paint('bold', 'deleted')} outside of tenantform`];
  }
  const lines = driftLines(drift.changes, sensitive, drift.type);
  if (lines.length === 0) return [];
  return [
    `  ${paintMarker(paint, '~')} ${drift.address} ${paint('bold', 'updated')} outside of tenantform`,
    ...lines.map((l) => {
      const show = (v: unknown) => (l.sensitive ? SENSITIVE_TEXT : formatValue(v));
      return `      ${formatPath(l.path)}: ${show(l.state)} -> ${show(l.live)}`;
    }),
  ];
}

const OUTPUT_MARKERS: Record<OutputChange['action'], string> = { create: '+', update: '~', delete: '-', 'no-op': ' ' };

/** Terraform's "Changes to Outputs:" block: names aligned, sensitive values masked. */
export function outputLines(outputs: ReadonlyArray<OutputChange>, paint: Paint = painter(false)): string[] {
  const sorted = [...outputs].sort((a, b) => a.name.localeCompare(b.name));
  const width = Math.max(0, ...sorted.map((o) => o.name.length));
  return sorted.flatMap((o) => {
    const head = `  ${paintMarker(paint, OUTPUT_MARKERS[o.action])} ${o.name.padEnd(width)} = `;
    if (!o.sensitive && !o.afterUnknown) {
      // Objects and lists one member a line, as Terraform writes them.
      const [first, ...rest] = changeLines(o, '  ', (marker) => paintMarker(paint, marker));
      return [`${head}${first}`, ...rest];
    }
    const show = (v: unknown) => (o.sensitive ? SENSITIVE_TEXT : formatValue(v));
    const after = o.afterUnknown ? UNKNOWN_TEXT : show(o.after);
    const value = o.action === 'create' ? after : o.action === 'delete' ? `${show(o.before)} -> null` : `${show(o.before)} -> ${after}`;
    return [`${head}${value}`];
  });
}

function onlyOutputsChange(plan: Plan): boolean {
  return actionableChanges(plan).length === 0;
}

/** The plan as a terminal reads it, in Terraform's layout. */
export function renderText(plan: Plan, options: TextOptions): string {
  return [...renderTextChunks(plan, options)].join('');
}

/**
 * The plan's text in chunks of a few lines (a change each), so that a plan of many thousand
 * changes is written as it is rendered instead of being built in memory first.
 */
export function* renderTextChunks(plan: Plan, options: TextOptions): Generator<string> {
  const paint = painter(options.color);
  let out: string[] = [];
  /** The lines so far, as one chunk. */
  const flush = (): string => {
    const chunk = out.length > 0 ? `${out.join('\n')}\n` : '';
    out = [];
    return chunk;
  };
  const sensitive = sensitiveByAddress(plan);

  const drifted = plan.drift.map((d) => renderDrift(d, sensitive.get(d.address) ?? new Set(), paint)).filter((lines) => lines.length > 0);
  if (drifted.length > 0) {
    out.push(paint('bold', 'Objects have changed outside of tenantform'), '');
    out.push('tenantform detected the following changes made outside of tenantform since the last apply:', '');
    for (const lines of drifted) out.push(...lines, '');
    out.push(
      plan.refreshOnly
        ? 'This is a refresh-only plan: applying it records these values in the state and changes nothing on the platform.'
        : 'Unless the configuration makes the same changes, the actions below undo them.',
      '',
    );
  }

  const changes = actionableChanges(plan);
  if (changes.length > 0) {
    const used = (Object.keys(MARKERS) as Array<keyof typeof MARKERS>).filter((a) => changes.some((c) => c.action === a && !c.forget));
    if (used.length > 0) {
      out.push('Resource actions are indicated with the following symbols:');
      for (const a of used) out.push(`${' '.repeat(3 - MARKERS[a].length)}${paintMarker(paint, MARKERS[a])} ${LEGEND[a]}`);
      out.push('');
    }
    out.push('tenantform will perform the following actions:', '');
    yield flush();
    for (const c of changes) yield `${[...renderChange(c, paint), ''].join('\n')}\n`;
  }

  const outputs = changedOutputs(plan);
  if (outputs.length > 0) out.push('Changes to Outputs:', ...outputLines(outputs, paint), '');

  if (plan.diagnostics.length > 0) {
    const secrets = secretTexts(plan);
    const compacted = options.compactWarnings ? plan.diagnostics.filter((d) => d.severity === 'warning') : [];
    for (const d of plan.diagnostics.filter((d) => !compacted.includes(d))) {
      const text = scrubSecrets(renderDiagnostic(d), secrets);
      const [head, ...rest] = text.split('\n');
      out.push(paint(d.severity === 'error' ? 'red' : 'yellow', head), ...rest, '');
    }
    if (compacted.length > 0) {
      out.push(paint('yellow', 'Warnings:'), '');
      for (const d of compacted) out.push(scrubSecrets(`- ${d.address ? `${d.address}: ` : ''}${d.summary}`, secrets));
      out.push('', 'To see the full warning notes, run tenantform without -compact-warnings.', '');
    }
  }

  if (plan.diagnostics.some((d) => d.severity === 'error')) {
    // The errors above are the result: a plan with errors is neither applied nor summarized as one.
    out.push(paint('bold', PLAN_FAILED_TEXT));
  } else if (hasChanges(plan) && !onlyOutputsChange(plan)) {
    const s = summarize(plan.changes);
    out.push(`${paint('bold', 'Plan:')} ${summaryText(s)}`);
  } else if (outputs.length > 0) {
    out.push(OUTPUTS_ONLY_TEXT);
  } else if (plan.refreshOnly && drifted.length > 0) {
    out.push(paint('bold', REFRESH_ONLY_TEXT));
  } else {
    out.push(paint('bold', plan.destroy ? NOTHING_TO_DESTROY_TEXT : NO_CHANGES_TEXT));
  }
  yield flush();
}
