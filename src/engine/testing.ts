import type { PlannedChange } from './model';

/** A planned change of the instance at `address` (tests): nothing changed or shown unless `parts` say so. */
export function changeAt(address: string, action: PlannedChange['action'], parts: Partial<PlannedChange> = {}): PlannedChange {
  const [type, name] = address.replace(/\[.*\]$/, '').split('.');
  return {
    address,
    mode: 'managed',
    type,
    name,
    action,
    before: null,
    after: null,
    requiresReplace: [],
    changed: [],
    sensitive: [],
    identifying: [],
    ...parts,
  };
}
