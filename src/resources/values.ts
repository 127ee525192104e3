import { createHash } from 'node:crypto';
import { attributeList, type Attribute, type Attributes, type NestedAttribute, type State } from './attributes';

/** Parses a JSON string; undefined when it is not JSON. */
export function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * JSON with object keys sorted, so equal values have equal text; keys named `omit` are left
 * out at every level. Written directly, without a sorted copy of the value; the text is
 * JSON.stringify's for such a copy.
 */
export function canonicalJson(value: unknown, omit?: string): string {
  return canonicalText(value, omit) as string;
}

/**
 * Keys in the order JSON.stringify writes them for a copy with sorted keys: JavaScript lists an
 * object's array-index keys ("0", "12") first, in numeric order, whatever the order they were
 * added in; the other keys follow, sorted.
 */
function sortedKeysOf(value: object): string[] {
  const keys = Object.keys(value);
  let indices = 0;
  while (indices < keys.length && isArrayIndex(keys[indices])) indices++;
  return indices === 0 ? keys.sort() : [...keys.slice(0, indices), ...keys.slice(indices).sort()];
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;
}

/** undefined where JSON.stringify leaves a value out (undefined, functions, symbols). */
function canonicalText(value: unknown, omit: string | undefined): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i > 0 ? ',' : ''}${canonicalText(value[i], omit) ?? 'null'}`;
    return `${out}]`;
  }
  let out = '{';
  for (const key of sortedKeysOf(value)) {
    if (key === omit) continue;
    const text = canonicalText((value as Record<string, unknown>)[key], omit);
    if (text !== undefined) out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${text}`;
  }
  return `${out}}`;
}

export function jsonEqual(a: unknown, b: unknown): boolean {
  const pa = parseJson(a);
  const pb = parseJson(b);
  if (pa === undefined || pb === undefined) return a === b;
  return canonicalJson(pa) === canonicalJson(pb);
}

/** Equality as a user means it: JSON semantically, lists in order, objects by attribute. */
export function valueEqual(a: Attribute, x: unknown, y: unknown): boolean {
  if (x === null || x === undefined || y === null || y === undefined) return (x ?? null) === (y ?? null);
  switch (a.type) {
    case 'json':
      return jsonEqual(x, y);
    case 'list':
      return Array.isArray(x) && Array.isArray(y) && sameItems(x, y);
    case 'object':
      return objectEqual(a.attributes, x as State, y as State);
    case 'nested':
      return nestedEqual(a, x, y);
    default:
      return x === y;
  }
}

function objectEqual(attributes: Attributes, x: State, y: State): boolean {
  return attributeList(attributes).every(({ name, attribute }) => valueEqual(attribute, x[name], y[name]));
}

/** A list by position, a set without order (each object of one found in the other), a map by key. */
function nestedEqual(a: NestedAttribute, x: unknown, y: unknown): boolean {
  if (a.nesting === 'map') {
    if (!isPlainObject(x) || !isPlainObject(y)) return false;
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length && keys.every((k) => k in y && objectEqual(a.attributes, x[k] as State, y[k] as State));
  }
  if (!Array.isArray(x) || !Array.isArray(y)) return false;
  if (a.nesting === 'list') return x.length === y.length && x.every((item, i) => objectEqual(a.attributes, item as State, y[i] as State));
  const left = new Set(x.map((item) => elementKey(a.attributes, item as State)));
  const right = new Set(y.map((item) => elementKey(a.attributes, item as State)));
  return left.size === right.size && [...left].every((k) => right.has(k));
}

