/** API clients (account management). The secret exists only in the create's answer. */
import { AM, call, type PlatformCore } from '../core';
import * as S from '../schemas';

export interface ApiClientCreate {
  tenant_id: string;
  type?: 'api_client' | 'managed_client';
  data?: Record<string, unknown>;
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'none';
  redirect_uris?: string[];
  /** A caller's own identifier of the client, by which `findApiClientsByOrigin` finds it again. */
  origin_id?: string;
}

export interface ApiClientUpdate {
  data?: Record<string, unknown>;
  status?: 'enabled' | 'disabled';
  redirect_uris?: string[];
}

export const clientsMethods = {
  /** Spec 1: POST /clients (201 with `client_secret`). Not idempotent: never retried. */
  createApiClient(this: PlatformCore, body: ApiClientCreate): Promise<S.CreatedApiClient> {
    // `clientPost` requires both; these are the platform's defaults for an API client.
    const json = { type: 'api_client', token_endpoint_auth_method: 'client_secret_basic', ...body };
    return this[call]({ method: 'POST', endpoint: `${AM}/clients`, json, schema: S.CreatedApiClient });
  },

  /** GAPS: API client read (never the secret); with the client's own id, its tenant. */
  getApiClient(this: PlatformCore, clientId: string): Promise<S.ApiClient> {
    return this[call]({ method: 'GET', endpoint: `${AM}/clients/{client_id}`, params: { client_id: clientId }, schema: S.ApiClient });
  },

  /** The reference's FetchClientsBatch (`GET /clients?origin_id=`): the clients made with that origin id. */
  async findApiClientsByOrigin(this: PlatformCore, originId: string): Promise<S.ApiClient[]> {
    return (await this[call]({ method: 'GET', endpoint: `${AM}/clients`, query: { origin_id: originId }, schema: S.ApiClientBatch })).items;
  },

  updateApiClient(this: PlatformCore, clientId: string, body: ApiClientUpdate): Promise<S.ApiClient> {
    return this[call]({ method: 'PUT', endpoint: `${AM}/clients/{client_id}`, params: { client_id: clientId }, json: body, schema: S.ApiClient });
  },

  async deleteApiClient(this: PlatformCore, clientId: string): Promise<void> {
    await this[call]({ method: 'DELETE', endpoint: `${AM}/clients/{client_id}`, params: { client_id: clientId }, schema: null });
  },

  /** GAPS: the API client's own tenant (`GET /clients/{own client_id}`): where its view of the tree starts. */
  async ownTenantId(this: PlatformCore): Promise<string> {
    return (await clientsMethods.getApiClient.call(this, this.clientId)).tenant_id;
  },
};
