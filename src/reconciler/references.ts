import type { AttributePath } from '../diagnostics';
import { reconcilerErrors, type TenantformError } from '../errors';
import { ownValue } from '../plain-json';
import { Unknown } from '../resources/values';

/**
 * References between declared objects, as cdktf synthesizes them: `${<type>.<name>.<attribute>}`
 * and `${data.<type>.<name>.<attribute>}`, alone or inside a string, anywhere in a value.
 * Every other Terraform expression is refused: evaluating it is Terraform's job.
 */

export interface Reference {
  /** The referenced object's address: `tenantform_x.name` or `data.tenantform_x.name`. */
  readonly target: string;
  /** The attribute path inside the referenced object, e.g. ["id"] or ["parameters", "tenant_id"]. */
  readonly attribute: ReadonlyArray<string | number>;
  /** Where the reference sits in the referring object's configuration. */
  readonly at: AttributePath;
}

type Part = { readonly literal: string } | { readonly expression: string };

/** Terraform words that name something other than a resource (variables, locals, ...). */
const NOT_RESOURCES = new Set(['var', 'local', 'module', 'path', 'terraform', 'each', 'count', 'self']);
const REFERENCE = /^(data\.)?([a-z][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_-]*)((?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+)$/;

/** Splits a string into literal text and `${...}` / `%{...}` expressions; Terraform's `$${` and `%%{` escapes are literal. */
export function splitTemplate(text: string): Part[] {
  const parts: Part[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const two = text.slice(i, i + 2);
    if (text.startsWith('$${', i) || text.startsWith('%%{', i)) {
      literal += text.slice(i + 1, i + 3);
      i += 3;
    } else if (two === '${' || two === '%{') {
      const end = closingBrace(text, i + 2);
      if (literal) parts.push({ literal });
      literal = '';
      parts.push({ expression: text.slice(i, end + 1) });
      i = end + 1;
    } else {
      literal += text[i];
      i++;
    }
  }
  if (literal || parts.length === 0) parts.push({ literal });
  return parts;
}

/** Index of the `}` closing the expression opened before `from` (the end of text when unclosed). */
function closingBrace(text: string, from: number): number {
  let depth = 1;
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return text.length - 1;
}

/** The reference an expression (`${...}`) stands for; undefined for any other expression. */
export function parseReference(expression: string): Omit<Reference, 'at'> | undefined {
  if (!expression.startsWith('${') || !expression.endsWith('}')) return undefined;
  const m = REFERENCE.exec(expression.slice(2, -1).trim());
  if (!m || NOT_RESOURCES.has(m[2])) return undefined;
  const attribute = [...m[4].matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)].map((s) => (s[1] !== undefined ? s[1] : Number(s[2])));
  return { target: `${m[1] ?? ''}${m[2]}.${m[3]}`, attribute };
}

/**
 * Every reference in a configuration value. Any expression that is not a plain reference is an
 * `unsupported_expression` error naming the address and path: thrown, or collected in `problems`.
 */
export function findReferences(value: unknown, address: string, at: AttributePath = [], problems?: TenantformError[]): Reference[] {
  if (typeof value === 'string') {
    if (!value.includes('{')) return [];
    const out: Reference[] = [];
    for (const part of splitTemplate(value)) {
      if (!('expression' in part)) continue;
      const ref = parseReference(part.expression);
      if (ref) out.push({ ...ref, at });
      else if (problems) problems.push(reconcilerErrors.unsupportedExpression(address, at, part.expression));
      else throw reconcilerErrors.unsupportedExpression(address, at, part.expression);
    }
    return out;
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => findReferences(v, address, [...at, i], problems));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => findReferences(v, address, [...at, k], problems));
  }
  return [];
}

/** Answers the value of a referenced object's attribute; undefined when not known yet. */
export type Lookup = (target: string, attribute: ReadonlyArray<string | number>) => unknown;

/**
 * Replaces references with the values `lookup` gives. A value not known yet becomes
 * `Unknown`; a string that embeds an unknown value is unknown as a whole.
 */
export function resolveReferences(value: unknown, lookup: Lookup): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{')) return value; // no expression and no escape: most strings
    const parts = splitTemplate(value);
    if (parts.length === 1 && 'literal' in parts[0]) return parts[0].literal;
    const values = parts.map((p) => ('literal' in p ? p.literal : referencedValue(p.expression, lookup)));
    if (parts.length === 1) return values[0];
    if (values.some((v) => v === Unknown)) return Unknown;
    return values.map((v) => (typeof v === 'string' ? v : v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v))).join('');
  }
  if (Array.isArray(value)) return value.map((v) => resolveReferences(v, lookup));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveReferences(v, lookup)]));
  }
  return value;
}

function referencedValue(expression: string, lookup: Lookup): unknown {
  const ref = parseReference(expression);
  if (!ref) return Unknown; // findReferences reported it when the configuration was loaded
  const v = lookup(ref.target, ref.attribute);
  return v === undefined ? Unknown : v;
}

/** Follows an attribute path into an object; Unknown when any step is unknown, undefined when absent. */
export function valueAt(object: unknown, path: ReadonlyArray<string | number>): unknown {
  let v = object;
  for (const step of path) {
    if (v === Unknown) return Unknown;
    if (v === null || v === undefined || typeof v !== 'object') return undefined;
    v = ownValue(v, step);
  }
  return v;
}