/** The text that identifies a set's object by value: its attributes normalized, JSON compared parsed. */
export function elementKey(attributes: Attributes, element: State): string {
  return canonicalJson(comparableObject(attributes, normalize(attributes, element)));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function sameItems(x: readonly unknown[], y: readonly unknown[]): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * Fills every attribute of the schema: defaults for optional attributes left out, null
 * for the rest. Unknown keys are dropped (validation reports them first).
 */
export function normalize(attributes: Attributes, input: State | null | undefined): State {
  const out: State = {};
  const list = attributeList(attributes);
  // By index: this runs for every object, much of it before V8 optimizes the code, and until then
  // for-of makes an object at every step. The other per-object loops do the same.
  for (let i = 0; i < list.length; i++) {
    const { name, attribute: a } = list[i];
    let v = input?.[name];
    if ((v === undefined || v === null) && a.default !== undefined && a.mode !== 'computed') v = a.default;
    // An object known only after apply stays unknown as a whole.
    if (v !== undefined && v !== null && v !== Unknown) {
      if (a.type === 'object') v = normalize(a.attributes, v as State);
      else if (a.type === 'nested') v = normalizeNested(a, v);
    }
    out[name] = v === undefined ? null : v;
  }
  return out;
}

/**
 * Each object of a collection with its attributes filled in, as `normalize` fills one; an object
 * known only after apply stays unknown. A set holds an object once, whatever the times it is given.
 */
function normalizeNested(a: NestedAttribute, v: unknown): unknown {
  const one = (item: unknown) => (item === Unknown || item === null || typeof item !== 'object' ? item : normalize(a.attributes, item as State));
  if (a.nesting === 'map') return isPlainObject(v) ? Object.fromEntries(Object.entries(v).map(([k, item]) => [k, one(item)])) : v;
  if (!Array.isArray(v)) return v;
  const items = v.map(one);
  if (a.nesting === 'list' || containsUnknown(items)) return items;
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = elementKey(a.attributes, item as State);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/**
 * Keeps the recorded text of a JSON attribute when the platform's value means the same, so
 * that reformatting never shows as a change. With no recorded text (an import, a value set
 * outside), writes the platform's value with its keys sorted, as `jsonencode` orders them (so a
 * configuration that `terraform plan -generate-config-out` writes has the same text) and as
 * `JSON.stringify` writes an exported cdktf app's literal. Where the two differ (jsonencode
 * escapes `<`, `>` and `&`), JSON.stringify's text is kept.
 */
export function preserveJsonText(attributes: Attributes, recorded: State | null, live: State): State {
  const out: State = { ...live };
  for (const { name, attribute: a } of attributeList(attributes)) {
    if (a.type !== 'json' || typeof live[name] !== 'string') continue;
    if (recorded && recorded[name] !== null && recorded[name] !== undefined && jsonEqual(recorded[name], live[name])) out[name] = recorded[name];
    else {
      const parsed = parseJson(live[name]);
      if (parsed !== undefined) out[name] = canonicalJson(parsed);
    }
  }
  return out;
}

/** A stable digest of an object, for plans to detect change where there is no version. */
export function fingerprint(attributes: Attributes, state: State): string {
  return createHash('sha256')
    .update(canonicalJson(comparableObject(attributes, state)))
    .digest('hex')
    .slice(0, 16);
}

/** An object as compared: JSON parsed, sets in one order, so equal values have equal text. */
function comparableObject(attributes: Attributes, state: State): State {
  const out: State = {};
  for (const { name, attribute: a } of attributeList(attributes)) out[name] = comparableValue(a, state[name]);
  return out;
}

function comparableValue(a: Attribute, v: unknown): unknown {
  if (v === null || v === undefined || v === Unknown) return v ?? null;
  switch (a.type) {
    case 'json':
      return parseJson(v) ?? v;
    case 'object':
      return comparableObject(a.attributes, v as State);
    case 'nested': {
      const one = (item: unknown) => (isPlainObject(item) ? comparableObject(a.attributes, item) : item);
      if (a.nesting === 'map') return isPlainObject(v) ? Object.fromEntries(Object.entries(v).map(([k, item]) => [k, one(item)])) : v;
      if (!Array.isArray(v)) return v;
      const items = v.map(one);
      return a.nesting === 'set' ? items.map((item) => canonicalJson(item)).sort() : items;
    }
    default:
      return v;
  }
}

export function hashSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret).digest('hex')}`;
}

/**
 * A value not known until apply (a reference to an attribute the platform will
 * compute). Validation and planning skip it; renderers show `(known after apply)`.
 */
export const Unknown: unique symbol = Symbol.for('tenantform.unknown');
export type UnknownValue = typeof Unknown;

export function isUnknown(v: unknown): v is UnknownValue {
  return v === Unknown;
}

/** True when the value or anything inside it is unknown. */
export function containsUnknown(v: unknown): boolean {
  if (v === Unknown) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v && typeof v === 'object') return Object.values(v).some(containsUnknown);
  return false;
}
