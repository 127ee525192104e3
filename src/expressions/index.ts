/**
 * The expression and template language of Terraform JSON configuration strings: parse once,
 * list the references (for the dependency graph), evaluate against the values in scope.
 * Every failure is returned as an ExpressionProblem, never thrown.
 */

export type { Expr, TemplatePart, ObjectItem, ForExpr, BinaryOperator } from './ast';
export type { EvalContext } from './evaluate';
export type { ExpressionProblem, ExpressionProblemCode, SourceRange } from './problems';
export { MAX_DEPTH } from './problems';
export { referencesOf, traversalsOf, type Traversal } from './references';
export { supportedFunctions } from './functions';
export { expressionDiagnostic } from './diagnostic';
export { fromPlain } from './plain';
export {
  UNKNOWN,
  SetValue,
  SensitiveValue,
  isKnown,
  containsSensitive,
  unmarkDeep,
  toJson,
  toPlain,
  formatNumber,
  roundToDecimalPrecision,
  typeName,
  valuesEqual,
  type Value,
  type ValueObject,
  type UnknownValue,
} from './values';

export { isTemplate, parseTemplate, evaluate, evaluateTemplate, contextOf, parseExpression } from './language';

export { evaluateConfigValue, hasTemplateKey, referencesInConfigValue, type ConfigProblem } from './config-value';
export { asBool } from './convert';
export { firstCall } from './calls';
