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

/**
 * Runs an operation on values that were sensitive; a failure then keeps its code and construct
 * but not its message, which could quote the secret.
 */
export function hidingSecrets<T>(sensitive: boolean, operation: () => T): T {
  if (!sensitive) return operation();
  try {
    return operation();
  } catch (e) {
    if (!(e instanceof ExpressionFailure)) throw e;
    const { code, construct, range } = e.problem;
    throw new ExpressionFailure({
      code,
      construct,
      range,
      message: `"${construct}" failed on a sensitive value; the details are hidden so the value is not shown.`,
    });
  }
}
