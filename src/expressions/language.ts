/**
 * Parsing and evaluating configuration strings and bare expressions: each failure returned as
 * an ExpressionProblem, never thrown.
 */
import type { Expr } from './ast';
import { evaluateIn, type EvalContext } from './evaluate';
import { ExpressionFailure, type ExpressionProblem } from './problems';
import { parseExpression as parseExpressionAt, parseWholeExpression } from './parser';
import { Cursor } from './scanner';
import { parseStringTemplate } from './template';
import { fromPlain } from './plain';
import type { Value } from './values';

type Parsed = { expr: Expr } | { problem: ExpressionProblem };

/** Templates parsed so far: a configuration repeats the same few templates across many objects. */
const parsedTemplates = new Map<string, Parsed>();
const PARSED_TEMPLATES_KEPT = 50_000;

/** Whether a configuration string is a template: without `${` or `%{` there is nothing to interpolate and no escape to undo. */
export function isTemplate(source: string): boolean {
  return source.includes('${') || source.includes('%{');
}

/** Parses a configuration string: literal text, or a template with `${...}` and `%{...}`. */
export function parseTemplate(source: string): Parsed {
  // Not a template: the text is the value.
  if (!isTemplate(source)) return { expr: { kind: 'literal', value: source.normalize('NFC'), range: { start: 0, end: source.length } } };
  let parsed = parsedTemplates.get(source);
  if (parsed === undefined) {
    parsed = guarded(() => ({ expr: parseStringTemplate(source, parseExpressionAt) }));
    if (parsedTemplates.size >= PARSED_TEMPLATES_KEPT) parsedTemplates.clear();
    parsedTemplates.set(source, parsed);
  }
  return parsed;
}

/** Evaluates a parsed expression; unknown inputs give unknown results, sensitive inputs sensitive ones. */
export function evaluate(expr: Expr, context: EvalContext): { value: Value } | { problem: ExpressionProblem } {
  return guarded(() => ({ value: evaluateIn(expr, context) }));
}

/** Parses and evaluates a configuration string in one step. */
export function evaluateTemplate(source: string, context: EvalContext): { value: Value } | { problem: ExpressionProblem } {
  const parsed = parseTemplate(source);
  return 'problem' in parsed ? parsed : evaluate(parsed.expr, context);
}

/** A context from plain JSON-like data (arrays, objects, primitives; UNKNOWN where not known). */
export function contextOf(roots: Readonly<Record<string, unknown>>): EvalContext {
  return { variables: Object.fromEntries(Object.entries(roots).map(([k, v]) => [k, fromPlain(v)])) };
}

function guarded<T>(run: () => T): T | { problem: ExpressionProblem } {
  try {
    return run();
  } catch (e) {
    if (e instanceof ExpressionFailure) return { problem: e.problem };
    if (e instanceof RangeError && /call stack/i.test(e.message))
      return {
        problem: {
          code: 'too_deep',
          construct: 'expression',
          message: 'The expression or value is nested too deeply to evaluate.',
          range: { start: 0, end: 0 },
        },
      };
    throw e;
  }
}

/** Parses a bare expression in Terraform's native syntax (what `terraform console` reads). */
export function parseExpression(source: string): { expr: Expr } | { problem: ExpressionProblem } {
  return guarded(() => ({ expr: parseWholeExpression(new Cursor(source)) }));
}
