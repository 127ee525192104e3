/** Alert types and alerts (alert manager). */
import { ALERTS, call, collect, paged, type PlatformCore } from '../core';
import * as S from '../schemas';

export interface AlertTypeBody {
  id: string;
  severity?: string;
  enabled?: boolean;
  category?: string;
  [extra: string]: unknown;
}

export interface AlertBody {
  type: string;
  tenantID: string;
  severity: string;
  details?: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface ListAlertsOptions {
  type?: string | string[];
  tenant?: string | string[];
  /** A severity, or `eq(...)`, `lt(...)`, `gt(...)`, `le(...)`, `ge(...)`, `or(a,b)`. */
  severity?: string;
  /** Unix time in nanoseconds, or an operator of one, such as `ge(1700000000000000000)`. */
  createdAt?: string;
  showDeleted?: boolean;
  /** Page size. */
  limit?: number;
}

export const alertsMethods = {
  /** GAPS.md: registering a custom alert type. Types have caller-chosen ids: retried. */
  async registerAlertTypes(this: PlatformCore, items: AlertTypeBody[]): Promise<void> {
    await this[call]({
      method: 'POST',
      endpoint: `${ALERTS}/types`,
      json: { items },
      schema: null,
      idempotent: true,
    });
  },

  /** platform-interface: alert types. */
  getAlertType(this: PlatformCore, id: string): Promise<S.AlertType> {
    return this[call]({
      method: 'GET',
      endpoint: `${ALERTS}/types/{id}`,
      params: { id },
      schema: S.AlertType,
    });
  },

  /** Raises an alert; returns its id. Not idempotent: repeated only when the platform did nothing with it. */
  async createAlert(this: PlatformCore, alert: AlertBody): Promise<string> {
    const r = await this[call]({ method: 'POST', endpoint: `${ALERTS}/alerts`, json: alert, schema: S.CreatedAlert });
    return r.id;
  },

  /**
   * Every alert matching the filters (spec 3, alert filters), page after page.
   * platform-interface: alerts paging (`after` absent on the last page; the cursor carries the filters).
   */
  async listAlerts(this: PlatformCore, opts: ListAlertsOptions = {}): Promise<S.AlertView[]> {
    const query = {
      type: opts.type,
      tenant: opts.tenant,
      severity: opts.severity,
      created_at: opts.createdAt,
      show_deleted: opts.showDeleted,
      limit: opts.limit,
    };
    return collect(this[paged](`${ALERTS}/alerts`, query, S.AlertPage));
  },

  /** Spec 03: DELETE /alerts dismisses the alerts matching the filter (never call it without one). */
  async dismissAlerts(this: PlatformCore, filter: { type: string | string[]; id?: string[] }): Promise<void> {
    await this[call]({ method: 'DELETE', endpoint: `${ALERTS}/alerts`, query: { type: filter.type, id: filter.id }, schema: null });
  },

  /** Spec 03 and GAPS (`DELETE /alerts` filters): dismisses the alerts with these ids, never all of them. */
  async dismissAlertsById(this: PlatformCore, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) throw new Error('dismissAlertsById needs at least one alert id');
    await this[call]({ method: 'DELETE', endpoint: `${ALERTS}/alerts`, query: { id: [...ids] }, schema: null });
  },
};
