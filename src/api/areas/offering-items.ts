/** A tenant's offering items: services, editions and quotas (account management). */
import { AM, call, type PlatformCore } from '../core';
import * as S from '../schemas';

/** One item of a set request (GAPS: set offering items); a quota carries its current version. */
export interface OfferingItemWrite {
  application_id: string;
  name: string;
  status?: 0 | 1;
  infra_id?: string;
  quota?: { value: number | null; overage: number | null; version: number };
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

  /** GAPS: set offering items (items not named stay; 400 code 1021 for an item the parent lacks). */
  async putOfferingItems(this: PlatformCore, tenantId: string, items: OfferingItemWrite[]): Promise<S.OfferingItem[]> {
    const r = await this[call]({
      method: 'PUT',
      endpoint: `${AM}/tenants/{tenant_id}/offering_items`,
      params: { tenant_id: tenantId },
      json: { offering_items: items },
      schema: S.OfferingItemList,
    });
    return r.items;
  },
};
