import type { AttributePath } from '../../diagnostics';
import { attributeList, type Attributes } from '../../resources/attributes';
import { versionAttribute, type ResourceKind, type State } from '../../resources/declaration';
import { valueEqual } from '../../resources/values';
import type { AttributeDrift, DriftedResource } from '../../plans/model';

/** How a recorded object differs from the live one: changed attributes, or deleted outside tenantform. */
export function driftOf(address: string, type: string, name: string, kind: ResourceKind, recorded: State, live: State | null): DriftedResource[] {
  const base = { address, mode: 'managed' as const, type, name, before: recorded, after: live };
  if (!live) return [{ ...base, action: 'delete', changes: [] }];
  // Without a refresh the live object is the recorded one.
  if (live === recorded) return [];
  // The platform bumps the version on every change: an unmoved version proves nothing moved.
  const version = versionAttribute(kind);
  if (version && typeof recorded[version] === 'number' && recorded[version] === live[version]) return [];
  const changes = attributeDrift(kind.attributes, recorded, live, []);
  return changes.length > 0 ? [{ ...base, action: 'update', changes }] : [];
}

function attributeDrift(attributes: Attributes, recorded: State, live: State, at: AttributePath): AttributeDrift[] {
  return attributeList(attributes).flatMap(({ name, attribute: a }): AttributeDrift[] => {
    // Values the platform derives (effective settings) are shown, never judged as drift.
    if (a.mode === 'computed' && a.changesOnUpdate) return [];
    const before = recorded[name] ?? null;
    const after = live[name] ?? null;
    if (a.type === 'object' && before && after && typeof before === 'object' && typeof after === 'object') {
      return attributeDrift(a.attributes, before as State, after as State, [...at, name]);
    }
    return valueEqual(a, before, after) ? [] : [{ path: [...at, name], state: before, live: after }];
  });
}
