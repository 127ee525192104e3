import { z } from 'zod';

/**
 * Attribute declarations: the single source of every fact about an attribute.
 * The zod validation, the Terraform schema, the cdktf props type and the docs are all
 * derived from these objects; nothing about an attribute is written twice.
 */

/**
 * A resource's attributes as Terraform stores them: snake_case keys, every attribute of
 * the schema present (null when unset), objects as plain objects, JSON as a string.
 */
export type State = Record<string, unknown>;

/** How an attribute is set: by the user, by the platform, or by either. */
export type Mode = 'required' | 'optional' | 'computed' | 'optional_computed';

interface BaseAttribute {
  readonly mode: Mode;
  readonly description: string;
  /** Changing it replaces the object (Terraform's RequiresReplace). */
  readonly forceNew?: boolean;
  /** Never shown in plans, logs or errors; stored only as a hash (unless `keptInState`). */
  readonly sensitive?: boolean;
  /**
   * A sensitive value the platform issues once and never returns again (an API client's
   * secret): kept in the state as is, as Terraform keeps such secrets, so outputs can use it.
   */
  readonly keptInState?: boolean;
  /** The platform's optimistic-concurrency version field. */
  readonly version?: boolean;
  /** Value used when the configuration leaves an optional attribute out. */
  readonly default?: unknown;
  /** Shown in plans to identify the object even when unchanged. */
  readonly identifying?: boolean;
  /**
   * Set in every state of the object: given by its import id, and by the create's answer when
   * computed. Its state type is never null.
   */
  readonly key?: boolean;
  /** A computed value the platform recomputes on every update (unknown in an update plan). */
  readonly changesOnUpdate?: boolean;
  /** A computed value the platform derives from these arguments: unknown in a plan that changes one of them. */
  readonly changesWith?: readonly string[];
  /**
   * The platform derives this value from the named argument (the value in effect from the value
   * set): sensitive whenever that argument is given a sensitive value.
   */
  readonly sensitiveWith?: string;
  /**
   * Set when the argument is on its way out: the message tells what to use instead. It reaches
   * the schema (Terraform warns where a configuration sets the argument), the description and the docs.
   */
  readonly deprecated?: string;
}

export interface StringAttribute extends BaseAttribute {
  readonly type: 'string';
  /** Extra rule for a configured value (uuid, pattern, enumeration). */
  readonly check?: z.ZodType<string>;
  /** Human words for what the check expects, used in problems and docs. */
  readonly expects?: string;
}
export interface NumberAttribute extends BaseAttribute {
  readonly type: 'number';
  /** Extra rule for a configured value (a whole number, a range). */
  readonly check?: z.ZodType<number>;
  /** Human words for what the check expects, used in problems and docs. */
  readonly expects?: string;
}
export interface BoolAttribute extends BaseAttribute {
  readonly type: 'bool';
}
/** A string holding JSON; compared semantically, so key order never makes a diff. */
export interface JsonAttribute extends BaseAttribute {
  readonly type: 'json';
  /** The JSON must be an object (the platform drops anything else). */
  readonly holdsObject?: boolean;
}
export interface ListAttribute extends BaseAttribute {
  readonly type: 'list';
  readonly element: z.ZodType<string>;
  readonly expects?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly unique?: boolean;
}
/** A single nested object (Terraform's SINGLE nesting). */
export interface ObjectAttribute extends BaseAttribute {
  readonly type: 'object';
  readonly attributes: Readonly<Record<string, Attribute>>;
}

/** How a nested collection holds its objects: by position, by value, or by key. */
export type Nesting = 'list' | 'set' | 'map';

/**
 * A list, set or map of nested objects (Terraform's nested attributes), each object with
 * attributes of its own. A list compares by position, a set without order, a map by key.
 */
export interface NestedAttribute extends BaseAttribute {
  readonly type: 'nested';
  readonly nesting: Nesting;
  readonly attributes: Readonly<Record<string, Attribute>>;
  readonly minItems?: number;
  readonly maxItems?: number;
}

export type Attribute = StringAttribute | NumberAttribute | BoolAttribute | JsonAttribute | ListAttribute | ObjectAttribute | NestedAttribute;

export type Attributes = Readonly<Record<string, Attribute>>;

/** An attribute with its name. */
export interface NamedAttribute {
  readonly name: string;
  readonly attribute: Attribute;
}

/**
 * The attributes with their names, listed once per declaration and shared (frozen): planning,
 * normalizing and comparing walk them for every object. Named fields, not [name, attribute]
 * pairs: taking a pair apart goes through an iterator, an object per step until V8 optimizes.
 */
export function attributeList(attributes: Attributes): readonly NamedAttribute[] {
  let list = listOf.get(attributes);
  if (!list) listOf.set(attributes, (list = Object.freeze(Object.entries(attributes).map(([name, attribute]) => Object.freeze({ name, attribute })))));
  return list;
}

