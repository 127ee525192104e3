import type { PlatformClient } from '../api';
import type { ProviderClients } from '../engine/clients';
import type { StateStore } from '../state/state';
import type { RecordedObject } from '../state/model';
import { tenantIdsOf } from './detect';
import type { DriftReport } from './model';

/** The part of a drift report that lives in one data center (one platform address). */
export interface DataCenterDrift {
  readonly client: PlatformClient;
  /** Every recorded object of this data center, in report order. */
  readonly resources: DriftReport['resources'];
  /** The managed objects the state records there. */
  readonly managed: RecordedObject[];
  /** Tenant ids its recorded objects belong to (for the alert's tenant and the unmanaged objects). */
  readonly tenantIds: string[];
}

/**
 * The report split by data center: provider configurations with the same address are one data
 * center, so that each keeps one alert for the stack, on a tenant that exists there.
 */
export function driftByDataCenter(report: DriftReport, clients: ProviderClients, state: StateStore): DataCenterDrift[] {
  const clientOf = new Map(clients.names().map((name) => [clients.named(name).baseUrl, clients.named(name)]));
  const centerOf = (address: string) => clients.of(address).baseUrl;
  return [...clientOf].map(([baseUrl, client]) => ({
    client,
    resources: report.resources.filter((r) => centerOf(r.address) === baseUrl),
    managed: state.objects().filter((o) => o.mode === 'managed' && centerOf(o.address) === baseUrl),
    // In a single data center the declared objects' tenants count too, as the report found them.
    tenantIds:
      clientOf.size === 1
        ? report.tenantIds
        : tenantIdsOf(
            state
              .objects()
              .filter((o) => centerOf(o.address) === baseUrl)
              .map((o) => o.attributes),
          ),
  }));
}
