import type { AttributePath, Diagnostic } from '../diagnostics';
import { type TenantformError } from '../errors';
import { languageErrors } from './language-errors';
import { asBool, parseTemplate, referencesOf, type EvalContext } from '../expressions';
import { isRecord } from '../plain-json';
import { containsUnknown } from '../resources/values';
import { evaluateValue, referencesIn, type Reference } from './expression-scope';
import type { DeclaredNames } from './language';
import type { NamedBlock } from './model';

/** One assertion: a check's `assert`, a resource's `precondition` or `postcondition`. */
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
export function parseChecks(blocks: readonly NamedBlock[], names: DeclaredNames, problems: TenantformError[]): DeclaredCheck[] {
  const checks: DeclaredCheck[] = [];
  for (const [name, body] of blocks) {
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
    if (body.assert === undefined || (Array.isArray(body.assert) && body.assert.length === 0))
      problems.push(languageErrors.invalidCheck(at, 'a check block holds at least one `assert` block', ['assert']));
    const asserts = assertionsIn(body.assert, at, ['assert'], (where, why, path) => problems.push(languageErrors.invalidCheck(where, why, path)));
    asserts.forEach((a, i) => {
      if (!refersToSomething(a.condition)) problems.push(languageErrors.conditionChecksNothing(at, ['assert', i, 'condition']));
    });
    const references = referencesIn(
      asserts.map((a) => [a.condition, a.errorMessage]),
      at,
      names,
      problems,
      ['assert'],
    ).references;
    checks.push({ name, asserts, references });
  }
  return checks;
}

/** A condition that names nothing of the configuration has one result whatever is planned: Terraform refuses it. */
function refersToSomething(condition: unknown): boolean {
  if (typeof condition !== 'string') return false;
  const parsed = parseTemplate(condition);
  // A condition that does not parse is reported where it is evaluated.
  return 'problem' in parsed || referencesOf(parsed.expr).length > 0;
}

/** The assertion blocks under a body (`assert`, `precondition`, `postcondition`): one object or a list. */
export function assertionsIn(raw: unknown, at: string, path: AttributePath, refuse: (at: string, why: string, path: AttributePath) => void): CheckAssertion[] {
  if (raw === undefined) return [];
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  const asserts: CheckAssertion[] = [];
  const block = String(path[path.length - 1]);
  list.forEach((a, i) => {
    if (
      !isRecord(a) ||
      a.condition === undefined ||
      a.error_message === undefined ||
      Object.keys(a).some((k) => !['condition', 'error_message', '//'].includes(k))
    ) {
      refuse(at, `${/^[aeiou]/.test(block) ? 'an' : 'a'} \`${block}\` block takes \`condition\` and \`error_message\`, both required`, [...path, i]);
      return;
    }
    asserts.push({ condition: a.condition, errorMessage: a.error_message });
  });
  return asserts;
}

/** What evaluating assertions found: those whose condition is false (with their message), and expressions that failed. */
export interface AssertionOutcome {
  readonly failed: Array<{ readonly path: AttributePath; readonly message: string }>;
  readonly problems: Diagnostic[];
  /** Conditions whose result is not a bool: an error wherever the assertion is, as in Terraform. */
  readonly invalid: Diagnostic[];
}

/**
 * Assertions under `at` evaluated with what is known now: one whose condition is not known yet
 * is neither passed nor failed, and waits for the apply, as in Terraform.
 */
export function evaluateAssertions(asserts: readonly CheckAssertion[], context: EvalContext, address: string, at: AttributePath): AssertionOutcome {
  const outcome: AssertionOutcome = { failed: [], problems: [], invalid: [] };
  asserts.forEach((a, i) => {
    const path = [...at, i, 'condition'];
    const condition = evaluateValue(a.condition, context, address, path);
    if (condition.diagnostics.length > 0) return void outcome.problems.push(...condition.diagnostics);
    if (containsUnknown(condition.value)) return;
    const result = typeof condition.value === 'string' || typeof condition.value === 'boolean' ? asBool(condition.value) : undefined;
    if (result === undefined) return void outcome.invalid.push(languageErrors.invalidConditionResult(address, path, condition.value).toDiagnostic());
    if (result) return;
    const message = evaluateValue(a.errorMessage, context, address, [...at, i, 'error_message']);
    const known = typeof message.value === 'string' && message.diagnostics.length === 0 && message.sensitive.length === 0;
    outcome.failed.push({ path, message: known ? message.value : String(a.errorMessage) });
  });
  return outcome;
}

/**
 * A resource's preconditions (before it is planned or applied) or postconditions (on its planned
 * or applied value, `self`): each false one an error with its message, as Terraform reports it.
 */
export function conditionErrors(
  which: 'precondition' | 'postcondition',
  asserts: readonly CheckAssertion[],
  context: EvalContext,
  address: string,
): Diagnostic[] {
  if (asserts.length === 0) return [];
  const { failed, problems, invalid } = evaluateAssertions(asserts, context, address, ['lifecycle', which]);
  return [
    ...problems,
    ...invalid,
    ...failed.map((f) => ({
      severity: 'error' as const,
      summary: `Resource ${which} failed`,
      detail: f.message,
      address,
      path: f.path,
      code: `${which}_failed`,
    })),
  ];
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
    const { failed, problems, invalid } = evaluateAssertions(check.asserts, context, address, ['assert']);
    warnings.push(...invalid);
    warnings.push(...problems.map((d) => ({ ...d, severity: 'warning' as const, summary: `Check block assertion could not be evaluated: ${d.summary}` })));
    for (const f of failed)
      warnings.push({ severity: 'warning', summary: 'Check block assertion failed', detail: f.message, address, path: f.path, code: 'check_failed' });
  }
  return warnings;
}
