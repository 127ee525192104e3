import { formatNumber, isObject, isSet, SensitiveValue, typeName, UNKNOWN, type Value } from './values';

/**
 * Terraform's automatic conversions between primitive types: numbers and booleans become
 * their text where a string is wanted; a string becomes a number or a boolean when its text is one.
 * Each returns undefined when the value cannot be converted.
 */

export function asString(v: Value): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return String(v);
  return undefined;
}

const DECIMAL = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export function asNumber(v: Value): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && DECIMAL.test(v)) return Number(v);
  return undefined;
}

export function asBool(v: Value): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  return undefined;
}

export function isPrimitive(v: Value): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** The elements of a list, tuple or set (sets in their order); undefined for anything else. */
export function elementsOf(v: Value): readonly Value[] | undefined {
  if (Array.isArray(v)) return v;
  if (isSet(v)) return v.elements;
  return undefined;
}

/**
 * Gives primitive elements one common type, as Terraform does when it builds a list, set or map
 * from mixed elements: all numbers or all booleans stay; any other mix becomes strings.
 * Nulls and unknowns stay as they are. Returns undefined when a mix cannot be unified.
 */
export function unifyPrimitives(values: readonly Value[]): Value[] | undefined {
  const kinds = new Set(values.filter((v) => v !== null && v !== UNKNOWN).map(kindOf));
  if (kinds.size <= 1) return [...values];
  if ([...kinds].some((k) => k === 'structural')) return undefined;
  return values.map((v) => (v === null || v === UNKNOWN ? v : asString(v)!));
}

function kindOf(v: Value): string {
  if (isPrimitive(v)) return typeof v;
  if (v instanceof SensitiveValue) return kindOf(v.value);
  return 'structural';
}

/** A short description for messages: "a string", "a tuple with 2 elements", "null". */
export function describe(v: Value): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a tuple with ${v.length} element${v.length === 1 ? '' : 's'}`;
  if (isSet(v)) return `a set of ${v.elements.length}`;
  if (isObject(v)) return 'an object';
  const name = typeName(v);
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name}`;
}
