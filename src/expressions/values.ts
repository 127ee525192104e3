import { Unknown } from '../resources/values';

/**
 * The values an expression produces. They are plain data so callers can use them directly:
 * strings, numbers, booleans, null, arrays (Terraform's lists and tuples), plain objects
 * (maps and objects), `SetValue` for sets, and `UNKNOWN` for a value not known until apply.
 */
export const UNKNOWN: typeof Unknown = Unknown;
export type UnknownValue = typeof UNKNOWN;

export type Value = null | string | number | boolean | UnknownValue | readonly Value[] | SetValue | SensitiveValue | ValueObject;
export interface ValueObject {
  readonly [key: string]: Value;
}

/**
 * A value marked sensitive (a sensitive variable, or anything computed from one). The mark
 * travels with the value through operators and functions, so callers can mask it everywhere.
 */
export class SensitiveValue {
  constructor(readonly value: Value) {}
}

/**
 * A set: unordered, without duplicates. Elements are kept in the order Terraform lists them
 * (strings lexicographically, numbers ascending, false before true; others as first seen).
 */
export class SetValue {
  readonly elements: readonly Value[];
  constructor(elements: readonly Value[]) {
    const unique: Value[] = [];
    for (const e of elements) if (!unique.some((u) => valuesEqual(u, e))) unique.push(e);
    this.elements = unique.sort(setOrder);
  }
}

function setOrder(a: Value, b: Value): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return 0;
}

export function isUnknown(v: Value): v is UnknownValue {
  return v === UNKNOWN;
}

export function isSet(v: Value): v is SetValue {
  return v instanceof SetValue;
}

export function isObject(v: Value): v is ValueObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof SetValue) && !(v instanceof SensitiveValue);
}

/** An object from entries; safe for any key (including `__proto__`). */
export function objectOf(entries: Iterable<readonly [string, Value]>): ValueObject {
  return Object.fromEntries<Value>(entries);
}

/** The object's entries, keys in lexicographic order (Terraform's iteration order). */
export function sortedEntries(o: ValueObject): Array<[string, Value]> {
  return Object.keys(o)
    .sort(compareKeys)
    .map((k) => [k, o[k]]);
}

/** Orders by UTF-8 bytes, as Go compares strings. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** True when nothing inside the value is unknown. */
export function isKnown(v: Value): boolean {
  if (v === UNKNOWN) return false;
  if (v instanceof SensitiveValue) return isKnown(v.value);
  if (Array.isArray(v)) return v.every(isKnown);
  if (v instanceof SetValue) return v.elements.every(isKnown);
  if (isObject(v)) return Object.values(v).every(isKnown);
  return true;
}

/** The number rounded to 15 significant decimal digits, the precision a double holds exactly. */
export function roundToDecimalPrecision(n: number): number {
  return Number.isFinite(n) ? Number(n.toPrecision(15)) : n;
}

/** Deep equality with Terraform's `==`: no conversion between types, sets unordered. */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return roundToDecimalPrecision(a) === roundToDecimalPrecision(b);
  if (a instanceof SensitiveValue) return valuesEqual(a.value, b);
  if (b instanceof SensitiveValue) return valuesEqual(a, b.value);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]));
  if (a instanceof SetValue && b instanceof SetValue)
    return a.elements.length === b.elements.length && a.elements.every((x) => b.elements.some((y) => valuesEqual(x, y)));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && valuesEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Terraform's decimal text of a number: never an exponent, integers without a fraction.
 * Terraform computes with 512-bit floats; numbers here are doubles, so fractions are rounded to
 * 15 significant digits, which gives Terraform's text whenever the exact result has no more
 * (0.1 + 0.2 is "0.3"). Results with more digits (1/3) agree only in their first 15 digits.
 */
export function formatNumber(n: number): string {
  if (Object.is(n, -0)) return '-0';
  if (Number.isInteger(n)) return BigInt(n).toString();
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  const rounded = roundToDecimalPrecision(n);
  if (Number.isInteger(rounded)) return BigInt(rounded).toString();
  const text = String(rounded);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const digits = m[2] + (m[3] ?? '');
  const exponent = Number(m[4]);
  if (exponent >= 0) return m[1] + digits.padEnd(exponent + 1, '0');
  return `${m[1]}0.${'0'.repeat(-exponent - 1)}${digits}`;
}

/** JSON text as Terraform's jsonencode writes it: keys sorted, sets as arrays, `<>&` escaped. */
export function toJson(v: Value): string {
  if (v === UNKNOWN) throw new TypeError('toJson: the value is not known');
  if (v instanceof SensitiveValue) return toJson(v.value);
  if (v === null) return 'null';
  if (typeof v === 'string') return jsonString(v);
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError('toJson: cannot serialize infinity');
    return formatNumber(v);
  }
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (v instanceof SetValue) return `[${v.elements.map(toJson).join(',')}]`;
  return `{${sortedEntries(v as ValueObject)
    .map(([k, x]) => `${jsonString(k)}:${toJson(x)}`)
    .join(',')}}`;
}

function jsonString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The value as plain JSON data (sets as arrays); throws on unknown values (test with isKnown first). */
export function toPlain(v: Value): unknown {
  return JSON.parse(toJson(v));
}

/** Terraform's name for the kind of a value, for messages. */
export function typeName(v: Value): string {
  if (v === UNKNOWN) return 'unknown value';
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'tuple';
  if (v instanceof SetValue) return 'set';
  if (v instanceof SensitiveValue) return typeName(v.value);
  return 'object';
}

/** True when the value or anything inside it is marked sensitive. */
export function containsSensitive(v: Value): boolean {
  if (v instanceof SensitiveValue) return true;
  if (Array.isArray(v)) return v.some(containsSensitive);
  if (v instanceof SetValue) return v.elements.some(containsSensitive);
  if (isObject(v)) return Object.values(v).some(containsSensitive);
  return false;
}

/** The value with every sensitive mark inside it removed. */
export function unmarkDeep(v: Value): Value {
  if (v instanceof SensitiveValue) return unmarkDeep(v.value);
  if (!containsSensitive(v)) return v;
  if (Array.isArray(v)) return v.map(unmarkDeep);
  if (v instanceof SetValue) return new SetValue(v.elements.map(unmarkDeep));
  if (isObject(v)) return objectOf(Object.entries(v).map(([k, x]) => [k, unmarkDeep(x)]));
  return v;
}

/** Marks the value sensitive (once) when `sensitive` is true. */
export function markIf(v: Value, sensitive: boolean): Value {
  return sensitive && !(v instanceof SensitiveValue) ? new SensitiveValue(v) : v;
}
