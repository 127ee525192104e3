/** A character range in the expression's source text: `start` inclusive, `end` exclusive. */
export interface SourceRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Why an expression could not be parsed or evaluated. `construct` names what failed: the
 * function (`upper`), the operator (`+`), the directive (`%{for}`) or the syntax element.
 */
export interface ExpressionProblem {
  readonly code: ExpressionProblemCode;
  readonly message: string;
  readonly construct: string;
  readonly range: SourceRange;
}

export type ExpressionProblemCode =
  | 'syntax_error'
  | 'unsupported_construct'
  | 'unsupported_function'
  | 'unknown_reference'
  | 'invalid_type'
  | 'invalid_index'
  | 'invalid_argument'
  | 'invalid_operation'
  | 'too_deep';

/** Thrown inside the parser and evaluator; the public functions return it as data. */
export class ExpressionFailure extends Error {
  constructor(readonly problem: ExpressionProblem) {
    super(problem.message);
  }
}

export function fail(code: ExpressionProblemCode, construct: string, range: SourceRange, message: string): never {
  throw new ExpressionFailure({ code, construct, range, message });
}

/** Nesting allowed in source and values before `too_deep`, far below what exhausts the stack. */
export const MAX_DEPTH = 256;
