import type { Diagnostic } from '../diagnostics';
import { languageErrors, type TenantformError } from '../errors';
import type { EvalContext } from '../expressions';
import { isRecord } from '../plain-json';
import type { State } from '../resources/declaration';
import { containsUnknown } from '../resources/values';
import { evaluateValue, referencesIn, type Reference } from './expression-scope';
import { entriesOf, type DeclaredNames } from './language';

/** One `assert` of a `check` block: a condition, and the message shown when it is false. */
export interface CheckAssertion {
  readonly condition: unknown;
  readonly errorMessage: unknown;
}

/** A `check` block (Terraform 1.5): assertions about the objects, reported as warnings, never stopping a run. */
export interface DeclaredCheck {
  readonly name: string;
  readonly asserts: readonly CheckAssertion[];
  /** What its assertions refer to: checked against the declared objects as every reference is. */
  readonly references: readonly Reference[];
}

/**
 * The `check` blocks of Terraform JSON (`check.<name>.assert`, one object or a list). A scoped
 * `data` block inside one is refused by name: the native plan does not read it.
 */
export function parseChecks(raw: unknown, names: DeclaredNames, problems: TenantformError[]): DeclaredCheck[] {
  const checks: DeclaredCheck[] = [];
  for (const [name, body] of entriesOf(raw)) {
    const at = `check.${name}`;
    if (!isRecord(body)) {
      problems.push(languageErrors.invalidCheck(at, 'a check block is an object with `assert` blocks', []));
      continue;
    }
    for (const k of Object.keys(body)) {
      if (k === 'data')
        problems.push(
          languageErrors.invalidCheck(
            at,
            "a check block's scoped data source is not read by tenantform's own plan; read it with a data block outside the check, or plan through Terraform and tenantform's provider",
            ['data'],
          ),
        );
      else if (k !== 'assert' && k !== '//') problems.push(languageErrors.invalidCheck(at, `a check block takes \`assert\` blocks, not \`${k}\``, [k]));
    }
    const list: unknown[] = body.assert === undefined ? [] : Array.isArray(body.assert) ? body.assert : [body.assert];
    if (list.length === 0) problems.push(languageErrors.invalidCheck(at, 'a check block holds at least one `assert` block', ['assert']));
    const asserts: CheckAssertion[] = [];
    const references: Reference[] = [];
    list.forEach((a, i) => {
      const path = ['assert', i];
      if (
        !isRecord(a) ||
        a.condition === undefined ||
        a.error_message === undefined ||
        Object.keys(a).some((k) => !['condition', 'error_message', '//'].includes(k))
      ) {
        problems.push(languageErrors.invalidCheck(at, 'an `assert` block takes `condition` and `error_message`, both required', path));
        return;
      }
      references.push(...referencesIn(a.condition, at, names, problems, [...path, 'condition']).references);
      references.push(...referencesIn(a.error_message, at, names, problems, [...path, 'error_message']).references);
      asserts.push({ condition: a.condition, errorMessage: a.error_message });
    });
    checks.push({ name, asserts, references });
  }
  return checks;
}

/**
 * The assertions of the check blocks, evaluated with the objects' values as they are now (planned,
 * or applied): a false one is a warning with its message, as Terraform reports it; one that uses a
 * value known only after apply waits for the apply.
 */
export function checkWarnings(checks: readonly DeclaredCheck[], context: EvalContext): Diagnostic[] {
  const warnings: Diagnostic[] = [];
  for (const check of checks) {
    const address = `check.${check.name}`;
    check.asserts.forEach((a, i) => {
      const condition = evaluateValue(a.condition, context, address, ['assert', i, 'condition']);
      if (condition.diagnostics.length > 0) {
        warnings.push(
          ...condition.diagnostics.map((d) => ({ ...d, severity: 'warning' as const, summary: `Check block assertion could not be evaluated: ${d.summary}` })),
        );
        return;
      }
      if (containsUnknown(condition.value as State) || condition.value !== false) return;
      const message = evaluateValue(a.errorMessage, context, address, ['assert', i, 'error_message']);
      const text =
        typeof message.value === 'string' && message.diagnostics.length === 0 && message.sensitive.length === 0 ? message.value : String(a.errorMessage);
      warnings.push({
        severity: 'warning',
        summary: 'Check block assertion failed',
        detail: text,
        address,
        path: ['assert', i, 'condition'],
        code: 'check_failed',
      });
    });
  }
  return warnings;
}
