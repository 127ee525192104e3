import deepDiff from 'deep-diff';
import type { AttributePath } from '../../diagnostics';
import type { AttributeDrift, Plan, PlannedChange } from '../../plans/model';
import type { NestedAttribute } from '../../resources/attributes';
import { KINDS } from '../../resources/registry';
import { containsUnknown, elementKey, isUnknown } from '../../resources/values';
import { parsePlainJson } from '../../plain-json';
import { displayText } from '../../api/display-text';

/**
 * The attribute-level view of a planned change, shared by the text and markdown
 * renderers: which attributes to show, and for structured values (objects, JSON
 * strings) which leaves moved. JSON strings are compared parsed, so key order and
 * formatting never show as a change.
 */

export type LineKind = 'add' | 'remove' | 'change' | 'same';

/** One leaf of an attribute's value: a scalar, a list of scalars, or an empty container. */
export interface LeafChange {
  /** Relative to the attribute; empty for a scalar attribute. */
  readonly path: AttributePath;
  readonly kind: LineKind;
  readonly before: unknown;
  readonly after: unknown;
  readonly forcesReplacement: boolean;
}

export interface AttributeChange {
  readonly name: string;
  readonly kind: LineKind;
  /** `json`: a string holding a JSON object or array, shown parsed. */
  readonly structure: 'scalar' | 'object' | 'json';
  readonly sensitive: boolean;
  /** The attribute itself (not one of its leaves) forces replacement. */
  readonly forcesReplacement: boolean;
  readonly leaves: LeafChange[];
  /** A list, set or map of objects: its declaration and both values, for renderers that write it whole. */
  readonly nested?: { readonly attribute: NestedAttribute; readonly before: unknown; readonly after: unknown };
}

export interface ChangeView {
  readonly attributes: AttributeChange[];
  /** Attributes left out because they do not change. */
  readonly hiddenUnchanged: number;
}

export interface ViewOptions {
  /** What a destroy lists: every attribute (Terraform's text) or the identifying ones. */
  readonly deleteShows?: 'all' | 'identifying';
}

export const SENSITIVE_TEXT = '(sensitive value)';
export const UNKNOWN_TEXT = '(known after apply)';

/**
 * The parsed value of a string holding a JSON object or array; undefined otherwise. JSON nested
 * past the plain-data limit stays a string, since showing it opened would recurse without bound.
 */
export function jsonStructure(value: unknown): object | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  let parsed: unknown;
  try {
    parsed = parsePlainJson(value);
  } catch {
    return undefined;
  }
  return parsed !== null && typeof parsed === 'object' ? parsed : undefined;
}

