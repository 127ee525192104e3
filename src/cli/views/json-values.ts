import type { State } from '../../resources/declaration';
import { containsUnknown, isUnknown } from '../../resources/values';

/**
 * Values as `terraform show -json` writes them: unknowns left out, and the mirrors that say
 * where values are unknown or sensitive, built by Terraform's rules (lists become a list of
 * per-element flags, objects keep only the keys whose flag is not `false`, null is `false`).
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A value with unknowns left out: object keys dropped, list elements as null (to keep indexes). */
export function withoutUnknowns(value: unknown): JsonValue {
  if (isUnknown(value) || value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(withoutUnknowns);
  if (typeof value === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) {
      if (!isUnknown(v)) out[k] = withoutUnknowns(v);
    }
    return out;
  }
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return String(value);
}

/** One flag per leaf: `leaf(v)` for scalars and nulls, lists and objects opened. */
function mirror(value: unknown, leaf: (v: unknown) => boolean): JsonValue {
  if (leaf(value)) return true;
  if (isUnknown(value)) return false;
  if (Array.isArray(value)) return value.map((v) => mirror(v, leaf));
  if (value !== null && value !== undefined && typeof value === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) {
      const flag = mirror(v, leaf);
      if (flag !== false) out[k] = flag;
    }
    return out;
  }
  return false;
}

/** Terraform's after_unknown: `{}` when everything is known (or there is no object). */
export function unknownMirror(value: State | null): JsonValue {
  return value && containsUnknown(value) ? mirror(value, isUnknown) : {};
}

/** Terraform's *_sensitive and sensitive_values: sensitive top-level attributes are `true`; `false` without an object. */
export function sensitiveMirror(value: State | null, sensitive: ReadonlySet<string>): JsonValue {
  if (!value) return false;
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(value)) {
    const flag = sensitive.has(k) ? true : mirror(v, () => false);
    if (flag !== false) out[k] = flag;
  }
  return out;
}

/** The object without its sensitive attributes (tenantform never writes them, unlike Terraform). */
export function masked(value: State | null, sensitive: ReadonlySet<string>): State | null {
  if (!value) return null;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !sensitive.has(k)));
}

/** The value as Terraform writes it: sensitive attributes left out, unknowns left out. */
export function knownValues(value: State | null, sensitive: ReadonlySet<string>): JsonValue {
  return withoutUnknowns(masked(value, sensitive));
}

/** Terraform's type constraint of a JSON value (outputs carry one): `string`, `["tuple", [...]]`, `["object", {...}]`. */
export function typeOf(value: unknown): JsonValue {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return ['tuple', value.map(typeOf)];
  if (value !== null && typeof value === 'object') return ['object', Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeOf(v)]))];
  return 'dynamic';
}
