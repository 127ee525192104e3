import { type TenantformError } from '../errors';
import { moduleErrors } from './errors';
import { contextOf, evaluateTemplate, fromPlain, isKnown, unmarkDeep, type EvalContext, type Value } from '../expressions';
import { isRecord } from '../plain-json';
import { evaluateValue, type LocalConversion } from './expression-scope';
import { convertTo, parseTypeConstraint, type TypeConstraint } from './variable-types';

/** A module's variables: their types, sensitivity and validation rules, applied to the arguments the calls give. */

export interface ModuleVariable extends LocalConversion {
  /** The module call's instance (`module.customer["acme"]`) and the variable's name. */
  readonly call: string;
  readonly name: string;
  /** Its `validation` blocks, as written (naming `var.<name>`). */
  readonly validations: ReadonlyArray<{ readonly condition: unknown; readonly errorMessage: unknown }>;
}

/** The arguments, known when the configuration is read, that their variable's type cannot take: each names its call and variable. */
export function moduleArgumentProblems(
  variables: ReadonlyMap<string, ModuleVariable>,
  locals: ReadonlyMap<string, unknown>,
  context: EvalContext,
): TenantformError[] {
  const problems: TenantformError[] = [];
  for (const [local, v] of variables) {
    if (!v.type && v.validations.length === 0) continue;
    const given = evaluateValue(locals.get(local), context, v.call);
    if (given.diagnostics.length > 0) continue;
    const typed: { value: Value } | { problem: string } = v.type ? convertTo(v.type, fromPlain(given.value)) : { value: fromPlain(given.value) };
    if ('problem' in typed) problems.push(moduleErrors.invalidArgument(v.call, v.name, typed.problem));
    else if (isKnown(typed.value)) problems.push(...failedValidations(v, typed.value));
  }
  return problems;
}

/** The validation rules a known value breaks, each with its own message, naming the call and the variable. */
function failedValidations(v: ModuleVariable, value: Value): TenantformError[] {
  const context = contextOf({ var: { [v.name]: value } });
  const problems: TenantformError[] = [];
  for (const rule of v.validations) {
    const passed: { value: Value } | { problem: { message: string } } =
      typeof rule.condition === 'string' ? evaluateTemplate(rule.condition, context) : { value: fromPlain(rule.condition) };
    if ('problem' in passed) {
      problems.push(moduleErrors.invalidArgument(v.call, v.name, `its validation cannot be evaluated (${passed.problem.message})`));
      continue;
    }
    if (unmarkDeep(passed.value) !== false) continue;
    const message = typeof rule.errorMessage === 'string' ? evaluateTemplate(rule.errorMessage, context) : undefined;
    problems.push(moduleErrors.failedValidation(v.call, v.name, message && 'value' in message ? String(unmarkDeep(message.value)) : String(rule.errorMessage)));
  }
  return problems;
}

/** What a module variable's declaration makes of the value given (its type, its sensitivity); undefined when nothing. */
export function conversionOf(call: string, name: string, declaration: unknown, problems: TenantformError[]): ModuleVariable | undefined {
  const d = isRecord(declaration) ? declaration : {};
  const sensitive = d.sensitive === true;
  let type: TypeConstraint | undefined;
  if (typeof d.type === 'string') {
    const parsed = parseTypeConstraint(d.type);
    if ('problem' in parsed) problems.push(moduleErrors.invalidArgument(call, name, parsed.problem));
    else if (parsed.kind !== 'any') type = parsed;
  }
  const rules: unknown[] = Array.isArray(d.validation) ? d.validation : d.validation === undefined ? [] : [d.validation];
  const validations = rules.filter(isRecord).map((r) => ({ condition: r.condition ?? true, errorMessage: r.error_message ?? 'The value is not valid.' }));
  return type || sensitive || validations.length > 0 ? { call, name, sensitive, validations, ...(type ? { type } : {}) } : undefined;
}
