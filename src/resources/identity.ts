/**
 * A resource's identity as Terraform 1.12 and newer keep it beside the state: the attributes
 * that name one object for good, derived from the kind's `key` attributes (what its import id
 * is made of). Import by identity, list results and the reference docs read the same list.
 */
import { attributeList } from './attributes';
import type { ResourceKind, State } from './declaration';

/** Bumped when the identity attributes of any kind change shape. */
export const IDENTITY_VERSION = 0;

export interface IdentityAttribute {
  /** The name in the identity, e.g. `user_id`. */
  readonly name: string;
  /** The attribute of the state it is read from, e.g. `id`. */
  readonly from: string;
  readonly description: string;
}

/** The identity of an object as a plain record of strings. */
export type Identity = Readonly<Record<string, string>>;

const byKind = new WeakMap<ResourceKind, readonly IdentityAttribute[]>();

/**
 * The identity attributes of a kind: its `key` attributes. The computed `id` is left out when
 * other key attributes name the object (it only repeats them); when it is the only one, it is
 * named after the object, the last word of the type (`tenantform_api_client` → `client_id`), so
 * that an identity reads the same wherever it is written.
 */
export function identityAttributes(kind: ResourceKind): readonly IdentityAttribute[] {
  let list = byKind.get(kind);
  if (list) return list;
  const keys = attributeList(kind.attributes).filter(({ attribute }) => attribute.key);
  const others = keys.filter(({ name }) => name !== 'id');
  const noun = kind.type.split('_').at(-1) ?? 'object';
  list = Object.freeze(
    (others.length > 0 ? others : keys).map(({ name, attribute }) =>
      Object.freeze({ name: name === 'id' ? `${noun}_id` : name, from: name, description: attribute.description }),
    ),
  );
  byKind.set(kind, list);
  return list;
}

/** The identity of an object; undefined while a part of it is not known (a create not yet applied). */
export function identityOf(kind: ResourceKind, state: State | null | undefined): Identity | undefined {
  if (!state) return undefined;
  const out: Record<string, string> = {};
  for (const a of identityAttributes(kind)) {
    const value = state[a.from];
    if (typeof value !== 'string' || value === '') return undefined;
    out[a.name] = value;
  }
  return out;
}

/**
 * The import id an identity names (import by identity goes the way of import by id); a problem
 * in words when the identity lacks a part.
 */
export function importIdOf(kind: ResourceKind, identity: Record<string, unknown>): { id: string } | { problem: string } {
  const attributes = identityAttributes(kind);
  const missing = attributes.filter((a) => typeof identity[a.name] !== 'string' || identity[a.name] === '').map((a) => a.name);
  if (missing.length > 0) return { problem: `The identity of ${kind.type} needs ${missing.map((n) => `\`${n}\``).join(', ')}.` };
  // A kind named by its `id` alone takes that id for import; others make it from their key attributes.
  if (attributes.length === 1 && attributes[0].from === 'id') return { id: identity[attributes[0].name] as string };
  return { id: kind.identity(Object.fromEntries(attributes.map((a) => [a.from, identity[a.name]]))) };
}