function isStructured(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

function isScalarList(value: unknown): boolean {
  return Array.isArray(value) && value.every((v) => !isStructured(v));
}

/** The value as compared: JSON strings parsed, undefined as null. */
function comparable(value: unknown): unknown {
  return jsonStructure(value) ?? value ?? null;
}

export function semanticallyEqual(a: unknown, b: unknown): boolean {
  const x = comparable(a);
  const y = comparable(b);
  if (!isStructured(x) || !isStructured(y)) return x === y;
  return deepDiff.diff(x, y) === undefined;
}

function comparePaths(a: AttributePath, b: AttributePath): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

function valueAt(root: unknown, path: AttributePath): unknown {
  let v = root;
  for (const step of path) {
    if (!isStructured(v)) return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}

/** Leaves of a value: objects and lists of objects are opened, lists of scalars kept whole. */
function flatten(value: unknown, path: AttributePath, out: Array<{ path: AttributePath; value: unknown }>): void {
  if (!isStructured(value) || (isScalarList(value) && (value as unknown[]).length > 0)) {
    out.push({ path, value });
    return;
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  if (entries.length === 0) {
    out.push({ path, value });
    return;
  }
  for (const [key, v] of entries) flatten(v, [...path, key], out);
}

function leavesOf(value: unknown, kind: 'add' | 'remove' | 'same'): LeafChange[] {
  const flat: Array<{ path: AttributePath; value: unknown }> = [];
  flatten(comparable(value), [], flat);
  return flat
    .filter((leaf) => leaf.path.length === 0 || leaf.value !== null)
    .map((leaf) => ({
      path: leaf.path,
      kind,
      before: kind === 'add' ? null : leaf.value,
      after: kind === 'remove' ? null : leaf.value,
      forcesReplacement: false,
    }));
}

/**
 * The leaves that differ between two values. A change inside a list of scalars shows
 * the whole list; an added or removed object shows each of its leaves.
 */
export function leafChanges(before: unknown, after: unknown): LeafChange[] {
  const x = comparable(before);
  const y = comparable(after);
  if (!isStructured(x) || !isStructured(y)) {
    if (x === y) return [];
    return [{ path: [], kind: x === null ? 'add' : y === null ? 'remove' : 'change', before: x, after: y, forcesReplacement: false }];
  }
  const byPath = new Map<string, LeafChange>();
  const add = (leaf: LeafChange) => byPath.set(JSON.stringify(leaf.path), leaf);
  for (const d of deepDiff.diff(x, y) ?? []) {
    const full: AttributePath = d.kind === 'A' ? [...(d.path ?? []), d.index] : (d.path ?? []);
    const listAt = full.findIndex((_, i) => {
      const prefix = full.slice(0, i);
      return isScalarList(valueAt(x, prefix)) && isScalarList(valueAt(y, prefix));
    });
    if (listAt >= 0) {
      const prefix = full.slice(0, listAt);
      add({ path: prefix, kind: 'change', before: valueAt(x, prefix), after: valueAt(y, prefix), forcesReplacement: false });
      continue;
    }
    const lhs = valueAt(x, full);
    const rhs = valueAt(y, full);
    if (lhs === undefined || lhs === null) {
      for (const leaf of leavesOf(rhs, 'add')) add({ ...leaf, path: [...full, ...leaf.path] });
    } else if (rhs === undefined || rhs === null) {
      for (const leaf of leavesOf(lhs, 'remove')) add({ ...leaf, path: [...full, ...leaf.path] });
    } else {
      add({ path: full, kind: 'change', before: lhs, after: rhs, forcesReplacement: false });
    }
  }
  return [...byPath.values()].sort((a, b) => comparePaths(a.path, b.path));
}

/**
 * The leaves of a set of objects that changes: an element is its value, so each one not on the
 * other side is removed (at its index before) or added (at its index after), never "changed".
 */
function setLeafChanges(a: NestedAttribute, before: unknown, after: unknown): LeafChange[] {
  const b = Array.isArray(before) ? before : [];
  const n = Array.isArray(after) ? after : [];
  if (containsUnknown(b) || containsUnknown(n)) return leafChanges(before, after);
  const keysOf = (items: readonly unknown[]) => new Set(items.map((e) => elementKey(a.attributes, e as Record<string, unknown>)));
  const beforeKeys = keysOf(b);
  const afterKeys = keysOf(n);
  const out: LeafChange[] = [];
  b.forEach((e, i) => {
    if (!afterKeys.has(elementKey(a.attributes, e as Record<string, unknown>)))
      for (const leaf of leavesOf(e, 'remove')) out.push({ ...leaf, path: [i, ...leaf.path] });
  });
  n.forEach((e, i) => {
    if (!beforeKeys.has(elementKey(a.attributes, e as Record<string, unknown>)))
      for (const leaf of leavesOf(e, 'add')) out.push({ ...leaf, path: [i, ...leaf.path] });
  });
  return out;
}

/** The attributes of both sides, sorted by name as terraform's plan lists them. */
function attributeNames(change: PlannedChange): string[] {
  return [...new Set([...Object.keys(change.before ?? {}), ...Object.keys(change.after ?? {})])].sort();
}

function structureOf(before: unknown, after: unknown): AttributeChange['structure'] {
  const sample = [before, after].find((v) => v !== null && v !== undefined && !isUnknown(v));
  if (jsonStructure(sample)) return 'json';
  if (isStructured(sample) && !isScalarList(sample)) return 'object';
  return 'scalar';
}

function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/** The attributes a renderer shows for one planned change, by name. */
export function viewChange(change: PlannedChange, options: ViewOptions = {}): ChangeView {
  const before = change.before ?? {};
  const after = change.after ?? {};
  const sensitive = new Set(change.sensitive);
  const identifying = new Set(change.identifying);
  const replacing = change.requiresReplace.filter((p) => p.length > 0);
  const names = attributeNames(change);
  const attributes: AttributeChange[] = [];
  let hiddenUnchanged = 0;
  const declared = KINDS.ofMode(change.mode === 'data' ? 'data' : 'managed', change.type)?.attributes;
  const nestedOf = (name: string, b: unknown, a: unknown): Pick<AttributeChange, 'nested'> => {
    const attribute = declared?.[name];
    return attribute?.type === 'nested' && !sensitive.has(name) ? { nested: { attribute, before: b ?? null, after: a ?? null } } : {};
  };

  const whole = (name: string, kind: 'add' | 'remove' | 'same', value: unknown): AttributeChange => {
    const isSecret = sensitive.has(name);
    const structure = isSecret || isUnknown(value) ? 'scalar' : structureOf(value, value);
    const leaves =
      structure === 'scalar'
        ? [{ path: [], kind, before: kind === 'add' ? null : value, after: kind === 'remove' ? null : value, forcesReplacement: false }]
        : leavesOf(value, kind);
    return { name, kind, structure, sensitive: isSecret, forcesReplacement: false, leaves };
  };

  for (const name of names) {
    const b = before[name];
    const a = after[name];
    if (change.action === 'create') {
      // A list, set or map of objects is written nested, as on update (Terraform writes it so).
      if (isPresent(a)) attributes.push({ ...whole(name, 'add', a), ...nestedOf(name, null, a) });
      continue;
    }
    if (change.action === 'delete' || change.action === 'no-op') {
      const listed =
        change.action === 'delete' && isPresent(b) && (options.deleteShows !== 'identifying' || identifying.has(name) || change.identifying.length === 0);
      if (listed) attributes.push(change.action === 'delete' ? { ...whole(name, 'remove', b), ...nestedOf(name, b, null) } : whole(name, 'same', b));
      else if (isPresent(b)) hiddenUnchanged++;
      continue;
    }
    const forcingPaths = replacing.filter((p) => p[0] === name);
    const candidate = change.changed.includes(name) || containsUnknown(a) || forcingPaths.length > 0;
    const differs = sensitive.has(name) ? change.changed.includes(name) : !semanticallyEqual(b, a);
    if (!candidate || !differs) {
      if (identifying.has(name) && isPresent(b)) {
        const same = whole(name, 'same', b);
        attributes.push(forcingPaths.length > 0 ? { ...same, forcesReplacement: true } : same);
      } else if (isPresent(b) || isPresent(a)) {
        hiddenUnchanged++;
      }
      continue;
    }
    const kind: LineKind = !isPresent(b) ? 'add' : !isPresent(a) ? 'remove' : 'change';
    if (kind !== 'change') {
      attributes.push({ ...whole(name, kind, kind === 'add' ? a : b), forcesReplacement: forcingPaths.length > 0, ...nestedOf(name, b, a) });
      continue;
    }
    const opaque = sensitive.has(name) || isUnknown(a) || isUnknown(b);
    const structure = opaque ? 'scalar' : structureOf(b, a);
    const forcesWhole = forcingPaths.some((p) => p.length === 1);
    if (structure === 'scalar') {
      const leaf: LeafChange = { path: [], kind, before: b ?? null, after: a ?? null, forcesReplacement: false };
      attributes.push({ name, kind, structure, sensitive: sensitive.has(name), forcesReplacement: forcingPaths.length > 0, leaves: [leaf] });
      continue;
    }
    const nested = nestedOf(name, b, a);
    const setOf = nested.nested?.attribute.nesting === 'set' ? nested.nested.attribute : undefined;
    const leaves = (setOf ? setLeafChanges(setOf, b, a) : leafChanges(b, a)).map((leaf) => ({
      ...leaf,
      forcesReplacement: forcingPaths.some((p) => p.length > 1 && comparePaths(p.slice(1), leaf.path) === 0),
    }));
    const nestedMarked = leaves.some((l) => l.forcesReplacement);
    attributes.push({
      name,
      kind,
      structure,
      sensitive: false,
      forcesReplacement: forcesWhole || (forcingPaths.length > 0 && !nestedMarked),
      leaves,
      ...nested,
    });
  }
  return { attributes, hiddenUnchanged };
}

export interface DriftLine {
  readonly path: AttributePath;
  readonly state: unknown;
  readonly live: unknown;
  readonly sensitive: boolean;
}

/**
 * Drifted attributes as leaf lines; a JSON value that only moved keys gives none, and a set of
 * objects (of the resource `type`) shows the elements that differ, whatever their order.
 */
export function driftLines(changes: ReadonlyArray<AttributeDrift>, sensitiveNames: ReadonlySet<string>, type?: string): DriftLine[] {
  const lines: DriftLine[] = [];
  const declared = type === undefined ? undefined : KINDS.resource(type)?.attributes;
  for (const c of changes) {
    const head = c.path[0];
    if (typeof head === 'string' && sensitiveNames.has(head)) {
      lines.push({ path: c.path, state: c.state, live: c.live, sensitive: true });
      continue;
    }
    const attribute = c.path.length === 1 && typeof head === 'string' ? declared?.[head] : undefined;
    const leaves = attribute?.type === 'nested' && attribute.nesting === 'set' ? setLeafChanges(attribute, c.state, c.live) : leafChanges(c.state, c.live);
    for (const leaf of leaves) {
      lines.push({ path: [...c.path, ...leaf.path], state: leaf.before, live: leaf.after, sensitive: false });
    }
  }
  return lines;
}

/** Sensitive attribute names per address, so drift of the same object is masked too. */
export function sensitiveByAddress(plan: Plan): Map<string, ReadonlySet<string>> {
  const map = new Map<string, ReadonlySet<string>>();
  // Objects of one kind share their list of sensitive names: one set per list.
  const setOf = new Map<readonly string[], ReadonlySet<string>>();
  for (const c of plan.changes) {
    let names = setOf.get(c.sensitive);
    if (!names) setOf.set(c.sensitive, (names = new Set(c.sensitive)));
    map.set(c.address, names);
  }
  return map;
}

/** A value on one line: strings quoted, lists and objects in JSON notation. */
export function formatValue(value: unknown): string {
  if (isUnknown(value)) return UNKNOWN_TEXT;
  if (value === null || value === undefined) return 'null';
  // JSON escapes the C0 controls; displayText the C1 ones and the bidirectional overrides.
  if (typeof value === 'string') return displayText(JSON.stringify(value));
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${displayText(JSON.stringify(k))}: ${formatValue(v)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  return String(value);
}

// Shorter secrets are left alone: masking them inside free text would garble it.
const MIN_SCRUBBED_LENGTH = 4;

/** Every sensitive value the plan holds, as text, to mask them inside free text. */
export function secretTexts(plan: Plan): string[] {
  const secrets = new Set<string>();
  const addValue = (v: unknown) => {
    if (v === null || v === undefined || isUnknown(v)) return;
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    if (text && text.length >= MIN_SCRUBBED_LENGTH) secrets.add(text);
  };
  const sensitive = sensitiveByAddress(plan);
  for (const c of plan.changes) {
    for (const name of c.sensitive) {
      addValue(c.before?.[name]);
      addValue(c.after?.[name]);
    }
  }
  for (const d of plan.drift) {
    const names = sensitive.get(d.address) ?? new Set<string>();
    for (const name of names) {
      addValue(d.before?.[name]);
      addValue(d.after?.[name]);
    }
    for (const c of d.changes) {
      if (typeof c.path[0] === 'string' && names.has(c.path[0])) {
        addValue(c.state);
        addValue(c.live);
      }
    }
  }
  // Longest first, so a secret containing another is masked whole.
  return [...secrets].sort((a, b) => b.length - a.length);
}

export function scrubSecrets(text: string, secrets: ReadonlyArray<string>): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join(SENSITIVE_TEXT);
  return out;
}

/** Changes a renderer lists: managed resources that do something. */
/** The changes a plan shows: every action, and objects that only moved (`moved` blocks). */
export function actionableChanges(plan: Plan): PlannedChange[] {
  return plan.changes.filter((c) => c.mode === 'managed' && (c.action !== 'no-op' || c.previousAddress !== undefined || c.importing !== undefined));
}
