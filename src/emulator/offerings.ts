/**
 * The offering item catalogue (GAPS: offering item): one item per metered usage of an
 * application, in the `standard` edition, plus an `advanced` edition item for backup so that a
 * listing without `edition=*` visibly misses something.
 *
 * Storage usages follow the vendor's reference (account-management-v2, `offeringItemList`):
 * a storage item is `type: infra`, measured in `bytes`, and offered once per storage
 * infrastructure component, whose id it carries as `infra_id`. Every other item is a `count`
 * in `quantity`.
 */
import type { Application, InfraComponent, OfferingItem, Quota } from './world';

export interface CatalogueItem {
  name: string;
  edition: string;
  usage_name: string;
  type: OfferingItem['type'];
  measurement_unit: OfferingItem['measurement_unit'];
  /** Storage items only: the storage infrastructure component the item is for. */
  infra_id?: string;
}

/** Whether an application's usage is storage (offered per storage infrastructure component). */
export function isStorageUsage(usage: string): boolean {
  return /storage/.test(usage);
}

/**
 * The capability a component must have to hold an application's storage: the application's own
 * type where it is a capability (`backup`, `files_cloud`), else `backup`.
 */
export function storageCapability(app: Application): string {
  return app.type === 'files_cloud' ? 'files_cloud' : 'backup';
}

/** The storage infrastructure components an application's storage items can be offered on. */
export function storageComponentsFor(app: Application, infra: Readonly<Record<string, InfraComponent>>): InfraComponent[] {
  const capability = storageCapability(app);
  return Object.values(infra).filter((c) => c.capabilities.includes(capability));
}

/**
 * The items an application offers. A storage usage gives one item per component of `storage`
 * (none when no storage component is given); `storage` should hold only components that are
 * storage for this application (see `storageComponentsFor`).
 */
export function catalogueOf(app: Application, storage: ReadonlyArray<Pick<InfraComponent, 'id'>> = []): CatalogueItem[] {
  const items: CatalogueItem[] = app.usages.flatMap((usage): CatalogueItem[] =>
    isStorageUsage(usage)
      ? storage.map((c) => ({ name: usage, edition: 'standard', usage_name: usage, type: 'infra', measurement_unit: 'bytes', infra_id: c.id }))
      : [{ name: usage, edition: 'standard', usage_name: usage, type: 'count', measurement_unit: 'quantity' }],
  );
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
