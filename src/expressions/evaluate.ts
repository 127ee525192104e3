import type { EvalContext, Expr, ForExpr, Scope, TemplatePart } from './ast';
import { asBool, asString, describe, elementsOf } from './convert';
import { callFunction } from './functions';
import { applyBinary, applyUnary } from './operators';
import { unifyResults } from './unify';
import { ExpressionFailure, fail, hidingSecrets, type SourceRange } from './problems';
import { containsSensitive, isObject, isSet, markIf, objectOf, SensitiveValue, sortedEntries, UNKNOWN, unmarkDeep, type Value } from './values';

export function evaluateIn(expr: Expr, context: EvalContext): Value {
  return evaluateExpr(expr, { context, locals: new Map() });
}

export function evaluateExpr(e: Expr, scope: Scope): Value {
  switch (e.kind) {
    case 'literal':
      return e.value;
    case 'paren':
    case 'wrap':
      return evaluateExpr(e.expr, scope);
    case 'template':
      return renderParts(e.parts, scope);
    case 'tuple':
      return e.items.map((item) => evaluateExpr(item, scope));
    case 'object':
      return buildObject(e, scope);
    case 'variable':
      return lookupName(e.name, scope, e.range);
    case 'splatItem':
      return scope.splatItem ?? null;
    case 'getattr':
      return outerMarked([evaluateExpr(e.target, scope)], ([target]) => getAttribute(target, e.name, e.range));
    case 'index':
      return outerMarked([evaluateExpr(e.target, scope), evaluateExpr(e.key, scope)], ([target, key]) => indexValue(target, key, e.range));
    case 'splat':
      return outerMarked([evaluateExpr(e.source, scope)], ([source]) => splat(source, e.each, scope));
    case 'call':
      return callFunction(e, scope, evaluateExpr);
    case 'unary':
      return unmarked([evaluateExpr(e.operand, scope)], ([v]) => applyUnary(e.op, v, e.range));
    case 'binary':
      return unmarked([evaluateExpr(e.left, scope), evaluateExpr(e.right, scope)], ([a, b]) => applyBinary(e.op, a, b, e.range));
    case 'conditional':
      return conditional(e, scope);
    case 'for':
      return forExpression(e, scope);
  }
}

/**
 * Runs an operation on values without their sensitive marks and marks the result when any
 * operand carried one, so a sensitive input keeps every value computed from it sensitive.
 */
export function unmarked(values: Value[], operation: (values: Value[]) => Value): Value {
  const sensitive = values.some(containsSensitive);
  return markIf(
    hidingSecrets(sensitive, () => operation(sensitive ? values.map(unmarkDeep) : values)),
    sensitive,
  );
}

/** Like `unmarked`, for steps into a collection: only a mark on the collection itself carries over, not marks of elements left behind. */
function outerMarked(values: Value[], operation: (values: Value[]) => Value): Value {
  const sensitive = values.some((v) => v instanceof SensitiveValue);
  return markIf(
    hidingSecrets(sensitive, () => operation(values.map((v) => (v instanceof SensitiveValue ? v.value : v)))),
    sensitive,
  );
}

function lookupName(name: string, scope: Scope, range: SourceRange): Value {
  if (scope.locals.has(name)) return scope.locals.get(name)!;
  const vars = scope.context.variables;
  const value = typeof vars === 'function' ? vars(name) : Object.hasOwn(vars, name) ? vars[name] : undefined;
  if (value === undefined) fail('unknown_reference', name, range, `There is no "${name}" in scope here.`);
  return value;
}

function getAttribute(target: Value, name: string, range: SourceRange): Value {
  if (target === UNKNOWN) return UNKNOWN;
  if (target === null) fail('invalid_index', `.${name}`, range, `Attempt to get attribute "${name}" from a null value.`);
  if (isObject(target)) {
    if (!Object.hasOwn(target, name)) fail('invalid_index', `.${name}`, range, `This object does not have an attribute named "${name}".`);
    return target[name];
  }
  return fail('invalid_index', `.${name}`, range, `Cannot get attribute "${name}" from ${describe(target)}; only objects and maps have attributes.`);
}

