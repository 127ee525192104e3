import type { Diagnostic } from '../diagnostics';
import { TenantformError } from '../errors';
import { UNKNOWN } from '../expressions';
import { dependencyOrder } from '../graph/graph';
import type { Configuration } from './config';
import { dependencies } from './dependencies';
import { contextFor, evaluateValue } from './expression-scope';
import type { InputVariable } from './variables';

/**
 * What `terraform validate` finds in local values and outputs without the state: each evaluated
 * with every input variable and object unknown, so that only what is wrong whatever they hold
 * (`[1, 2][5]`, `"a" + 1`, a null key) is refused, and a value wrong only for some input is not.
 */
export function valueProblemsWithoutInputs(configuration: Configuration): Diagnostic[] {
  const variables = new Map<string, InputVariable>([...configuration.variables].map(([name, v]) => [name, { ...v, value: UNKNOWN }]));
  const context = contextFor({ ...configuration, variables }, new Map());
  const diagnostics: Diagnostic[] = [];
  for (const [name, raw] of configuration.locals) diagnostics.push(...evaluateValue(raw, context, `local.${name}`).diagnostics);
  for (const o of configuration.outputs.values()) diagnostics.push(...evaluateValue(o.value, context, `output.${o.name}`, ['value']).diagnostics);
  return diagnostics;
}

/** Objects that refer to each other, which `terraform validate` refuses as a plan would. */
export function dependencyCycleProblems(configuration: Configuration): Diagnostic[] {
  try {
    dependencyOrder(dependencies(configuration));
    return [];
  } catch (err) {
    if (err instanceof TenantformError) return [err.toDiagnostic()];
    throw err;
  }
}
