import { contextOf, evaluate, parseExpression, type ExpressionProblem, type Value } from './index';

/**
 * Evaluates an expression in Terraform's native syntax for unit tests, with plain data as the
 * roots (`{ var: {...}, local: {...} }`). Throws with the problem's message when it fails.
 */
export function run(source: string, roots: Readonly<Record<string, unknown>> = {}): Value {
  const result = attempt(source, roots);
  if ('problem' in result) throw new Error(`${source}: ${result.problem.code}: ${result.problem.message}`);
  return result.value;
}

/** The problem evaluating the expression gives; throws when it succeeds. */
export function problemOf(source: string, roots: Readonly<Record<string, unknown>> = {}): ExpressionProblem {
  const result = attempt(source, roots);
  if (!('problem' in result)) throw new Error(`${source}: expected a problem, got a value`);
  return result.problem;
}

function attempt(source: string, roots: Readonly<Record<string, unknown>>): { value: Value } | { problem: ExpressionProblem } {
  const parsed = parseExpression(source);
  return 'problem' in parsed ? parsed : evaluate(parsed.expr, contextOf(roots));
}