function indexValue(target: Value, key: Value, range: SourceRange): Value {
  if (target === UNKNOWN || key === UNKNOWN) return UNKNOWN;
  if (target === null) fail('invalid_index', '[...]', range, 'Attempt to index a null value.');
  if (key === null) fail('invalid_index', '[...]', range, 'Cannot use a null value as an index.');
  if (Array.isArray(target)) {
    const n = typeof key === 'number' ? key : typeof key === 'string' && /^-?\d+$/.test(key) ? Number(key) : NaN;
    if (!Number.isInteger(n)) fail('invalid_index', '[...]', range, `A list index must be a whole number, not ${describe(key)}.`);
    if (n < 0 || n >= target.length)
      fail('invalid_index', '[...]', range, `The index ${n} is out of range for a collection of ${target.length} element${target.length === 1 ? '' : 's'}.`);
    return target[n];
  }
  if (isObject(target)) {
    const name = asString(key);
    if (name === undefined) fail('invalid_index', '[...]', range, `A map key must be a string, not ${describe(key)}.`);
    if (!Object.hasOwn(target, name)) fail('invalid_index', '[...]', range, `The given key "${name}" does not identify an element in this collection value.`);
    return target[name];
  }
  if (isSet(target))
    fail('invalid_index', '[...]', range, 'Elements of a set are identified only by their value and cannot be indexed; convert it with tolist first.');
  return fail('invalid_index', '[...]', range, `Cannot index ${describe(target)}.`);
}

function splat(source: Value, each: Expr, scope: Scope): Value {
  if (source === UNKNOWN) return UNKNOWN;
  if (source === null) return [];
  const items = elementsOf(source) ?? [source];
  return items.map((item) => evaluateExpr(each, { ...scope, splatItem: item }));
}

function buildObject(e: Extract<Expr, { kind: 'object' }>, scope: Scope): Value {
  const entries: Array<[string, Value]> = [];
  let sensitiveKey = false;
  for (const item of e.items) {
    let key = evaluateExpr(item.key, scope);
    if (key instanceof SensitiveValue) {
      sensitiveKey = true;
      key = unmarkDeep(key);
    }
    if (key === UNKNOWN) return UNKNOWN;
    const name = asString(key);
    if (name === undefined) fail('invalid_type', 'object', item.key.range, `An object key must be a string, not ${describe(key)}.`);
    entries.push([name, evaluateExpr(item.value, scope)]);
  }
  return markIf(objectOf(entries), sensitiveKey);
}

function conditional(e: Extract<Expr, { kind: 'conditional' }>, scope: Scope): Value {
  const condition = evaluateExpr(e.condition, scope);
  return unmarked([condition], ([c]) => {
    const chosen = requireBool(c, '?:', e.condition.range);
    if (chosen === UNKNOWN) return UNKNOWN;
    const result = evaluateExpr(chosen ? e.then : e.otherwise, scope);
    return unifyWithOther(result, chosen ? e.otherwise : e.then, scope, e.range);
  });
}

/** Both results of a conditional share one type (see unify.ts); the other result's errors do not count. */
function unifyWithOther(result: Value, other: Expr, scope: Scope, range: SourceRange): Value {
  let otherValue: Value;
  try {
    otherValue = evaluateExpr(other, scope);
  } catch (e) {
    if (e instanceof ExpressionFailure) return result;
    throw e;
  }
  const unified = unifyResults(result, otherValue);
  if (unified === undefined) fail('invalid_type', '?:', range, 'The true and false results of the conditional have no common type.');
  return unified;
}

function requireBool(v: Value, construct: string, range: SourceRange): boolean | typeof UNKNOWN {
  if (v === UNKNOWN) return UNKNOWN;
  const b = asBool(v);
  if (b === undefined) fail('invalid_type', construct, range, `The condition must be a bool, not ${describe(v)}.`);
  return b;
}

/** The (key, value) pairs a for expression or %{for} directive iterates over, in Terraform's order. */
function iterationPairs(collection: Value, construct: string, range: SourceRange): Array<[Value, Value]> {
  if (Array.isArray(collection)) return collection.map((v, i) => [i, v]);
  if (isSet(collection)) return collection.elements.map((v) => [v, v]);
  if (isObject(collection)) return sortedEntries(collection);
  return fail('invalid_type', construct, range, `A for expression needs a collection (list, set, map or object), not ${describe(collection)}.`);
}

