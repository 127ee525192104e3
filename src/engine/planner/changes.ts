import type { Attributes } from '../../resources/attributes';
import { attributeNames, sensitiveNames, versionAttribute, type AnyKind, type ResourceKind, type State } from '../../resources/declaration';
import type { PlanResponse } from '../../resources/plan';
import { fingerprint, Unknown } from '../../resources/values';
import type { DeclaredObject } from '../../config/config';
import type { PlannedChange } from '../../plans/model';
import { parseInstanceAddress } from '../../state/addresses';
import type { Refreshed } from '../refresh';

/** The planned changes as the plan model holds them, and what they are made of. */

export function unknownObject(attributes: Attributes): State {
  return Object.fromEntries(Object.keys(attributes).map((k) => [k, Unknown]));
}

export function plannedChange(o: Pick<DeclaredObject, 'address' | 'type' | 'name'>, kind: ResourceKind, prior: State | null, r: PlanResponse): PlannedChange {
  // Only an instance of count or for_each has a key, at the end of its address.
  const index = o.address.endsWith(']') ? parseInstanceAddress(o.address)?.key : undefined;
  const change: PlannedChange = {
    address: o.address,
    mode: 'managed',
    type: o.type,
    name: o.name,
    action: r.action,
    before: prior,
    after: r.planned,
    requiresReplace: r.requiresReplace,
    changed: r.changed,
    sensitive: attributeNames(kind, 'sensitive'),
    identifying: attributeNames(kind, 'identifying'),
  };
  // Most changes are no-ops of objects without an index: no optional member, nothing else made.
  if (index === undefined && r.action === 'no-op') return change;
  return {
    ...change,
    ...(index === undefined ? {} : { index }),
    ...(r.action === 'replace' ? { actionReason: 'replace_because_cannot_update' as const } : {}),
    // Re-checked before a saved plan is applied, for the objects it changes.
    ...(prior && r.action !== 'no-op' ? { seen: seenOf(kind, prior) } : {}),
  };
}

/** The change with the attributes its marks make sensitive (see sensitiveNames). */
export function withMarks(change: PlannedChange, kind: AnyKind, marked: readonly string[]): PlannedChange {
  return marked.length > 0 ? { ...change, sensitive: sensitiveNames(kind, marked) } : change;
}

/** A refresh-only plan's changes: every recorded object still on the platform, as it is now, without action. */
export function acceptedLive(
  recorded: ReadonlyArray<{ address: string; type: string; name: string; sensitive?: readonly string[] }>,
  refreshed: Refreshed,
  kindOf: (type: string) => ResourceKind | undefined,
): PlannedChange[] {
  return recorded.flatMap((o) => {
    const kind = kindOf(o.type);
    const live = refreshed.live.get(o.address);
    if (!kind || !live) return [];
    return [
      withMarks(plannedChange(o, kind, live, { action: 'no-op', planned: live, requiresReplace: [], changed: [], diagnostics: [] }), kind, o.sensitive ?? []),
    ];
  });
}

/** What a plan saw of an object, re-checked before a saved plan is applied. */
export function seenOf(kind: AnyKind, live: State): { version?: number | null; fingerprint?: string | null } {
  const v = versionAttribute(kind);
  return v ? { version: typeof live[v] === 'number' ? live[v] : null } : { fingerprint: fingerprint(kind.attributes, live) };
}
