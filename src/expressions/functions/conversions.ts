import { asBool, asNumber, asString, describe, elementsOf, isPrimitive, unifyPrimitives } from '../convert';
import { objectOf, SensitiveValue, SetValue, unmarkDeep, type Value } from '../values';
import { callFailed, define, type Call } from './spec';

function primitive<T>(convert: (v: Value) => T | undefined, wanted: string) {
  return ([v]: Value[], _: Value[], call: Call): Value => {
    if (v === null) return null;
    const converted = isPrimitive(v) ? convert(v) : undefined;
    if (converted === undefined) callFailed(call, `cannot convert ${describe(v)} to ${wanted}.`);
    return converted as Value;
  };
}

function unified(values: readonly Value[], call: Call, wanted: string): Value[] {
  const result = unifyPrimitives(values);
  if (!result) callFailed(call, `cannot convert ${describe(values)} to ${wanted}: its elements have no common type.`);
  return result;
}

export const conversionFunctions = {
  tostring: define({
    params: [['v', 'any']],
    body: primitive(asString, 'a string'),
  }),
  tonumber: define({
    params: [['v', 'any']],
    body: primitive((v) => (typeof v === 'boolean' ? undefined : asNumber(v)), 'a number'),
  }),
  tobool: define({
    params: [['v', 'any']],
    body: primitive((v) => (typeof v === 'number' ? undefined : asBool(v)), 'a bool'),
  }),
  tolist: define({
    unknowns: 'elements',
    params: [['v', 'any']],
    body: ([v], _, call) => {
      const items = v === null ? undefined : elementsOf(v);
      if (!items) return v === null ? null : callFailed(call, `cannot convert ${describe(v)} to a list.`);
      return unified(items, call, 'a list');
    },
  }),
  toset: define({
    params: [['v', 'any']],
    body: ([v], _, call) => {
      const items = v === null ? undefined : elementsOf(v);
      if (!items) return v === null ? null : callFailed(call, `cannot convert ${describe(v)} to a set.`);
      return new SetValue(unified(items, call, 'a set'));
    },
  }),
  tomap: define({
    unknowns: 'elements',
    params: [['v', 'any']],
    body: ([v], _, call) => {
      if (v === null) return null;
      const entries = typeof v === 'object' && !elementsOf(v) && !(v instanceof SensitiveValue) ? Object.entries(v) : undefined;
      if (!entries) return callFailed(call, `cannot convert ${describe(v)} to a map.`);
      const values = unified(
        entries.map(([, x]) => x),
        call,
        'a map',
      );
      return objectOf(entries.map(([k], i) => [k, values[i]]));
    },
  }),
  sensitive: define({
    params: [['value', 'any']],
    unknowns: 'any',
    handlesMarks: true,
    body: ([v]) => (v instanceof SensitiveValue ? v : new SensitiveValue(v)),
  }),
  nonsensitive: define({ params: [['value', 'any']], unknowns: 'any', handlesMarks: true, body: ([v]) => unmarkDeep(v) }),
  issensitive: define({ params: [['value', 'any']], unknowns: 'any', handlesMarks: true, body: ([v]) => v instanceof SensitiveValue }),
};