function withLoopVariables(scope: Scope, keyVar: string | undefined, valueVar: string, key: Value, value: Value): Scope {
  const locals = new Map(scope.locals);
  if (keyVar) locals.set(keyVar, key);
  locals.set(valueVar, value);
  return { ...scope, locals };
}

function forExpression(e: ForExpr, scope: Scope): Value {
  const collection = evaluateExpr(e.collection, scope);
  return outerMarked([collection], ([source]) => {
    if (source === UNKNOWN) return UNKNOWN;
    const items: Array<[Value, Value]> = [];
    for (const [key, value] of iterationPairs(source, 'for', e.collection.range)) {
      const inner = withLoopVariables(scope, e.keyVar, e.valueVar, key, value);
      if (e.condition) {
        const keep = unmarked([evaluateExpr(e.condition, inner)], ([c]) => requireBool(c, 'for', e.condition!.range));
        if (keep === UNKNOWN || keep instanceof SensitiveValue) return markIf(UNKNOWN, keep instanceof SensitiveValue);
        if (keep === false) continue;
      }
      items.push([e.keyExpr ? evaluateExpr(e.keyExpr, inner) : null, evaluateExpr(e.valueExpr, inner)]);
    }
    return e.keyExpr ? groupByKey(items, e) : items.map(([, v]) => v);
  });
}

/** The object of a `for` with keys; a sensitive key makes the whole object sensitive, as a key is never hidden on its own. */
function groupByKey(items: Array<[Value, Value]>, e: ForExpr): Value {
  const result = new Map<string, Value>();
  let sensitiveKey = false;
  for (const [rawKey, value] of items) {
    if (rawKey === UNKNOWN) return UNKNOWN;
    if (containsSensitive(rawKey)) sensitiveKey = true;
    const key = asString(unmarkDeep(rawKey));
    if (key === undefined) fail('invalid_type', 'for', e.keyExpr!.range, `An object key must be a string, not ${describe(rawKey)}.`);
    if (e.group) result.set(key, [...((result.get(key) as Value[] | undefined) ?? []), value]);
    else if (result.has(key))
      fail('invalid_operation', 'for', e.keyExpr!.range, `Two elements have the key "${key}"; add "..." after the value to group them.`);
    else result.set(key, value);
  }
  return markIf(objectOf(result), sensitiveKey);
}

function renderParts(parts: readonly TemplatePart[], scope: Scope): Value {
  let text = '';
  let sensitive = false;
  let unknown = false;
  const add = (marked: Value) => {
    const v = marked instanceof SensitiveValue ? marked.value : marked;
    if (v !== marked) sensitive = true;
    if (v === UNKNOWN) unknown = true;
    else if (typeof v === 'string') text += v;
  };
  for (const part of parts) {
    if (part.kind === 'text') text += part.text;
    else if (part.kind === 'interpolation') add(unmarked([evaluateExpr(part.expr, scope)], ([v]) => interpolated(v, part.range)));
    else if (part.kind === 'if')
      add(
        unmarked([evaluateExpr(part.condition, scope)], ([c]) => {
          const chosen = requireBool(c, '%{if}', part.range);
          return chosen === UNKNOWN ? UNKNOWN : renderParts(chosen ? part.then : part.otherwise, scope);
        }),
      );
    else
      add(
        outerMarked([evaluateExpr(part.collection, scope)], ([source]) => {
          if (source === UNKNOWN) return UNKNOWN;
          const rendered = iterationPairs(source, '%{for}', part.range).map(([k, v]) =>
            renderParts(part.body, withLoopVariables(scope, part.keyVar, part.valueVar, k, v)),
          );
          return unmarked(rendered, (texts) => (texts.some((t) => t === UNKNOWN) ? UNKNOWN : texts.join('')));
        }),
      );
  }
  return markIf(unknown ? UNKNOWN : text.normalize('NFC'), sensitive);
}

function interpolated(v: Value, range: SourceRange): Value {
  if (v === UNKNOWN) return UNKNOWN;
  if (v === null) fail('invalid_type', '${...}', range, 'The value of an interpolation is null; a string is required.');
  const text = asString(v);
  if (text === undefined) fail('invalid_type', '${...}', range, `Cannot include ${describe(v)} in a string template; a string is required.`);
  return text;
}

export type { EvalContext };
