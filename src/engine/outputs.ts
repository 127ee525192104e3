import type { Diagnostic } from '../diagnostics';
import type { State } from '../resources/declaration';
import { canonicalJson, containsUnknown, Unknown } from '../resources/values';
import type { Configuration } from '../config/config';
import { contextFor, evaluateValue } from '../config/expression-scope';
import type { OutputChange } from '../plans/model';

/**
 * Output values: evaluated with the objects' values, compared with those the state recorded,
 * and recorded in Terraform's shape (`{ value, type, sensitive? }`), so that Terraform with the
 * provider plans no change to them after tenantform applied, and back.
 */

export interface StateOutput {
  readonly value: unknown;
  readonly type: unknown;
  readonly sensitive?: true;
}

/**
 * The locals whose evaluation fails with the objects' values as planned (`jsondecode("{")`, an index
 * that does not exist), each an error naming `local.<name>`: a failure is never taken for a value
 * not known yet, which would plan an output or argument as "known after apply" that never comes.
 */
export function localsDiagnostics(configuration: Configuration, values: ReadonlyMap<string, State>): Diagnostic[] {
  const context = contextFor(configuration, values);
  const diagnostics: Diagnostic[] = [];
  for (const [name, raw] of configuration.locals) diagnostics.push(...evaluateValue(raw, context, `local.${name}`).diagnostics);
  return diagnostics;
}

/** Every output evaluated now: the value, unknown (`Unknown` inside) until what it uses is known. */
export function evaluateOutputs(
  configuration: Configuration,
  values: ReadonlyMap<string, State>,
): { values: Map<string, { value: unknown; sensitive: boolean }>; diagnostics: Diagnostic[] } {
  const context = contextFor(configuration, values);
  const out = new Map<string, { value: unknown; sensitive: boolean }>();
  const diagnostics: Diagnostic[] = [];
  for (const o of configuration.outputs.values()) {
    const r = evaluateValue(o.value, context, `output.${o.name}`, ['value']);
    diagnostics.push(...r.diagnostics);
    // An output holding a sensitive value must be declared sensitive, as in Terraform.
    if (r.sensitive.length > 0 && !o.sensitive) {
      diagnostics.push({
        severity: 'error',
        summary: 'Output refers to sensitive values',
        detail: `output.${o.name} holds a sensitive value; declare it with sensitive = true (TerraformOutput's \`sensitive: true\`).`,
        address: `output.${o.name}`,
        path: ['value'],
        code: 'sensitive_output',
      });
    }
    out.set(o.name, { value: r.diagnostics.length > 0 ? Unknown : r.value, sensitive: o.sensitive || r.sensitive.length > 0 });
  }
  return { values: out, diagnostics };
}

/** The changes to outputs against those recorded in the state. */
export function outputChanges(
  evaluated: ReadonlyMap<string, { value: unknown; sensitive: boolean }>,
  recorded: Readonly<Record<string, unknown>>,
): OutputChange[] {
  const changes: OutputChange[] = [];
  for (const [name, { value, sensitive }] of evaluated) {
    const prior = recordedOutput(recorded[name]);
    const afterUnknown = containsUnknown(value);
    const action = !prior ? 'create' : afterUnknown || canonicalJson(prior.value) !== canonicalJson(value) ? 'update' : 'no-op';
    changes.push({
      name,
      action,
      before: prior?.value,
      after: afterUnknown ? undefined : value,
      afterUnknown,
      sensitive: sensitive || prior?.sensitive === true,
    });
  }
  for (const [name, raw] of Object.entries(recorded)) {
    if (evaluated.has(name)) continue;
    const prior = recordedOutput(raw);
    changes.push({ name, action: 'delete', before: prior?.value, afterUnknown: false, sensitive: prior?.sensitive === true });
  }
  return changes;
}

/** The outputs to record: those whose value is known (the others keep waiting for a later apply). */
export function recordedOutputs(evaluated: ReadonlyMap<string, { value: unknown; sensitive: boolean }>): Record<string, StateOutput> {
  const out: Record<string, StateOutput> = {};
  for (const [name, { value, sensitive }] of evaluated) {
    if (containsUnknown(value)) continue;
    out[name] = { value, type: ctyType(value), ...(sensitive ? { sensitive: true as const } : {}) };
  }
  return out;
}

function recordedOutput(raw: unknown): StateOutput | undefined {
  return raw !== null && typeof raw === 'object' && 'value' in raw ? (raw as StateOutput) : undefined;
}

/** Terraform's JSON type of a value as an expression gives it: tuples for lists, objects for maps. */
export function ctyType(v: unknown): unknown {
  if (v === null || v === undefined) return 'dynamic';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return ['tuple', v.map(ctyType)];
  return ['object', Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, ctyType(x)]))];
}
