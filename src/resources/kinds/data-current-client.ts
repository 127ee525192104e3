import { attr } from '../attributes';
import { defineDataSource } from '../declaration';

const attributes = {
  id: attr.string({ mode: 'computed', identifying: true, description: 'The client id.' }),
  tenant_id: attr.string({ mode: 'computed', description: 'The tenant the client acts for.' }),
  type: attr.string({ mode: 'computed', description: 'The client type (`api_client` or `managed_client`).' }),
  enabled: attr.bool({ mode: 'computed', description: 'Whether the client may obtain tokens (always true while it is in use).' }),
};

export const dataCurrentClient = defineDataSource({
  type: 'tenantform_current_client',
  description:
    'The API client tenantform (or the provider) runs as, and the tenant it acts for: the top of the tenant tree it can see. Read with `GET /clients/{client_id}`.',
  attributes,
  example: { name: 'me', config: {} },
  async read(ctx) {
    // GAPS "The API client's own tenant": the client reads itself with its own token.
    const c = await ctx.client.getApiClient(ctx.client.clientId);
    return { id: c.client_id, tenant_id: c.tenant_id, type: c.type ?? 'api_client', enabled: c.status === 'enabled' };
  },
});

export default dataCurrentClient;
