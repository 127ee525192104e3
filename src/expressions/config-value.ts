import type { AttributePath } from '../diagnostics';
import type { EvalContext } from './evaluate';
import { evaluate, parseTemplate } from './language';
import { MAX_DEPTH, type ExpressionProblem } from './problems';
import { referencesOf, type Traversal } from './references';
import { asString } from './convert';
import { isUnknown, objectOf, typeName, UNKNOWN, type Value } from './values';

/**
 * A value of a Terraform JSON configuration (an attribute, a local, an output): every string in
 * it, at any depth, is a template; everything else is literal. Problems carry the path inside
 * the value where they happened.
 */
export type ConfigProblem = ExpressionProblem & { readonly path: AttributePath };

type Walked<T> = { readonly value: T } | { readonly problem: ConfigProblem };

function tooDeep(path: AttributePath): { problem: ConfigProblem } {
  return {
    problem: {
      code: 'too_deep',
      construct: 'value',
      range: { start: 0, end: 0 },
      message: `The value is nested more than ${MAX_DEPTH} levels deep.`,
      path,
    },
  };
}

/** Evaluates every template inside a configuration value. */
export function evaluateConfigValue(data: unknown, context: EvalContext, path: AttributePath = []): Walked<Value> {
  if (path.length > MAX_DEPTH) return tooDeep(path);
  if (typeof data === 'string') {
    const result = evaluateTemplateAt(data, context);
    return 'problem' in result ? { problem: { ...result.problem, path } } : result;
  }
  if (Array.isArray(data)) {
    const items: Value[] = [];
    for (const [i, item] of data.entries()) {
      const result = evaluateConfigValue(item, context, [...path, i]);
      if ('problem' in result) return result;
      items.push(result.value);
    }
    return { value: items };
  }
  if (data !== null && typeof data === 'object') {
    const entries: Array<[string, Value]> = [];
    let keyUnknown = false;
    for (const [written, item] of Object.entries(data)) {
      const key = evaluateKey(written, context, path);
      if (typeof key === 'object') {
        if ('problem' in key) return key;
        keyUnknown = true;
        continue;
      }
      const result = evaluateConfigValue(item, context, [...path, key]);
      if ('problem' in result) return result;
      entries.push([key, result.value]);
    }
    return { value: keyUnknown ? UNKNOWN : objectOf(entries) };
  }
  return { value: data === undefined ? null : (data as Value) };
}

/** Matches a key written as an expression: `{ (local.k) = 1 }` in HCL, `{"${local.k}": 1}` in JSON. */
const TEMPLATE_KEY = /[$%]\{/;

/** True when one of the object's keys is written as an expression. */
export function hasTemplateKey(data: object): boolean {
  return Object.keys(data).some((key) => TEMPLATE_KEY.test(key));
}

/**
 * An object key, a template as Terraform reads it: its value converted to a string, or a problem
 * where it is null or not a primitive; `{ unknown }` where it is known only after apply.
 */
function evaluateKey(written: string, context: EvalContext, path: AttributePath): string | { readonly unknown: true } | { readonly problem: ConfigProblem } {
  if (!TEMPLATE_KEY.test(written)) return written;
  const result = evaluateTemplateAt(written, context);
  if ('problem' in result) return { problem: { ...result.problem, path } };
  if (isUnknown(result.value)) return { unknown: true };
  const key = asString(result.value);
  if (key !== undefined) return key;
  const range = { start: 0, end: written.length };
  const message = `An object key must be a string, not ${typeName(result.value)}.`;
  return { problem: { code: 'invalid_type', construct: 'object key', range, message, path } };
}

function evaluateTemplateAt(source: string, context: EvalContext) {
  const parsed = parseTemplate(source);
  return 'problem' in parsed ? parsed : evaluate(parsed.expr, context);
}

/** Every reference the templates inside a configuration value use, each with the path of its string. */
export function referencesInConfigValue(data: unknown, path: AttributePath = []): Walked<Array<Traversal & { readonly path: AttributePath }>> {
  if (path.length > MAX_DEPTH) return tooDeep(path);
  if (typeof data === 'string') {
    const parsed = parseTemplate(data);
    if ('problem' in parsed) return { problem: { ...parsed.problem, path } };
    return { value: referencesOf(parsed.expr).map((t) => ({ ...t, path })) };
  }
  const children: Array<[string | number, unknown]> = Array.isArray(data)
    ? data.map((x, i) => [i, x])
    : data !== null && typeof data === 'object'
      ? Object.entries(data)
      : [];
  const found: Array<Traversal & { readonly path: AttributePath }> = [];
  for (const [key, item] of children) {
    if (typeof key === 'string' && TEMPLATE_KEY.test(key)) {
      const inKey = referencesInConfigValue(key, path);
      if ('problem' in inKey) return inKey;
      found.push(...inKey.value);
    }
    const result = referencesInConfigValue(item, [...path, key]);
    if ('problem' in result) return result;
    found.push(...result.value);
  }
  return { value: found };
}
