import type { AttributePath, Diagnostic } from '../diagnostics';
import type { ExpressionProblem, ExpressionProblemCode } from './problems';

const SUMMARIES: Record<ExpressionProblemCode, string> = {
  syntax_error: 'Invalid expression',
  unsupported_construct: 'Unsupported expression',
  unsupported_function: 'Unsupported function',
  unknown_reference: 'Reference to an undeclared name',
  invalid_type: 'Invalid value in expression',
  invalid_index: 'Invalid reference',
  invalid_argument: 'Invalid function argument',
  invalid_operation: 'Invalid operation',
  too_deep: 'Expression nested too deeply',
};

/** Problems that mean "Terraform can do this, tenantform cannot": they point at `cdktf deploy`. */
const UNSUPPORTED = new Set<ExpressionProblemCode>(['unsupported_construct', 'unsupported_function']);

/**
 * A problem as a diagnostic on the attribute whose expression failed, quoting the failing part
 * of the source when it is given.
 */
export function expressionDiagnostic(problem: ExpressionProblem, address: string, path: AttributePath, source?: string): Diagnostic {
  const excerpt = source === undefined ? '' : source.slice(problem.range.start, problem.range.end);
  const where = excerpt && excerpt.length <= 80 ? ` (in \`${excerpt}\`)` : '';
  const wayOut = UNSUPPORTED.has(problem.code) ? ' Deploy this configuration with `cdktf deploy` (Terraform) to use it.' : '';
  return {
    severity: 'error',
    summary: `${SUMMARIES[problem.code]}: ${problem.construct}`,
    detail: `${problem.message}${where}${wayOut}`,
    address,
    path,
    code: problem.code,
    retryable: false,
  };
}
