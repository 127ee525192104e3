import { attributeList, type Attribute, type Attributes } from './attributes';
import type { ResourceKind, State } from './declaration';
import { Unknown, valueEqual } from './values';

/**
 * Whether a live object already holds every value a plan sets: what the platform decides
 * (computed attributes, values unknown until apply, optional ones the configuration leaves to
 * the platform) aside. After a write whose answer was lost, this tells a write that was applied
 * from one that was not.
 */
export function holdsPlanned(kind: ResourceKind, planned: State, live: State): boolean {
  return holdsAll(kind.attributes, planned, live);
}

function holdsAll(attributes: Attributes, planned: State, live: State | null): boolean {
  return attributeList(attributes).every(({ name, attribute }) => holds(attribute, planned[name], live?.[name]));
}

function holds(a: Attribute, wanted: unknown, live: unknown): boolean {
  if (a.mode === 'computed' || wanted === Unknown || (a.mode === 'optional_computed' && wanted === null)) return true;
  if (a.type === 'object' && wanted !== null && wanted !== undefined && live !== null && live !== undefined) {
    return holdsAll(a.attributes, wanted as State, live as State);
  }
  return valueEqual(a, wanted, live);
}

/** The plan with what the platform decided taken from the live object (nothing left unknown). */
export function settledBy(planned: State, live: State): State {
  return Object.fromEntries(Object.entries(planned).map(([name, v]) => [name, v === Unknown ? (live[name] ?? null) : v]));
}
