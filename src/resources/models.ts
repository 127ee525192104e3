import type { z } from 'zod';
import type { ScalarOf } from './attributes';
import type { UnknownValue } from './values';

/**
 * The data a kind's operations see, inferred from its attribute declarations (as the construct
 * props are): `state.capabilities` is a `readonly string[]`, and a misspelled attribute does not
 * compile. Four views of one object, for the four moments a kind meets it:
 * - `StateOf`: the object as it exists (what create, update and read answer, and a prior object);
 * - `KnownOf`: what a read or an identity is given, which may be an import's id alone;
 * - `PlannedOf`: the object a create or an update is to make, where the platform may still decide;
 * - `ConfigOf`: the configuration and the plan at plan time, where any value may be a reference
 *   not known until apply.
 */

/**
 * A configured string's type: what its check takes (one of an enumeration's values), or any
 * string. Only what the configuration alone sets is narrowed so: the platform may answer values
 * the check does not know.
 */
type TextOf<A, Check> = A extends { mode: 'required' | 'optional' } ? (Check extends z.ZodType<string> ? z.output<Check> : string) : string;

/** A nested collection's value made of objects of type `O`: a map by key, else a list (a set's too). */
type CollectionOf<A, O> = A extends { nesting: 'map' } ? Readonly<Record<string, O>> : readonly O[];

/** The value an attribute holds in a state. */
type ValueOf<A> = A extends { type: 'list' }
  ? readonly string[]
  : A extends { type: 'object'; attributes: infer N }
    ? StateOf<N>
    : A extends { type: 'nested'; attributes: infer N }
      ? CollectionOf<A, StateOf<N>>
      : ScalarOf<A>;

/** A value as the configuration gives it (strings and lists of strings as their checks take them). */
type ConfiguredValueOf<A> = A extends { type: 'string'; check?: infer C }
  ? TextOf<A, C>
  : A extends { type: 'list'; element: infer E }
    ? ReadonlyArray<TextOf<A, E>>
    : ValueOf<A>;

/** Set in every configuration: required, or given a default when left out. */
type AlwaysConfigured<A> = A extends { mode: 'required' } | { default: NonNullable<unknown> } ? true : false;

/** Set in every state of an object that exists: configured, or a key the platform sets on create. */
type AlwaysSet<A> = AlwaysConfigured<A> extends true ? true : A extends { key: true } ? true : false;

/** What the platform decides (may be unknown in a plan). */
type Decided<A> = A extends { mode: 'computed' | 'optional_computed' } ? true : false;

type NullUnless<Set> = Set extends true ? never : null;

/** The attributes of an existing object: null only where the attribute may be unset. */
export type StateOf<As> = {
  readonly [K in keyof As & string]: ValueOf<As[K]> | NullUnless<AlwaysSet<As[K]>>;
};

/**
 * What a read is given: a recorded object, or what an import knows (the attributes its id gives
 * and the defaults), so only keys and defaulted attributes are sure to be set.
 */
export type KnownOf<As> = {
  readonly [K in keyof As & string]: ValueOf<As[K]> | NullUnless<As[K] extends { key: true } | { default: NonNullable<unknown> } ? true : false>;
};

type PlannedValue<A> = A extends { type: 'object'; attributes: infer N }
  ? PlannedOf<N>
  : A extends { type: 'nested'; attributes: infer N }
    ? CollectionOf<A, PlannedOf<N>>
    : ConfiguredValueOf<A>;

/**
 * The object a create or an update is to make: the configured values are known (the plan is made
 * again once they are), what the platform decides is unknown, or null where the caller cannot
 * carry unknown values (the Terraform provider).
 */
export type PlannedOf<As> = {
  readonly [K in keyof As & string]: Decided<As[K]> extends true
    ? PlannedValue<As[K]> | null | UnknownValue
    : PlannedValue<As[K]> | NullUnless<AlwaysConfigured<As[K]>>;
};

type ConfigValue<A> = A extends { type: 'list'; element: infer E }
  ? ReadonlyArray<TextOf<A, E> | UnknownValue>
  : A extends { type: 'object'; attributes: infer N }
    ? ConfigOf<N>
    : A extends { type: 'nested'; attributes: infer N }
      ? CollectionOf<A, ConfigOf<N> | UnknownValue>
      : ConfiguredValueOf<A>;

/** The configuration, or the plan made from it: any value may be a reference not known until apply. */
export type ConfigOf<As> = {
  readonly [K in keyof As & string]: ConfigValue<As[K]> | UnknownValue | NullUnless<AlwaysConfigured<As[K]>>;
};
