import type { Attributes } from './attributes';

/**
 * The one place where camelCase (cdktf props, TypeScript) and snake_case (Terraform,
 * the platform) meet.
 */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Converts the keys of a props object (deeply, objects only) to snake_case. */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) out[snakeCase(k)] = snakeKeys(v);
    }
    return out;
  }
  return value;
}

/**
 * Props (camelCase) as the attributes they set (snake_case), following the declaration into
 * nested objects: the keys of a map of objects are the user's and are kept as written. A prop
 * the declaration lacks is converted deeply, so validation names it in snake_case.
 */
export function snakeAttributes(attributes: Attributes, props: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined) continue;
    const name = snakeCase(k);
    const a = attributes[name] as Attributes[string] | undefined;
    out[name] =
      a === undefined
        ? snakeKeys(v)
        : a.type === 'object'
          ? nestedObject(a.attributes, v)
          : a.type === 'nested'
            ? nestedCollection(a.attributes, a.nesting, v)
            : v;
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
}

/** A nested object's props; anything else (a reference token) is left as it is. */
function nestedObject(attributes: Attributes, v: unknown): unknown {
  return isPlainObject(v) ? snakeAttributes(attributes, v) : v;
}

function nestedCollection(attributes: Attributes, nesting: 'list' | 'set' | 'map', v: unknown): unknown {
  if (Array.isArray(v)) return v.map((item) => nestedObject(attributes, item));
  if (nesting === 'map' && isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([key, item]) => [key, nestedObject(attributes, item)]));
  return v;
}

/** The cdktf class of a kind: `tenantform_infra_component` → `InfraComponent`, data → `DataTenantform…`. */
export function constructName(type: string, kind: 'resource' | 'data'): string {
  const base = type.replace(/^tenantform_/, '').replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
  return kind === 'data' ? `DataTenantform${base}` : base;
}
