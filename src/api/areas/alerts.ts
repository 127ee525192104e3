/** Alert types and alerts (alert manager). */
import { ALERTS, call, type PlatformCore } from '../core';
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

  /** platform-interface: alert types (`paging.cursors` is `{}`: one page). */
  async listAlerts(this: PlatformCore, opts: { type?: string | string[]; tenant?: string | string[]; limit?: number } = {}): Promise<S.AlertView[]> {
    const r = await this[call]({
      method: 'GET',
      endpoint: `${ALERTS}/alerts`,
      query: { type: opts.type, tenant: opts.tenant, limit: opts.limit },
      schema: S.AlertPage,
    });
    return r.items;
  },
};
