/** Applications, their bindings to tenants, and tenant settings (account management). */
import { AM, call, type PlatformCore } from '../core';
import * as S from '../schemas';

export interface SettingData {
  value: unknown;
  lock: boolean;
  exclusive: boolean;
}

export const applicationsMethods = {
  async listApplications(this: PlatformCore): Promise<S.Application[]> {
    const r = await this[call]({ method: 'GET', endpoint: `${AM}/applications`, schema: S.ApplicationList });
    return r.items;
  },

  getApplication(this: PlatformCore, id: string): Promise<S.Application> {
    return this[call]({
      method: 'GET',
      endpoint: `${AM}/applications/{application_id}`,
      params: { application_id: id },
      schema: S.Application,
    });
  },

  /** Turns an application on for a tenant. platform-interface: binding (a repeat answers 204, so it is retried). */
  async enableApplication(this: PlatformCore, appId: string, tenantId: string): Promise<void> {
    await this[call]({
      method: 'POST',
      endpoint: `${AM}/applications/{application_id}/bindings/tenants/{tenant_id}`,
      params: { application_id: appId, tenant_id: tenantId },
      schema: null,
      idempotent: true,
    });
  },

  async disableApplication(this: PlatformCore, appId: string, tenantId: string): Promise<void> {
    await this[call]({
      method: 'DELETE',
      endpoint: `${AM}/applications/{application_id}/bindings/tenants/{tenant_id}`,
      params: { application_id: appId, tenant_id: tenantId },
      schema: null,
    });
  },

  /** Ids of the applications a tenant has on (GAPS.md: which applications a tenant has on). */
  async listTenantApplications(this: PlatformCore, tenantId: string): Promise<string[]> {
    const r = await this[call]({
      method: 'GET',
      endpoint: `${AM}/tenants/{tenant_id}/applications`,
      params: { tenant_id: tenantId },
      schema: S.IdList,
    });
    return r.items;
  },

  getSetting(this: PlatformCore, appId: string, tenantId: string, name: string): Promise<S.Setting> {
    return this[call]({
      method: 'GET',
      endpoint: `${AM}/applications/{application_id}/settings/tenants/{tenant_id}/{setting_name}`,
      params: { application_id: appId, tenant_id: tenantId, setting_name: name },
      schema: S.Setting,
    });
  },

  putSetting(this: PlatformCore, appId: string, tenantId: string, name: string, data: SettingData): Promise<S.Setting> {
    return this[call]({
      method: 'PUT',
      endpoint: `${AM}/applications/{application_id}/settings/tenants/{tenant_id}/{setting_name}`,
      params: { application_id: appId, tenant_id: tenantId, setting_name: name },
      json: { value: data.value, lock: data.lock, exclusive: data.exclusive },
      schema: S.Setting,
    });
  },

  async deleteSetting(this: PlatformCore, appId: string, tenantId: string, name: string): Promise<void> {
    await this[call]({
      method: 'DELETE',
      endpoint: `${AM}/applications/{application_id}/settings/tenants/{tenant_id}/{setting_name}`,
      params: { application_id: appId, tenant_id: tenantId, setting_name: name },
      schema: null,
    });
  },
};
