import { asBool, asNumber, asString, describe, elementsOf, unifyPrimitives } from '../convert';
import { fail } from '../problems';
import { compareKeys, isKnown, isObject, objectOf, SetValue, sortedEntries, UNKNOWN, valuesEqual, type Value, type ValueObject } from '../values';
import { graphemes } from './strings';
import { callFailed, define, type Call } from './spec';

function indexOf(list: readonly Value[], value: Value): number {
  return list.findIndex((x) => valuesEqual(x, value));
}

function mapArgument(v: Value, call: Call): ValueObject {
  if (!isObject(v)) callFailed(call, `a map or object is required, not ${describe(v)}.`);
  return v;
}

function flattenInto(items: readonly Value[], out: Value[]): boolean {
  for (const item of items) {
    if (item === UNKNOWN) return false;
    const inner = elementsOf(item);
    if (inner) {
      if (!flattenInto(inner, out)) return false;
    } else out.push(item);
  }
  return true;
}

function wholeNumber(n: number, what: string, call: Call): number {
  if (!Number.isInteger(n)) callFailed(call, `${what} must be a whole number.`);
  return n;
}

function booleans(list: readonly Value[], call: Call): boolean[] {
  return list.map((v) => {
    const b = v === null ? undefined : asBool(v);
    if (b === undefined) callFailed(call, `every element must be a bool, not ${describe(v)}.`);
    return b;
  });
}

