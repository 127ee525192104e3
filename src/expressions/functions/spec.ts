import { asBool, asNumber, asString, describe, elementsOf } from '../convert';
import { fail, type SourceRange } from '../problems';
import { isObject, type Value, type ValueObject } from '../values';

/**
 * A function of the expression language, declared once: its parameters (converted and checked
 * before the body runs, as Terraform does) and its body on the converted arguments.
 */
export type ParamType = 'string' | 'number' | 'bool' | 'list' | 'object' | 'any';
export type Param<T extends ParamType = ParamType> = readonly [name: string, type: T];

type ArgOf<T extends ParamType> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'bool'
      ? boolean
      : T extends 'list'
        ? readonly Value[]
        : T extends 'object'
          ? ValueObject
          : Value;

type ArgsOf<P extends readonly Param[]> = {
  -readonly [K in keyof P]: P[K] extends Param<infer T> ? ArgOf<T> : never;
};

/**
 * How a function meets values not known yet. By default any unknown inside any argument makes
 * the result unknown. `elements`: only an argument that is unknown as a whole does; unknown
 * elements inside collections pass through (functions that only rearrange collections, so
 * `merge(local.base, { id = x.id })` stays an object with one unknown attribute).
 * `any`: the body sees every unknown and decides.
 */
export type UnknownHandling = 'elements' | 'any';

export interface Call {
  readonly name: string;
  readonly range: SourceRange;
}

export interface FunctionSpec {
  readonly params: readonly Param[];
  readonly variadic?: Param;
  readonly unknowns?: UnknownHandling;
  /** The body handles sensitive marks itself (sensitive, nonsensitive, issensitive): arguments keep them and the result is not marked. */
  readonly handlesMarks?: boolean;
  readonly body: (args: Value[], rest: Value[], call: Call) => Value;
}

export function define<const P extends readonly Param[], V extends ParamType = 'any'>(spec: {
  params: P;
  variadic?: Param<V>;
  unknowns?: UnknownHandling;
  handlesMarks?: boolean;
  body: (args: ArgsOf<P>, rest: Array<ArgOf<V>>, call: Call) => Value;
}): FunctionSpec {
  // The parameters were converted to their declared types before the body runs (see call.ts).
  const body = spec.body as (args: Value[], rest: Value[], call: Call) => Value;
  return { ...spec, variadic: spec.variadic, body };
}

/** A failure of the call, naming the function. */
export function callFailed(call: Call, message: string): never {
  return fail('invalid_argument', call.name, call.range, `Call to function "${call.name}" failed: ${message}`);
}

const CONVERTERS: Record<Exclude<ParamType, 'any'>, (v: Value) => unknown> = {
  string: asString,
  number: asNumber,
  bool: asBool,
  list: elementsOf,
  object: (v) => (isObject(v) ? v : undefined),
};

const WANTED: Record<Exclude<ParamType, 'any'>, string> = {
  string: 'a string',
  number: 'a number',
  bool: 'a bool',
  list: 'a list, tuple or set',
  object: 'a map or object',
};

/** Converts one argument to its parameter's type, or fails naming the parameter. */
export function convertArgument(value: Value, [name, type]: Param, call: Call): Value {
  if (type === 'any') return value;
  if (value === null) fail('invalid_argument', call.name, call.range, `Invalid value for "${name}" parameter of "${call.name}": argument must not be null.`);
  const converted = CONVERTERS[type](value);
  if (converted === undefined)
    fail(
      'invalid_argument',
      call.name,
      call.range,
      `Invalid value for "${name}" parameter of "${call.name}": ${WANTED[type]} is required, not ${describe(value)}.`,
    );
  return converted as Value;
}
