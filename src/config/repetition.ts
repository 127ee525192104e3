import type { AttributePath } from '../diagnostics';
import { type TenantformError } from '../errors';
import { languageErrors } from './language-errors';
import { containsSensitive, evaluateConfigValue, isKnown, SensitiveValue, SetValue, unmarkDeep, UNKNOWN, type EvalContext, type Value } from '../expressions';
import type { InstanceKey } from '../state/addresses';

/**
 * `count` and `for_each`: the instances of a block, each with its key (`[0]`, `["eu"]`) and, for
 * for_each, its `each.value`. Their values must be known when planning, as in Terraform.
 */

export interface Instance {
  readonly key: InstanceKey;
  /** `each.value` (for_each only). */
  readonly value?: Value;
}

export interface Repetition {
  readonly each: 'list' | 'map';
  readonly instances: Instance[];
}

export function repetitionOf(address: string, body: Record<string, unknown>, context: EvalContext, problems: TenantformError[]): Repetition | undefined {
  if (body.count !== undefined && body.for_each !== undefined) {
    problems.push(languageErrors.invalidRepetition(address, 'count', 'A block takes count or for_each, not both.'));
    return undefined;
  }
  if (body.count !== undefined) {
    const marked = valueOf(address, body.count, ['count'], context, problems);
    if (marked === undefined) return undefined;
    // A count may come from a sensitive value, as in terraform: only how many is told.
    const v = unmarkDeep(marked);
    if (!isKnown(v)) return unknown(address, 'count', problems);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
      problems.push(languageErrors.invalidRepetition(address, 'count', 'The count must be a whole number, 0 or more.'));
      return undefined;
    }
    if (v > MAX_INSTANCES) {
      problems.push(
        languageErrors.invalidRepetition(address, 'count', `The count is ${v}; a block takes at most ${MAX_INSTANCES.toLocaleString('en')} instances.`),
      );
      return undefined;
    }
    return { each: 'list', instances: Array.from({ length: v }, (_, key) => ({ key })) };
  }
  if (body.for_each === undefined) return undefined;
  const v = valueOf(address, body.for_each, ['for_each'], context, problems);
  if (v === undefined) return undefined;
  // The keys become addresses, printed in every plan, state, log and comment: they are never secret.
  // A map's values may be (each.value stays sensitive); a set's elements are its keys.
  if (v instanceof SensitiveValue || (v instanceof SetValue && v.elements.some(containsSensitive))) return sensitive(address, 'for_each', problems);
  if (v === UNKNOWN || (v instanceof SetValue && !isKnown(v))) return unknown(address, 'for_each', problems);
  if (v instanceof SetValue) {
    if (v.elements.some((e) => typeof e !== 'string')) {
      problems.push(languageErrors.invalidRepetition(address, 'for_each', 'A set given to for_each must hold strings only.'));
      return undefined;
    }
    return { each: 'map', instances: v.elements.map((e) => ({ key: e as string, value: e })) };
  }
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    return { each: 'map', instances: Object.entries(v).map(([key, value]) => ({ key, value: value })) };
  }
  problems.push(languageErrors.invalidRepetition(address, 'for_each', 'The for_each value must be a map, or a set of strings (a list needs toset(...)).'));
  return undefined;
}

/** The most instances one block may have: far more than an estate holds, far less than memory can. */
export const MAX_INSTANCES = 1_000_000;

function sensitive(address: string, argument: 'for_each', problems: TenantformError[]): undefined {
  problems.push(
    languageErrors.invalidRepetition(
      address,
      argument,
      'Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments: each key would be shown in every plan and recorded in the state. ' +
        'If you do intend to use this value, wrap it in nonsensitive(...).',
    ),
  );
  return undefined;
}

function unknown(address: string, argument: 'count' | 'for_each', problems: TenantformError[]): undefined {
  problems.push(
    languageErrors.invalidRepetition(
      address,
      argument,
      `The "${argument}" value depends on resource attributes that cannot be determined until apply, so tenantform cannot predict how many instances will be created. ` +
        `Use only variables and locals in ${argument}, or apply the resources it depends on first with --target.`,
    ),
  );
  return undefined;
}

function valueOf(address: string, raw: unknown, path: AttributePath, context: EvalContext, problems: TenantformError[]): Value | undefined {
  // A map written out (`{ (local.k) = ... }`) holds templates in its keys and values too.
  const r = evaluateConfigValue(raw, context);
  if ('problem' in r) {
    problems.push(languageErrors.expression(address, [...path, ...r.problem.path], r.problem));
    return undefined;
  }
  return r.value;
}
