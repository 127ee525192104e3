/** API clients: create (the only answer that carries the secret), read, update, delete, list by ids or origin. */
import { accountBadRequest, accountNotFound } from '../errors';
import { isObject, json, noContent, UUID_RE, type Reply, type RequestContext, type Route } from '../router';
import { ALL_SCOPES, type ApiClient } from '../store';
import { ADMIN_TENANTS, checkTypes, closedBody, nowIso, PREFIX, VIEW_TENANTS, visibleTenant } from './common';

const AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

/** GAPS: API client read (never the secret). */
function render(c: ApiClient): Record<string, unknown> {
  return {
    client_id: c.client_id,
    tenant_id: c.tenant_id,
    type: c.type ?? 'api_client',
    data: { ...(c.data ?? {}) },
    token_endpoint_auth_method: c.token_endpoint_auth_method ?? 'client_secret_basic',
    status: c.status,
    redirect_uris: [...(c.redirect_uris ?? [])],
    created_at: c.created_at ?? null,
    // The reference: `created_by` is a string; a client made by the seed was made by no one in the world.
    created_by: c.created_by ?? '',
    client_secret_expires_at: 0,
    last_access_at: null,
    last_access_from_ip: null,
    ...(c.origin_id !== undefined ? { origin_id: c.origin_id } : {}),
  };
}

function clientOr404(ctx: RequestContext): ApiClient {
  const id = ctx.params.id;
  const c = ctx.store.client(id);
  if (c === undefined || !ctx.store.isInSubtree(c.tenant_id, ctx.caller.tenantId)) throw accountNotFound('client_not_found', 'Client', id);
  return c;
}

function checkWritable(body: Record<string, unknown>): void {
  if (body.data !== undefined && !isObject(body.data)) throw accountBadRequest('data', 'must be an object');
  if (body.redirect_uris !== undefined) {
    if (!Array.isArray(body.redirect_uris)) throw accountBadRequest('redirect_uris', 'must be an array');
    body.redirect_uris.forEach((u, i) => {
      if (typeof u !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\/\S/.test(u)) throw accountBadRequest(`redirect_uris[${i}]`, 'must be an absolute address');
    });
  }
}

function createClient(ctx: RequestContext): Reply {
  const body = closedBody(ctx, ['type', 'tenant_id', 'data', 'token_endpoint_auth_method', 'redirect_uris', 'origin_id'], 'a client create');
  if (typeof body.tenant_id !== 'string' || !UUID_RE.test(body.tenant_id)) throw accountBadRequest('tenant_id', 'is required (a tenant uuid)');
  checkTypes(body, { type: 'string', token_endpoint_auth_method: 'string', origin_id: 'string' });
  if (body.type !== undefined && !['api_client', 'managed_client'].includes(body.type as string))
    throw accountBadRequest('type', 'must be api_client or managed_client');
  if (body.token_endpoint_auth_method !== undefined && !AUTH_METHODS.includes(body.token_endpoint_auth_method as string)) {
    throw accountBadRequest('token_endpoint_auth_method', `must be one of ${AUTH_METHODS.join(', ')}`);
  }
  checkWritable(body);
  const tenant = visibleTenant(ctx, body.tenant_id);
  const client: ApiClient = {
    client_id: ctx.store.newId(),
    client_secret: ctx.store.newSecret(),
    tenant_id: tenant.id,
    // A client acts for its own tenant: every scope but the root's.
    scopes: ALL_SCOPES.filter((s) => tenant.parent_id === null || !s.endsWith('::root_admin')),
    status: 'enabled',
    type: (body.type as string | undefined) ?? 'api_client',
    data: { ...((body.data as Record<string, unknown> | undefined) ?? {}) },
    token_endpoint_auth_method: (body.token_endpoint_auth_method as string | undefined) ?? 'client_secret_basic',
    redirect_uris: [...((body.redirect_uris as string[] | undefined) ?? [])],
    created_at: nowIso(),
    created_by: ctx.caller.clientId,
    ...(typeof body.origin_id === 'string' ? { origin_id: body.origin_id } : {}),
  };
  ctx.store.world.clients.push(client);
  ctx.store.save();
  // GAPS: API client read (only the 201 of the create carries client_secret)
  return json(201, { ...render(client), client_secret: client.client_secret, registration_access_token: ctx.store.newSecret() });
}

function updateClient(ctx: RequestContext): Reply {
  const c = clientOr404(ctx);
  const body = closedBody(ctx, ['data', 'status', 'redirect_uris'], 'a client update');
  if (body.status !== undefined && body.status !== 'enabled' && body.status !== 'disabled') throw accountBadRequest('status', 'must be enabled or disabled');
  checkWritable(body);
  if (body.data !== undefined) c.data = { ...(body.data as Record<string, unknown>) };
  if (body.redirect_uris !== undefined) c.redirect_uris = [...(body.redirect_uris as string[])];
  if (body.status !== undefined) c.status = body.status;
  ctx.store.save();
  return json(200, render(c));
}

function deleteClient(ctx: RequestContext): Reply {
  const c = clientOr404(ctx);
  ctx.store.world.clients = ctx.store.world.clients.filter((x) => x.client_id !== c.client_id);
  ctx.store.save();
  return noContent();
}

/** FetchClientsBatch: the caller's visible clients, narrowed by `uuids` and `origin_id`. */
function listClients(ctx: RequestContext): Reply {
  const uuids = ctx.query.get('uuids');
  const wanted = uuids === null ? undefined : new Set(uuids.split(','));
  if (wanted) for (const id of wanted) if (!UUID_RE.test(id)) throw accountBadRequest('uuids', 'must be a comma-separated list of uuids');
  const origin = ctx.query.get('origin_id');
  const items = ctx.store.world.clients.filter(
    (c) =>
      ctx.store.isInSubtree(c.tenant_id, ctx.caller.tenantId) &&
      (wanted === undefined || wanted.has(c.client_id)) &&
      (origin === null || c.origin_id === origin),
  );
  return json(200, { items: items.map(render) });
}

export const clientRoutes: Route[] = [
  { method: 'GET', pattern: `${PREFIX}/clients`, scopes: VIEW_TENANTS, handler: listClients },
  { method: 'POST', pattern: `${PREFIX}/clients`, scopes: ADMIN_TENANTS, jsonBody: true, handler: createClient },
  { method: 'GET', pattern: `${PREFIX}/clients/:id`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, render(clientOr404(ctx))) },
  { method: 'PUT', pattern: `${PREFIX}/clients/:id`, scopes: ADMIN_TENANTS, jsonBody: true, handler: updateClient },
  { method: 'DELETE', pattern: `${PREFIX}/clients/:id`, scopes: ADMIN_TENANTS, handler: deleteClient },
];
