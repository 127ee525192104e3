import { isUnknown } from '../../resources/values';
import { displayText } from '../../api/display-text';
import { formatValue } from './diff';

/**
 * Values written over several lines, as Terraform writes them: `terraform output` and
 * `terraform console` (maps with quoted keys, one entry a line, a comma after each list element),
 * `terraform state show` (attributes by name, `=` aligned, nulls left out), and the changes of an
 * output in a plan (one line per key that changes, the others counted).
 */

type Plain = Readonly<Record<string, unknown>>;

const isObject = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v) && !isUnknown(v);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const keyText = (key: string) => (IDENTIFIER.test(key) ? key : displayText(JSON.stringify(key)));

/** A value as `terraform output` prints it. */
export function outputValueText(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : `[\n${value.map((v) => `${inner}${outputValueText(v, inner)},\n`).join('')}${indent}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${inner}${displayText(JSON.stringify(k))} = ${outputValueText(v, inner)}\n`).join('')}${indent}}`;
  }
  return formatValue(value);
}

/** An attribute's value as `terraform state show` prints it: four spaces a level. */
export function stateValueText(value: unknown, indent: string): string {
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : `[\n${value.map((v) => `${inner}${stateValueText(v, inner)},\n`).join('')}${indent}]`;
  }
  if (isObject(value)) return objectLines(value, inner).length === 0 ? '{}' : `{\n${objectLines(value, inner).join('')}${indent}}`;
  return formatValue(value);
}

/** The members of an object that have a value, sorted by name, `=` aligned. */
function objectLines(value: Plain, indent: string): string[] {
  const entries = Object.entries(value)
    .filter(([, v]) => v !== null && v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const width = Math.max(0, ...entries.map(([k]) => keyText(k).length));
  return entries.map(([k, v]) => `${indent}${keyText(k).padEnd(width)} = ${stateValueText(v, indent)}\n`);
}

/** Writes a line with its marker (painted, where the caller paints). */
export type Marker = (marker: '+' | '-' | '~' | ' ') => string;

/**
 * The lines of one output's change after its `name = `: a scalar on that line; an object or a
 * list opened there, each member added, removed or changed on its own line, unchanged ones counted.
 */
export function valueChangeLines(before: unknown, after: unknown, indent: string, mark: Marker): string[] {
  if (isObject(before) && isObject(after)) return objectChange(before, after, indent, mark);
  if (Array.isArray(before) && Array.isArray(after)) return listChange(before, after, indent, mark);
  if (before === undefined || before === null) return whole(after, '+', indent, mark);
  if (after === undefined || after === null) return withNull(whole(before, '-', indent, mark));
  return [`${formatValue(before)} -> ${formatValue(after)}`];
}

/** An output's value added (`after` only), removed (`before` only) or changed, as the lines after its `name = `. */
export function changeLines(
  change: { before?: unknown; after?: unknown; action: 'create' | 'update' | 'delete' | 'no-op' },
  indent: string,
  mark: Marker,
): string[] {
  if (change.action === 'create') return whole(change.after, '+', indent, mark);
  if (change.action === 'delete') return withNull(whole(change.before, '-', indent, mark));
  return valueChangeLines(change.before, change.after, indent, mark);
}

function withNull(lines: string[]): string[] {
  lines[lines.length - 1] += ' -> null';
  return lines;
}

/** A value added or removed whole, every member marked. */
function whole(value: unknown, marker: '+' | '-', indent: string, mark: Marker): string[] {
  const inner = `${indent}    `;
  if (Array.isArray(value) && value.length > 0) {
    const lines = ['['];
    for (const v of value) {
      const [first, ...rest] = whole(v, marker, inner, mark);
      lines.push(`${inner}${mark(marker)} ${first}`, ...rest);
      lines[lines.length - 1] += ',';
    }
    return [...lines, `${indent}  ]`];
  }
  if (isObject(value) && Object.keys(value).length > 0) {
    const entries = Object.entries(value);
    const width = Math.max(...entries.map(([k]) => keyText(k).length));
    const lines = ['{'];
    for (const [k, v] of entries) {
      const [first, ...rest] = whole(v, marker, inner, mark);
      lines.push(`${inner}${mark(marker)} ${keyText(k).padEnd(width)} = ${first}`, ...rest);
    }
    return [...lines, `${indent}  }`];
  }
  return [formatValue(value)];
}

function objectChange(before: Plain, after: Plain, indent: string, mark: Marker): string[] {
  const inner = `${indent}    `;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const width = Math.max(0, ...keys.map((k) => keyText(k).length));
  const lines = ['{'];
  let hidden = 0;
  for (const k of keys) {
    const b = before[k];
    const a = after[k];
    if (same(b, a)) {
      hidden++;
      continue;
    }
    const marker = !Object.hasOwn(before, k) ? '+' : !Object.hasOwn(after, k) ? '-' : '~';
    const [first, ...rest] =
      marker === '~' ? valueChangeLines(b, a, inner, mark) : marker === '+' ? whole(a, '+', inner, mark) : withNull(whole(b, '-', inner, mark));
    lines.push(`${inner}${mark(marker)} ${keyText(k).padEnd(width)} = ${first}`, ...rest);
  }
  if (hidden > 0) lines.push(`${inner}  # (${hidden} unchanged attribute${hidden === 1 ? '' : 's'} hidden)`);
  return [...lines, `${indent}  }`];
}

