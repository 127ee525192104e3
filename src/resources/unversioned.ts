import { resourceErrors } from './errors';
import { attributeList } from './attributes';
import { versionAttribute, type OperationContext, type ResourceKind, type State } from './declaration';
import { normalize, valueEqual } from './values';

/**
 * Optimistic concurrency for objects without a platform version (tenant settings, agent update
 * settings): right before writing, the object is read again and compared with what the plan
 * saw; a difference is refused as a version conflict is, never overwritten. The write then
 * carries the freshly read value of every attribute the plan does not change.
 *
 * Versioned kinds are returned `planned` as is: they send the version instead. Null: the
 * object is gone.
 */
export async function recheckUnversioned(kind: ResourceKind, ctx: OperationContext, address: string, seen: State, planned: State): Promise<State | null> {
  if (versionAttribute(kind)) return planned;
  const read = await kind.read(ctx, seen);
  if (!read) return null;
  const fresh = normalize(kind.attributes, read);
  const changed = attributeList(kind.attributes)
    // Values the platform derives (an effective value) are not the object's own.
    .filter(({ name, attribute: a }) => !(a.mode === 'computed' && a.changesOnUpdate) && !valueEqual(a, seen[name], fresh[name]))
    .map(({ name }) => name);
  if (changed.length > 0) throw resourceErrors.changedSincePlan(address, changed);
  const merged: State = { ...planned };
  for (const { name, attribute: a } of attributeList(kind.attributes)) {
    if (valueEqual(a, seen[name], planned[name])) merged[name] = fresh[name];
  }
  return merged;
}
