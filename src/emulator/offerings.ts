/**
 * The offering item catalogue (GAPS: offering item): one item per metered usage of an
 * application, in the `standard` edition, plus an `advanced` edition item for backup so that a
 * listing without `edition=*` visibly misses something.
 */
import type { Application, OfferingItem, Quota } from './world';

export interface CatalogueItem {
  name: string;
  edition: string;
  usage_name: string;
  type: OfferingItem['type'];
  measurement_unit: string;
}

/** The items an application offers. */
export function catalogueOf(app: Application): CatalogueItem[] {
  const items: CatalogueItem[] = app.usages.map((usage) => ({
    name: usage,
    edition: 'standard',
    usage_name: usage,
    type: 'count',
    measurement_unit: /storage/.test(usage) ? 'gigabytes' : 'quantity',
  }));
  if (app.type === 'backup') {
    items.push({ name: 'workstations_advanced', edition: 'advanced', usage_name: 'workstations', type: 'count', measurement_unit: 'quantity' });
  }
  return items;
}

/** GAPS: offering item (`quota.version` is 0 while both limits are null). */
export const UNLIMITED: Quota = { value: null, overage: null, version: 0 };

export function offeringItem(app: Application, item: CatalogueItem, tenantId: string, status: 0 | 1, quota?: Quota): OfferingItem {
  return { application_id: app.id, ...item, tenant_id: tenantId, status, ...(quota ? { quota: { ...quota } } : {}) };
}