type ListEntry =
  | { readonly kind: 'same'; readonly value: unknown }
  | { readonly kind: 'add' | 'remove'; readonly value: unknown }
  | { readonly kind: 'update'; readonly before: unknown; readonly after: unknown };

/**
 * Lists compared as Terraform compares them: the longest common subsequence stays, an element
 * removed where another is added is one element changed, and an unchanged element is shown only
 * next to a change (the others counted where they are).
 */
function listChange(before: readonly unknown[], after: readonly unknown[], indent: string, mark: Marker): string[] {
  const inner = `${indent}    `;
  const entries = listEntries(before, after);
  const lines = ['['];
  let hidden = 0;
  const flush = () => {
    if (hidden > 0) lines.push(`${inner}  # (${hidden} unchanged element${hidden === 1 ? '' : 's'} hidden)`);
    hidden = 0;
  };
  entries.forEach((e, i) => {
    if (e.kind === 'same') {
      const nextToChange = [entries[i - 1], entries[i + 1]].some((n) => n !== undefined && n.kind !== 'same');
      if (!nextToChange) {
        hidden++;
        return;
      }
      flush();
      lines.push(`${inner}${mark(' ')} ${formatValue(e.value)},`);
      return;
    }
    flush();
    const [marker, first, rest] =
      e.kind === 'update'
        ? (['~', ...split(valueChangeLines(e.before, e.after, inner, mark))] as const)
        : ([e.kind === 'add' ? '+' : '-', ...split(whole(e.value, e.kind === 'add' ? '+' : '-', inner, mark))] as const);
    lines.push(`${inner}${mark(marker)} ${first}`, ...rest);
    lines[lines.length - 1] += ',';
  });
  flush();
  return [...lines, `${indent}  ]`];
}

const split = (lines: string[]): [string, string[]] => [lines[0], lines.slice(1)];

function listEntries(before: readonly unknown[], after: readonly unknown[]): ListEntry[] {
  // lengths[i][j]: the longest common subsequence of before[i..] and after[j..].
  const lengths = Array.from({ length: before.length + 1 }, () => new Array<number>(after.length + 1).fill(0));
  for (let i = before.length - 1; i >= 0; i--) {
    for (let j = after.length - 1; j >= 0; j--) {
      lengths[i][j] = same(before[i], after[j]) ? lengths[i + 1][j + 1] + 1 : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
    }
  }
  const entries: ListEntry[] = [];
  let removed: unknown[] = [];
  let added: unknown[] = [];
  const settle = () => {
    // Removed and added between the same kept elements: paired, they are elements changed.
    const paired = Math.min(removed.length, added.length);
    for (let k = 0; k < paired; k++) entries.push({ kind: 'update', before: removed[k], after: added[k] });
    for (const value of removed.slice(paired)) entries.push({ kind: 'remove', value });
    for (const value of added.slice(paired)) entries.push({ kind: 'add', value });
    removed = [];
    added = [];
  };
  let i = 0;
  let j = 0;
  while (i < before.length || j < after.length) {
    if (i < before.length && j < after.length && same(before[i], after[j])) {
      settle();
      entries.push({ kind: 'same', value: before[i] });
      i++;
      j++;
    } else if (j >= after.length || (i < before.length && lengths[i + 1][j] >= lengths[i][j + 1])) {
      removed.push(before[i++]);
    } else {
      added.push(after[j++]);
    }
  }
  settle();
  return entries;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
