import type { Expr, Scope } from '../ast';
import { describe, elementsOf } from '../convert';
import { ExpressionFailure, fail, hidingSecrets } from '../problems';
import { containsSensitive, isKnown, markIf, SensitiveValue, UNKNOWN, unmarkDeep, type Value } from '../values';
import { collectionFunctions } from './collections';
import { conversionFunctions } from './conversions';
import { encodingFunctions } from './encoding';
import { numericFunctions } from './numeric';
import { callFailed, convertArgument, type Call, type FunctionSpec } from './spec';
import { stringFunctions } from './strings';

const FUNCTIONS: ReadonlyMap<string, FunctionSpec> = new Map(
  Object.entries({
    ...collectionFunctions,
    ...conversionFunctions,
    ...encodingFunctions,
    ...numericFunctions,
    ...stringFunctions,
  }),
);

/** Names of every supported function (try and can included). */
export function supportedFunctions(): string[] {
  return [...FUNCTIONS.keys(), 'try', 'can'].sort();
}

type Evaluator = (e: Expr, scope: Scope) => Value;
type CallExpr = Extract<Expr, { kind: 'call' }>;

/** Problems that `try` and `can` do not hide: mistakes in the configuration itself, not in values. */
const STATIC_PROBLEMS = new Set(['syntax_error', 'unsupported_construct', 'unsupported_function', 'unknown_reference', 'too_deep']);

export function callFunction(e: CallExpr, scope: Scope, evaluate: Evaluator): Value {
  const call: Call = { name: e.name, range: e.range };
  if (e.name === 'try' || e.name === 'can') return tryOrCan(e, scope, evaluate);
  const spec = FUNCTIONS.get(e.name.replace(/^core::/, ''));
  if (!spec)
    fail('unsupported_function', e.name, e.range, `The function "${e.name}" is not supported here; supported functions: ${supportedFunctions().join(', ')}.`);
  const args = argumentValues(e, scope, evaluate);
  if (args === UNKNOWN) return UNKNOWN;
  const sensitive = !spec.handlesMarks && args.some(containsSensitive);
  const plain = spec.handlesMarks ? args : args.map(unmarkDeep);
  checkArity(spec, plain.length, call);
  const unknownResult = spec.unknowns === 'any' ? false : spec.unknowns === 'elements' ? plain.includes(UNKNOWN) : !plain.every(isKnown);
  if (unknownResult) return markIf(UNKNOWN, sensitive);
  const result = hidingSecrets(sensitive, () => {
    const fixed = plain.slice(0, spec.params.length).map((v, i) => convertArgument(v, spec.params[i], call));
    const rest = spec.variadic ? plain.slice(spec.params.length).map((v) => convertArgument(v, spec.variadic!, call)) : [];
    return bodyWithinStringLimit(spec, fixed, rest, call);
  });
  // Terraform keeps every string in Unicode normal form C.
  return markIf(typeof result === 'string' ? result.normalize('NFC') : result, sensitive);
}

/** The arguments, the last one spread when the call ends in `...`. */
function argumentValues(e: CallExpr, scope: Scope, evaluate: Evaluator): Value[] | typeof UNKNOWN {
  const args = e.args.map((a) => evaluate(a, scope));
  if (!e.expandLast) return args;
  const marked = args[args.length - 1];
  const last = marked instanceof SensitiveValue ? unmarkDeep(marked) : marked;
  if (last === UNKNOWN) return UNKNOWN;
  const spread = elementsOf(last);
  if (!spread) fail('invalid_argument', e.name, e.range, `The argument before "..." must be a list, tuple or set, not ${describe(last)}.`);
  return [...args.slice(0, -1), ...spread];
}

function checkArity(spec: FunctionSpec, count: number, call: Call): void {
  const min = spec.params.length;
  if (count < min || (!spec.variadic && count > min)) {
    const wanted = spec.variadic ? `at least ${min}` : String(min);
    fail('invalid_argument', call.name, call.range, `Function "${call.name}" expects ${wanted} argument${min === 1 ? '' : 's'}, but ${count} were given.`);
  }
}

/** `try` returns its first argument that evaluates without an error; `can` says whether its argument does. */
function tryOrCan(e: CallExpr, scope: Scope, evaluate: Evaluator): Value {
  const wanted = e.name === 'can' ? 1 : 0;
  if ((wanted && e.args.length !== 1) || e.args.length === 0)
    fail('invalid_argument', e.name, e.range, `Function "${e.name}" expects ${wanted ? 'exactly 1 argument' : 'at least one argument'}.`);
  let lastProblem: ExpressionFailure | undefined;
  for (const arg of e.args) {
    try {
      const value = evaluate(arg, scope);
      if (!isKnown(value)) return UNKNOWN;
      return e.name === 'can' ? true : value;
    } catch (error) {
      if (!(error instanceof ExpressionFailure) || STATIC_PROBLEMS.has(error.problem.code)) throw error;
      if (e.name === 'can') return false;
      lastProblem = error;
    }
  }
  return fail('invalid_argument', 'try', e.range, `No expression in try() could be evaluated; the last one failed: ${lastProblem!.problem.message}`);
}

/** V8's words when a string or list would pass the longest it can build. */
const TOO_LONG = /^(Invalid string length|Invalid array length)$/;

/** A result too long to build (indent(1e9, ...), join of huge strings) is the call's failure, not an engine error. */
function bodyWithinStringLimit(spec: FunctionSpec, fixed: Value[], rest: Value[], call: Call): Value {
  try {
    return spec.body(fixed, rest, call);
  } catch (err) {
    if (err instanceof RangeError && TOO_LONG.test(err.message))
      callFailed(call, 'the result would be longer than the longest string or list that can be built.');
    throw err;
  }
}