const listOf = new WeakMap<Attributes, readonly NamedAttribute[]>();

type Options<A extends Attribute> = Omit<A, 'type' | 'attributes' | 'element' | 'nesting'>;

/** The 8-4-4-4-12 hexadecimal form; account management uses lowercase. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const uuid = z.string().regex(UUID_PATTERN);
export const UUID_EXPECTS = 'a lowercase uuid (8-4-4-4-12 hexadecimal)';

export const attr = {
  string: <const O extends Options<StringAttribute>>(o: O) => ({ ...o, type: 'string' as const }),
  number: <const O extends Options<NumberAttribute>>(o: O) => ({ ...o, type: 'number' as const }),
  /** A string holding a platform id: the uuid check and the words of its problem report come with it. */
  uuid: <const O extends Omit<Options<StringAttribute>, 'check' | 'expects'>>(o: O) => ({ ...o, check: uuid, expects: UUID_EXPECTS, type: 'string' as const }),
  bool: <const O extends Options<BoolAttribute>>(o: O) => ({ ...o, type: 'bool' as const }),
  json: <const O extends Options<JsonAttribute>>(o: O) => ({ ...o, type: 'json' as const }),
  list: <const O extends Options<ListAttribute>>(element: z.ZodType<string>, o: O) => ({
    ...o,
    element,
    type: 'list' as const,
  }),
  object: <const A extends Attributes, const O extends Options<ObjectAttribute>>(attributes: A, o: O) => ({
    ...o,
    attributes,
    type: 'object' as const,
  }),
  /** A list of nested objects, compared by position. */
  listNested: <const A extends Attributes, const O extends Options<NestedAttribute>>(attributes: A, o: O) => nested('list', attributes, o),
  /** A set of nested objects, compared without order; an object given twice is one object. */
  setNested: <const A extends Attributes, const O extends Options<NestedAttribute>>(attributes: A, o: O) => nested('set', attributes, o),
  /** A map of nested objects by key (the keys are the user's, never renamed). */
  mapNested: <const A extends Attributes, const O extends Options<NestedAttribute>>(attributes: A, o: O) => nested('map', attributes, o),
};

function nested<const N extends Nesting, const A extends Attributes, const O extends Options<NestedAttribute>>(nesting: N, attributes: A, o: O) {
  return { ...o, attributes, nesting, type: 'nested' as const };
}

/** Whether an attribute holds objects with attributes of their own (a single object or a collection of them). */
export function hasNestedAttributes(a: Attribute): a is ObjectAttribute | NestedAttribute {
  return a.type === 'object' || a.type === 'nested';
}

// ---- Common checks, each with the words a problem report uses. ----

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values);
}

// ---- Types derived from declarations for cdktf props (the types of state are in models.ts). ----

type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

type ValueOf<A> = A extends { type: 'list' }
  ? string[]
  : A extends { type: 'object'; attributes: infer N }
    ? PropsOf<N>
    : A extends { type: 'nested'; nesting: 'map'; attributes: infer N }
      ? Readonly<Record<string, PropsOf<N>>>
      : A extends { type: 'nested'; attributes: infer N }
        ? ReadonlyArray<PropsOf<N>>
        : ScalarOf<A>;

type RequiredKeys<As> = { [K in keyof As]: As[K] extends { mode: 'required' } ? K : never }[keyof As];
type OptionalKeys<As> = {
  [K in keyof As]: As[K] extends { mode: 'optional' | 'optional_computed' } ? K : never;
}[keyof As];
type ComputedKeys<As> = {
  [K in keyof As]: As[K] extends { mode: 'computed' | 'optional_computed' } ? K : never;
}[keyof As];

/** The camelCase props a cdktf construct takes for these attributes. */
export type PropsOf<As> = {
  [K in RequiredKeys<As> & string as Camel<K>]: ValueOf<As[K]>;
} & {
  [K in OptionalKeys<As> & string as Camel<K>]?: ValueOf<As[K]>;
};

/** The camelCase attributes a construct exposes for references (every attribute). */
export type OutputsOf<As> = {
  readonly [K in keyof As & string as Camel<K>]: As[K] extends { type: 'number' }
    ? number
    : As[K] extends { type: 'bool' }
      ? boolean | import('cdktf').IResolvable
      : As[K] extends { type: 'list' }
        ? string[]
        : As[K] extends { type: 'nested' }
          ? import('cdktf').IResolvable
          : string;
};

export type { ComputedKeys };

/** True when the attribute can be set in configuration. */
export function isConfigurable(a: Attribute): boolean {
  return a.mode !== 'computed';
}

/** The value of a string, number or bool attribute; a JSON attribute holds the string of its JSON. */
export type ScalarOf<A> = A extends { type: 'string' | 'json' } ? string : A extends { type: 'number' } ? number : A extends { type: 'bool' } ? boolean : never;
