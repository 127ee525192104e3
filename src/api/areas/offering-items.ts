/** A tenant's offering items: services, editions and quotas (account management). */
import { AM, call, type PlatformCore } from '../core';
import * as S from '../schemas';

/**
 * One item of a set request (GAPS: set offering items; the reference's `tenantOfferingItemsPut`):
 * a quota carries its current version, and is in the item's measurement unit (bytes for storage).
 * `infra_id` names the storage infrastructure component of a storage item (`type: infra`).
 */
export interface OfferingItemWrite {
  application_id: string;
  name: string;
  status?: 0 | 1;
  infra_id?: string;
  quota?: { value: number | null; overage: number | null; version: number };
}

/**
 * The item as the reference's closed `tenantOfferingItemsPut` item takes it: only its members,
 * none of them null except the quota's limits (which are nullable), and no absent member sent.
 */
function writable(i: OfferingItemWrite): OfferingItemWrite {
  return {
    application_id: i.application_id,
    name: i.name,
    ...(i.status !== undefined && i.status !== null ? { status: i.status } : {}),
    ...(typeof i.infra_id === 'string' ? { infra_id: i.infra_id } : {}),
    ...(i.quota !== undefined && i.quota !== null
      ? { quota: { value: i.quota.value ?? null, overage: i.quota.overage ?? null, version: i.quota.version } }
      : {}),
  };
}

export const offeringItemsMethods = {
  /** GAPS: list a tenant's offering items. `edition` defaults to every edition (`*`), unlike the platform. */
  async listOfferingItems(this: PlatformCore, tenantId: string, opts: { edition?: string; usageNames?: string[] } = {}): Promise<S.OfferingItem[]> {
    const r = await this[call]({
      method: 'GET',
      endpoint: `${AM}/tenants/{tenant_id}/offering_items`,
      params: { tenant_id: tenantId },
      query: { edition: opts.edition ?? '*', usage_names: opts.usageNames?.join(',') },
      schema: S.OfferingItemList,
    });
    return r.items;
  },

  /**
   * The items a new child of `kind` can get from `tenantId` (the items it has on), every edition
   * unless `edition` says otherwise.
   */
  async listOfferingItemsForChild(this: PlatformCore, tenantId: string, kind: string, opts: { edition?: string } = {}): Promise<S.OfferingItem[]> {
    const r = await this[call]({
      method: 'GET',
      endpoint: `${AM}/tenants/{tenant_id}/offering_items/available_for_child`,
      params: { tenant_id: tenantId },
      query: { kind, edition: opts.edition ?? '*' },
      schema: S.OfferingItemList,
    });
    return r.items;
  },

  /** GAPS: set offering items (items not named stay; 400 code 1021 for an item the parent lacks). */
  async putOfferingItems(this: PlatformCore, tenantId: string, items: OfferingItemWrite[]): Promise<S.OfferingItem[]> {
    const r = await this[call]({
      method: 'PUT',
      endpoint: `${AM}/tenants/{tenant_id}/offering_items`,
      params: { tenant_id: tenantId },
      json: { offering_items: items.map(writable) },
      schema: S.OfferingItemList,
    });
    return r.items;
  },

  /**
   * Moves a tenant's items of a service to another edition (`PUT /tenants/{id}/edition`, the body
   * as the vendor's guide sends it; platform-interface: a service's edition).
   */
  switchEdition(this: PlatformCore, tenantId: string, body: { application_id: string; target_edition: string }): Promise<S.EditionSwitch> {
    return this[call]({
      method: 'PUT',
      endpoint: `${AM}/tenants/{tenant_id}/edition`,
      params: { tenant_id: tenantId },
      json: body,
      schema: S.EditionSwitch,
    });
  },
};
