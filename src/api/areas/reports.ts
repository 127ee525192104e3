/** Usage report configurations (account management). */
import { AM, call, type PlatformCore } from '../core';
import * as S from '../schemas';

export interface ReportBody {
  result_action: string;
  recipients: string[];
  parameters: Record<string, unknown> & { tenant_id: string; kind: string; level: string };
  schedule: Record<string, unknown> & { type: string; enabled?: boolean };
  [extra: string]: unknown;
}

/** GAPS "Usage report configuration: update": what may change in place, and only that. */
export interface ReportUpdate {
  recipients?: string[];
  parameters?: { kind?: string; level?: string };
  schedule?: { enabled?: boolean };
  [extra: string]: unknown;
}

export const reportsMethods = {
  getReport(this: PlatformCore, id: string): Promise<S.Report> {
    return this[call]({
      method: 'GET',
      endpoint: `${AM}/reports/{report_id}`,
      params: { report_id: id },
      schema: S.Report,
    });
  },

  /** GAPS.md: usage report create. Not idempotent: repeated only when the platform did nothing with it. */
  createReport(this: PlatformCore, body: ReportBody): Promise<S.Report> {
    return this[call]({ method: 'POST', endpoint: `${AM}/reports`, json: body, schema: S.Report });
  },

  /** GAPS.md: usage report update (only what changes; no version: the caller re-reads it first). */
  updateReport(this: PlatformCore, id: string, body: ReportUpdate): Promise<S.Report> {
    return this[call]({
      method: 'PUT',
      endpoint: `${AM}/reports/{report_id}`,
      params: { report_id: id },
      json: body,
      schema: S.Report,
    });
  },

  /** GAPS.md: usage report delete (`?version=`, 409 when stale). */
  async deleteReport(this: PlatformCore, id: string, version: number): Promise<void> {
    await this[call]({
      method: 'DELETE',
      endpoint: `${AM}/reports/{report_id}`,
      params: { report_id: id },
      query: { version },
      schema: null,
    });
  },

  /** GAPS.md: usage report list for a tenant. */
  async listTenantReports(this: PlatformCore, tenantId: string): Promise<string[]> {
    const r = await this[call]({
      method: 'GET',
      endpoint: `${AM}/tenants/{tenant_id}/reports`,
      params: { tenant_id: tenantId },
      schema: S.IdList,
    });
    return r.items;
  },
};
