/** Users and their roles (account management). */
import { AM, call, type PlatformCore } from '../core';
import * as S from '../schemas';

/** GAPS: create a user (closed schema). */
export interface UserCreate {
  tenant_id: string;
  login?: string;
  contact?: Record<string, unknown> & { email: string };
  enabled?: boolean;
  language?: string;
  notifications?: string[];
  business_types?: string[];
}

/** GAPS: update a user (`version` required). */
export type UserUpdate = Partial<Omit<UserCreate, 'tenant_id' | 'business_types'>> & { version: number };

/** One access policy as a PUT sends it (new entries: nil id and issuer, version 0). */
export interface AccessPolicyWrite {
  id: string;
  issuer_id: string;
  trustee_id: string;
  trustee_type: 'user';
  tenant_id: string;
  role_id: string;
  version: number;
}

export const usersMethods = {
  /** GAPS: create a user (answers 200). Not idempotent: never retried. */
  createUser(this: PlatformCore, body: UserCreate): Promise<S.User> {
    return this[call]({ method: 'POST', endpoint: `${AM}/users`, json: body, schema: S.User });
  },

  getUser(this: PlatformCore, id: string): Promise<S.User> {
    return this[call]({ method: 'GET', endpoint: `${AM}/users/{user_id}`, params: { user_id: id }, schema: S.User });
  },

  updateUser(this: PlatformCore, id: string, body: UserUpdate): Promise<S.User> {
    return this[call]({ method: 'PUT', endpoint: `${AM}/users/{user_id}`, params: { user_id: id }, json: body, schema: S.User });
  },

  /** GAPS: delete a user (disabled first; 409 when enabled or stale). */
  async deleteUser(this: PlatformCore, id: string, version: number): Promise<void> {
    await this[call]({ method: 'DELETE', endpoint: `${AM}/users/{user_id}`, params: { user_id: id }, query: { version }, schema: null });
  },

  async sendActivationEmail(this: PlatformCore, id: string): Promise<void> {
    await this[call]({ method: 'POST', endpoint: `${AM}/users/{user_id}/send-activation-email`, params: { user_id: id }, schema: null, idempotent: true });
  },

  /** Ids of the users of one tenant. */
  async listTenantUsers(this: PlatformCore, tenantId: string): Promise<string[]> {
    const r = await this[call]({ method: 'GET', endpoint: `${AM}/tenants/{tenant_id}/users`, params: { tenant_id: tenantId }, schema: S.IdList });
    return r.items;
  },

  async getAccessPolicies(this: PlatformCore, userId: string): Promise<S.AccessPolicy[]> {
    const r = await this[call]({ method: 'GET', endpoint: `${AM}/users/{user_id}/access_policies`, params: { user_id: userId }, schema: S.AccessPolicyList });
    return r.items;
  },

  /** GAPS: user roles (the PUT replaces the whole set). */
  async putAccessPolicies(this: PlatformCore, userId: string, items: AccessPolicyWrite[]): Promise<S.AccessPolicy[]> {
    const r = await this[call]({
      method: 'PUT',
      endpoint: `${AM}/users/{user_id}/access_policies`,
      params: { user_id: userId },
      json: { items },
      schema: S.AccessPolicyList,
    });
    return r.items;
  },
};
