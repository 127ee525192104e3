/** Infrastructure components (account management). */
import { AM, call, chunk, type PlatformCore } from '../core';
import * as S from '../schemas';

export interface InfraCreate {
  owner_tenant_id: string;
  location_id?: string | null;
  name: string;
  url: string;
  capabilities: string[];
  content_url?: string;
  content_mobile_url?: string;
  backend_type?: unknown;
  [extra: string]: unknown;
}

export interface InfraUpdate {
  name: string;
  location_id?: string | null;
  url: string;
  capabilities: string[];
  content_url?: string;
  content_mobile_url?: string;
  backend_type?: unknown;
  /** The version the change is based on (optimistic concurrency). */
  version: number;
  [extra: string]: unknown;
}

/** GET /infra ids per request: the spec gives no limit; the same bound keeps URLs short. */
export const INFRA_UUIDS_PER_REQUEST = 100;

export const infrastructureMethods = {
  /** Reads components by id, in requests of at most `INFRA_UUIDS_PER_REQUEST` ids. */
  async getInfra(this: PlatformCore, uuids: readonly string[]): Promise<S.Infra[]> {
    const out: S.Infra[] = [];
    for (const part of chunk([...new Set(uuids)], INFRA_UUIDS_PER_REQUEST)) {
      const r = await this[call]({
        method: 'GET',
        endpoint: `${AM}/infra`,
        query: { uuids: part.join(',') },
        schema: S.InfraList,
      });
      out.push(...r.items);
    }
    return out;
  },

  /** Not idempotent: repeated only when the platform did nothing with it (a repeat could register a second component). */
  createInfra(this: PlatformCore, body: InfraCreate): Promise<S.Infra> {
    return this[call]({ method: 'POST', endpoint: `${AM}/infra`, json: body, schema: S.Infra });
  },

  /** GAPS.md: infrastructure component update (`version` in the body, 409 when stale). */
  updateInfra(this: PlatformCore, id: string, body: InfraUpdate): Promise<S.Infra> {
    return this[call]({
      method: 'PUT',
      endpoint: `${AM}/infra/{infra_id}`,
      params: { infra_id: id },
      json: body,
      schema: S.Infra,
    });
  },

  async deleteInfra(this: PlatformCore, id: string, version: number, opts: { force?: boolean } = {}): Promise<void> {
    await this[call]({
      method: 'DELETE',
      endpoint: `${AM}/infra/{infra_id}`,
      params: { infra_id: id },
      query: { version, force: opts.force },
      schema: null,
    });
  },

  /**
   * Ids of the components at a tenant's locations. The reference has no listing by tenant: it
   * lists a tenant's locations, and the components of a location. A location may hold other
   * tenants' components too: callers that need the tenant's own filter on `owner_tenant_id`.
   */
  async listTenantInfra(this: PlatformCore, tenantId: string): Promise<string[]> {
    const locations = await this[call]({
      method: 'GET',
      endpoint: `${AM}/tenants/{tenant_id}/locations`,
      params: { tenant_id: tenantId },
      schema: S.LocationList,
    });
    const perLocation = await Promise.all(
      locations.items.map((l) =>
        this[call]({ method: 'GET', endpoint: `${AM}/locations/{location_id}/infra`, params: { location_id: l.id }, schema: S.LocationInfraList }),
      ),
    );
    return [...new Set(perLocation.flatMap((r) => r.infras))];
  },
};
