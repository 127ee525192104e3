import type { Diagnostic } from '../diagnostics';
import type { State } from '../resources/declaration';
import { fromPlain, hasTemplateKey, isTemplate, SensitiveValue, type EvalContext } from '../expressions';
import { validateConfig } from '../resources/validate';
import { NO_ITEMS, sharedIfEmpty } from '../plain-json';
import type { DeclaredObject } from './configuration';
import { contextFor, evaluateValue, type LanguageScope } from './expression-scope';

/** The values known so far (objects absent are not known yet), with what expressions can name. */
export interface Known {
  readonly scope: LanguageScope;
  readonly values: ReadonlyMap<string, State>;
  /** Names answered otherwise (every name unknown, to validate what does not depend on a broken reference). */
  readonly context?: EvalContext;
}

export function lookupIn(scope: LanguageScope, values: ReadonlyMap<string, State>): Known {
  return { scope, values };
}

/**
 * The one place a declared object's arguments become values: expressions evaluated with what
 * is known now, then validated again, so a value that is only wrong once resolved
 * (`"x-${data.tenantform_tenant.a.id}"` where an id is expected) is refused before any request.
 * Values still unknown are validated when this runs again during apply. `sensitive` lists the
 * top-level arguments that carry a sensitive value (a sensitive variable): never shown.
 */
export function evaluateArguments(o: EvaluatedObject, known: Known): EvaluatedArguments {
  if (known.context) return evaluateAndValidate(o, known);
  let evaluated = constantArguments.get(o);
  if (evaluated === undefined) {
    const constant = isConstant(o.config);
    // Arguments with nothing to evaluate are their own value: no copy made, validated once.
    evaluated = constant ? validated(o, o.config, NO_ITEMS) : evaluateAndValidate(o, known);
    if (constant) constantArguments.set(o, evaluated);
  }
  return evaluated;
}

type EvaluatedObject = Pick<DeclaredObject, 'address' | 'kind' | 'config' | 'key' | 'each' | 'eachValue' | 'eachValueFrom'>;

interface EvaluatedArguments {
  readonly config: State;
  readonly sensitive: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/** Arguments without a template are the same whatever is known: evaluated and validated once per object. */
const constantArguments = new WeakMap<EvaluatedObject, EvaluatedArguments>();

const ASCII = /^[\x00-\x7f]*$/;

/** No template anywhere, and every string as the language reads it (in NFC): evaluating changes nothing. */
function isConstant(value: unknown): boolean {
  if (typeof value === 'string') return !isTemplate(value) && (ASCII.test(value) || value.normalize('NFC') === value);
  if (Array.isArray(value)) return value.every(isConstant);
  if (value !== null && typeof value === 'object') return !hasTemplateKey(value) && Object.values(value).every(isConstant);
  return true;
}

function evaluateAndValidate(o: EvaluatedObject, known: Known): EvaluatedArguments {
  const evaluated = evaluateValue(o.config, known.context ?? contextFor(known.scope, known.values, o), o.address);
  const sensitive = [...new Set(evaluated.sensitive.map((p) => String(p[0])))];
  if (evaluated.diagnostics.length > 0) return withSensitiveMasked(evaluated.value as State, sensitive, evaluated.diagnostics);
  return validated(o, evaluated.value as State, sensitive);
}

function validated(o: EvaluatedObject, config: State, sensitive: readonly string[]): EvaluatedArguments {
  return withSensitiveMasked(config, sensitive, validateConfig(o.kind, config, o.address));
}

/** A sensitive value is never quoted back, not even when it is wrong. */
function withSensitiveMasked(config: State, sensitive: readonly string[], diagnostics: Diagnostic[]): EvaluatedArguments {
  if (diagnostics.length === 0) return { config, sensitive: sharedIfEmpty(sensitive), diagnostics: NO_ITEMS };
  return {
    config,
    sensitive: sharedIfEmpty(sensitive),
    diagnostics: diagnostics.map((d) => (d.path && sensitive.includes(String(d.path[0])) ? masked(d) : d)),
  };
}

/** The object's value with the arguments given a sensitive value marked, so that what refers to them is sensitive too. */
export function withSensitiveMarks(value: State, sensitive: readonly string[]): State {
  if (sensitive.length === 0) return value;
  const out: State = { ...value };
  for (const name of sensitive) if (name in out && !(out[name] instanceof SensitiveValue)) out[name] = new SensitiveValue(fromPlain(out[name]));
  return out;
}

function masked(d: Diagnostic): Diagnostic {
  return { ...d, detail: d.detail.replace(/found .*\.$/s, 'found a sensitive value.') };
}
