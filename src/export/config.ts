import type { Attributes, NestedAttribute } from '../resources/attributes';
import type { State } from '../resources/declaration';
import { valueEqual } from '../resources/values';

/**
 * The configuration that declares a live object: its configurable attributes (snake_case),
 * leaving out computed ones, nulls and values equal to the attribute's default, so that the
 * exported file says only what matters and plans empty against the object it came from.
 */
export function configOf(attributes: Attributes, state: State): State {
  const out: State = {};
  for (const [name, a] of Object.entries(attributes)) {
    if (a.mode === 'computed') continue;
    let v = state[name];
    if (v === null || v === undefined) continue;
    if (a.default !== undefined && valueEqual(a, v, a.default)) continue;
    if (a.type === 'object') v = configOf(a.attributes, v as State);
    else if (a.type === 'nested') v = nestedConfigOf(a, v);
    out[name] = v;
  }
  return out;
}

/** Each object of a collection as its configuration declares it. */
function nestedConfigOf(a: NestedAttribute, v: unknown): unknown {
  if (a.nesting === 'map') return Object.fromEntries(Object.entries(v as Record<string, State>).map(([k, item]) => [k, configOf(a.attributes, item)]));
  return (v as State[]).map((item) => configOf(a.attributes, item));
}