export const collectionFunctions = {
  length: define({
    params: [['value', 'any']],
    unknowns: 'elements',
    body: ([v], _, call) => {
      if (typeof v === 'string') return graphemes(v).length;
      const items = elementsOf(v);
      if (items) return items.length;
      if (isObject(v)) return Object.keys(v).length;
      return fail(
        'invalid_argument',
        call.name,
        call.range,
        `Invalid value for "value" parameter of "length": a collection or string is required, not ${describe(v)}.`,
      );
    },
  }),
  lookup: define({
    unknowns: 'elements',
    params: [
      ['inputMap', 'any'],
      ['key', 'string'],
    ],
    variadic: ['default', 'any'],
    body: ([map, key], rest, call) => {
      if (rest.length > 1) callFailed(call, 'lookup takes at most three arguments.');
      const object = mapArgument(map, call);
      if (Object.hasOwn(object, key)) {
        return object[key];
      }
      if (!rest.length) callFailed(call, `lookup failed to find key "${key}".`);
      return rest[0];
    },
  }),
  element: define({
    unknowns: 'elements',
    params: [
      ['list', 'list'],
      ['index', 'number'],
    ],
    body: ([list, index], _, call) => {
      if (list.length === 0) callFailed(call, 'cannot use element function with an empty list.');
      if (wholeNumber(index, 'index', call) < 0) callFailed(call, 'cannot use element function with a negative index.');
      return list[index % list.length];
    },
  }),
  index: define({
    params: [
      ['list', 'list'],
      ['value', 'any'],
    ],
    body: ([list, value], _, call) => {
      const at = indexOf(list, value);
      if (at < 0) callFailed(call, 'item not found.');
      return at;
    },
  }),
  contains: define({
    params: [
      ['list', 'list'],
      ['value', 'any'],
    ],
    body: ([list, value]) => indexOf(list, value) >= 0,
  }),
  keys: define({
    unknowns: 'elements',
    params: [['inputMap', 'any']],
    body: ([map], _, call) => Object.keys(mapArgument(map, call)).sort(compareKeys),
  }),
  values: define({
    unknowns: 'elements',
    params: [['mapping', 'any']],
    body: ([map], _, call) => sortedEntries(mapArgument(map, call)).map(([, v]) => v),
  }),
  merge: define({
    unknowns: 'elements',
    params: [],
    variadic: ['maps', 'any'],
    body: (_, maps, call) => objectOf(maps.filter((m) => m !== null).flatMap((m) => Object.entries(mapArgument(m, call)))),
  }),
  concat: define({
    unknowns: 'elements',
    params: [],
    variadic: ['seqs', 'any'],
    body: (_, lists, call) => {
      if (!lists.length) callFailed(call, 'at least one list is required.');
      // Sets have no order to concatenate in: Terraform refuses them here.
      return lists.flatMap((l) => (Array.isArray(l) ? l : callFailed(call, `all arguments must be lists or tuples, not ${describe(l)}.`)));
    },
  }),
  flatten: define({
    params: [['list', 'list']],
    unknowns: 'elements',
    body: ([list]) => {
      const out: Value[] = [];
      return flattenInto(list, out) ? out : UNKNOWN;
    },
  }),
  distinct: define({
    params: [['list', 'list']],
    body: ([list]) => list.filter((v, i) => indexOf(list, v) === i),
  }),
  coalesce: define({
    params: [],
    variadic: ['vals', 'any'],
    body: (_, values, call) => {
      const common = unifyPrimitives(values) ?? values;
      const found = common.find((v) => v !== null && v !== '');
      if (found === undefined) callFailed(call, 'no non-null, non-empty-string arguments.');
      return found;
    },
  }),
  coalescelist: define({
    unknowns: 'elements',
    params: [],
    variadic: ['vals', 'any'],
    body: (_, values, call) => {
      const found = values.find((v) => v !== null && (elementsOf(v) ?? callFailed(call, `a list is required, not ${describe(v)}.`)).length > 0);
      if (found === undefined) callFailed(call, 'no non-null arguments.');
      return found;
    },
  }),
  compact: define({
    params: [['list', 'list']],
    body: ([list]) => list.filter((v) => v !== null && v !== '').map((v) => asString(v) ?? v),
  }),
  reverse: define({
    unknowns: 'elements',
    params: [['list', 'list']],
    body: ([list]) => [...list].reverse(),
  }),
  slice: define({
    unknowns: 'elements',
    params: [
      ['list', 'list'],
      ['start_index', 'number'],
      ['end_index', 'number'],
    ],
    body: ([list, start, end], _, call) => {
      if (wholeNumber(start, 'start_index', call) < 0 || wholeNumber(end, 'end_index', call) > list.length)
        callFailed(call, `the indexes must be within 0 and ${list.length}.`);
      if (start > end) callFailed(call, "the start index can't be greater than the end index.");
      return list.slice(start, end);
    },
  }),
  sort: define({
    params: [['list', 'list']],
    body: ([list], _, call) =>
      list.map((v) => (v === null ? undefined : asString(v)) ?? callFailed(call, `every element must be a string, not ${describe(v)}.`)).sort(compareKeys),
  }),
  zipmap: define({
    unknowns: 'elements',
    params: [
      ['keys', 'list'],
      ['values', 'list'],
    ],
    body: ([keys, values], _, call) => {
      if (!keys.every(isKnown)) return UNKNOWN;
      if (keys.length !== values.length) callFailed(call, `the keys and values lists have different lengths (${keys.length} and ${values.length}).`);
      return objectOf(keys.map((k, i) => [asString(k) ?? callFailed(call, `every key must be a string, not ${describe(k)}.`), values[i]]));
    },
  }),
  range: define({
    params: [],
    variadic: ['params', 'number'],
    body: (_, params, call) => {
      if (params.length < 1 || params.length > 3) callFailed(call, 'range takes one, two or three arguments.');
      const [start, end, step] =
        params.length === 1 ? [0, params[0], params[0] < 0 ? -1 : 1] : [params[0], params[1], params[2] ?? (params[0] <= params[1] ? 1 : -1)];
      if (step === 0) callFailed(call, 'step must not be zero.');
      if ((step > 0 && start > end) || (step < 0 && start < end)) callFailed(call, 'the step does not lead from the start to the end.');
      const out: number[] = [];
      for (let v = start; step > 0 ? v < end : v > end; v += step) {
        if (out.length >= 1024) callFailed(call, 'more than 1024 values would be produced.');
        out.push(v);
      }
      return out;
    },
  }),
  one: define({
    unknowns: 'elements',
    params: [['list', 'list']],
    body: ([list], _, call) => {
      if (list.length > 1) callFailed(call, `must be a list, set, or tuple value with either zero or one elements, not ${list.length}.`);
      return list.length ? list[0] : null;
    },
  }),
  alltrue: define({
    params: [['list', 'list']],
    body: ([list], _, call) => booleans(list, call).every(Boolean),
  }),
  anytrue: define({
    params: [['list', 'list']],
    body: ([list], _, call) => booleans(list, call).some(Boolean),
  }),
  sum: define({
    params: [['list', 'list']],
    body: ([list], _, call) => {
      if (list.length === 0) callFailed(call, 'cannot sum an empty list.');
      return list.reduce<number>(
        (total, v) => total + (v === null ? NaN : (asNumber(v) ?? callFailed(call, `every element must be a number, not ${describe(v)}.`))),
        0,
      );
    },
  }),
  chunklist: define({
    params: [
      ['list', 'list'],
      ['size', 'number'],
    ],
    unknowns: 'elements',
    body: ([list, size], _, call) => {
      if (wholeNumber(size, 'size', call) < 0) callFailed(call, 'the size argument must be positive.');
      if (size === 0) return [list];
      return Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));
    },
  }),
  transpose: define({
    params: [['values', 'object']],
    body: ([map], _, call) => {
      const result = new Map<string, string[]>();
      for (const [key, list] of sortedEntries(map))
        for (const item of elementsOf(list) ?? callFailed(call, `the value of "${key}" must be a list of strings.`)) {
          const text = item === null ? undefined : asString(item);
          if (text === undefined) callFailed(call, `the value of "${key}" must be a list of strings.`);
          result.set(text, [...(result.get(text) ?? []), key]);
        }
      return objectOf([...result].map(([k, keys]) => [k, keys.sort(compareKeys)]));
    },
  }),
  matchkeys: define({
    params: [
      ['values', 'list'],
      ['keys', 'list'],
      ['searchset', 'list'],
    ],
    body: ([values, keys, search], _, call) => {
      if (values.length !== keys.length) callFailed(call, 'length of keys and values should be equal.');
      return values.filter((_, i) => indexOf(search, keys[i]) >= 0);
    },
  }),
  setunion: define({
    params: [],
    variadic: ['sets', 'list'],
    body: (_, sets) => new SetValue(sets.flat()),
  }),
  setintersection: define({
    params: [['first_set', 'list']],
    variadic: ['other_sets', 'list'],
    body: ([first], others) => new SetValue(first.filter((v) => others.every((o) => indexOf(o, v) >= 0))),
  }),
  setsubtract: define({
    params: [
      ['a', 'list'],
      ['b', 'list'],
    ],
    body: ([a, b]) => new SetValue(a.filter((v) => indexOf(b, v) < 0)),
  }),
};
