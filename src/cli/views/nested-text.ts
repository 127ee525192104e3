import { attributeList, type Attribute, type Attributes, type NestedAttribute } from '../../resources/attributes';
import type { State } from '../../resources/declaration';
import { elementKey, isUnknown, valueEqual } from '../../resources/values';
import { formatValue } from './diff';

/**
 * A change inside a list, set or map of objects, written as Terraform's plan writes it: each
 * element added (`+ {`), removed (`- {`) or changed in place (`~ {`) with its own attributes,
 * unchanged elements and attributes counted in `# (n unchanged ... hidden)` lines. A list is
 * compared by position, a set by value, a map by key.
 */

/** Writes a line with its change marker; `' '` for a line that does not change. */
export type Mark = (marker: '+' | '-' | '~' | ' ') => string;

type Kind = 'add' | 'remove' | 'change';

const MARKERS: Record<Kind, '+' | '-' | '~'> = { add: '+', remove: '-', change: '~' };

/** Attributes Terraform shows in a changed object even when they do not change. */
const ALWAYS_SHOWN = new Set(['id', 'name', 'tags']);

const present = (v: unknown) => v !== null && v !== undefined;

function plural(n: number, noun: string): string {
  return `${n} unchanged ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The lines of one nested attribute that changes, from `name = [` to its closing bracket;
 * `indent` is where its marker goes and `width` the column its `=` aligns to.
 */
export function nestedAttributeLines(name: string, a: NestedAttribute, before: unknown, after: unknown, indent: string, width: number, mark: Mark): string[] {
  const kind: Kind = !present(before) ? 'add' : !present(after) ? 'remove' : 'change';
  const head = `${indent}${mark(MARKERS[kind])} ${name.padEnd(width)} = `;
  if (isUnknown(after)) return [`${head}${formatValue(before)} -> (known after apply)`];
  const [open, close] = a.nesting === 'map' ? ['{', '}'] : ['[', ']'];
  const inner = `${indent}    `;
  const lines = [`${head}${open}`];
  const elements = elementChanges(a, before, after);
  // Unchanged elements are counted once, after the others, whatever the nesting.
  let hidden = 0;
  for (const e of elements) {
    if (e.kind === 'same') {
      hidden++;
      continue;
    }
    const label = e.key === undefined ? '' : `${JSON.stringify(e.key)} = `;
    lines.push(`${inner}${mark(MARKERS[e.kind])} ${label}{`);
    lines.push(...objectLines(a.attributes, e.kind, e.before, e.after, `${inner}    `, mark));
    lines.push(`${inner}  }${a.nesting === 'map' ? '' : ','}`);
  }
  if (hidden > 0) lines.push(`${inner}  # (${plural(hidden, 'element')} hidden)`);
  lines.push(`${indent}  ${close}${kind === 'remove' ? ' -> null' : ''}`);
  return lines;
}

interface ElementChange {
  readonly kind: Kind | 'same';
  readonly key?: string;
  readonly before: State | null;
  readonly after: State | null;
}

function elementChanges(a: NestedAttribute, before: unknown, after: unknown): ElementChange[] {
  if (a.nesting === 'map') {
    const b = (before ?? {}) as Record<string, State>;
    const n = (after ?? {}) as Record<string, State>;
    return [...new Set([...Object.keys(b), ...Object.keys(n)])].sort().map((key) => elementChange(a.attributes, b[key] ?? null, n[key] ?? null, key));
  }
  const b = (before ?? []) as State[];
  const n = (after ?? []) as State[];
  if (a.nesting === 'list') {
    return Array.from({ length: Math.max(b.length, n.length) }, (_, i) => elementChange(a.attributes, b[i] ?? null, n[i] ?? null));
  }
  // A set's element is its value: one that changes is one removed and another added.
  const afterKeys = new Set(n.map((e) => elementKey(a.attributes, e)));
  const beforeKeys = new Set(b.map((e) => elementKey(a.attributes, e)));
  return [
    ...b.map((e): ElementChange =>
      afterKeys.has(elementKey(a.attributes, e)) ? { kind: 'same', before: e, after: e } : { kind: 'remove', before: e, after: null },
    ),
    ...n.filter((e) => !beforeKeys.has(elementKey(a.attributes, e))).map((e): ElementChange => ({ kind: 'add', before: null, after: e })),
  ];
}

function elementChange(attributes: Attributes, before: State | null, after: State | null, key?: string): ElementChange {
  const kind = before === null ? 'add' : after === null ? 'remove' : objectEqual(attributes, before, after) ? 'same' : 'change';
  return { kind, before, after, ...(key === undefined ? {} : { key }) };
}

function objectEqual(attributes: Attributes, x: State, y: State): boolean {
  return attributeList(attributes).every(({ name, attribute }) => valueEqual(attribute, x[name], y[name]));
}

/**
 * The attributes of an object added, removed or changed, sorted by name as Terraform sorts them;
 * names align over every attribute that has a value on either side.
 */
function objectLines(attributes: Attributes, kind: Kind, before: State | null, after: State | null, indent: string, mark: Mark): string[] {
  const names = attributeList(attributes)
    .filter(({ name }) => present(before?.[name]) || present(after?.[name]))
    .sort((x, y) => (x.name < y.name ? -1 : 1));
  const width = Math.max(0, ...names.map(({ name }) => name.length));
  const lines: string[] = [];
  let hidden = 0;
  for (const { name, attribute } of names) {
    const b = kind === 'add' ? null : (before?.[name] ?? null);
    const n = kind === 'remove' ? null : (after?.[name] ?? null);
    if (kind === 'change' && valueEqual(attribute, b, n)) {
      if (ALWAYS_SHOWN.has(name)) lines.push(`${indent}${mark(' ')} ${name.padEnd(width)} = ${formatValue(b)}`);
      else hidden++;
      continue;
    }
    lines.push(...memberLines(name, attribute, b, n, indent, width, mark));
  }
  if (hidden > 0) lines.push(`${indent}  # (${plural(hidden, 'attribute')} hidden)`);
  return lines;
}

function memberLines(name: string, a: Attribute, before: unknown, after: unknown, indent: string, width: number, mark: Mark): string[] {
  const kind: Kind = !present(before) ? 'add' : !present(after) ? 'remove' : 'change';
  if (a.type === 'nested') return nestedAttributeLines(name, a, before, after, indent, width, mark);
  const head = `${indent}${mark(MARKERS[kind])} ${name.padEnd(width)} = `;
  if (a.type === 'object' && !isUnknown(before) && !isUnknown(after)) {
    const lines = [`${head}{`, ...objectLines(a.attributes, kind, before as State | null, after as State | null, `${indent}    `, mark)];
    lines.push(`${indent}  }${kind === 'remove' ? ' -> null' : ''}`);
    return lines;
  }
  switch (kind) {
    case 'add':
      return [`${head}${formatValue(after)}`];
    case 'remove':
      return [`${head}${formatValue(before)} -> null`];
    default:
      return [`${head}${formatValue(before)} -> ${formatValue(after)}`];
  }
}
