/** API clients: create (the only answer that carries the secret), read, update, delete, list by ids or origin. */
import { accountBadRequest, accountNotFound } from '../errors';
import type { z } from 'zod';
import { closed, list, oneOf, record, text, uuid } from '../body';
import { json, noContent, UUID_RE, withBody, type Reply, type RequestContext, type Route } from '../router';
import { ALL_SCOPES, type ApiClient } from '../store';
import { ADMIN_TENANTS, nowIso, PREFIX, VIEW_TENANTS, visibleTenant } from './common';

const AUTH_METHODS: [string, ...string[]] = ['client_secret_basic', 'client_secret_post', 'none'];

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

const REDIRECT_URI = text('must be an absolute address').regex(/^[a-z][a-z0-9+.-]*:\/\/\S/, 'must be an absolute address');

/** What create and update both write. */
const WRITABLE = { data: record().optional(), redirect_uris: list(REDIRECT_URI).optional() };

const ClientCreate = closed(
  {
    tenant_id: uuid('must be a tenant uuid'),
    type: oneOf(['api_client', 'managed_client'], 'must be api_client or managed_client').optional(),
    token_endpoint_auth_method: oneOf(AUTH_METHODS).optional(),
    origin_id: text().optional(),
    ...WRITABLE,
  },
  'a client create',
);

const ClientUpdate = closed({ status: oneOf(['enabled', 'disabled'], 'must be enabled or disabled').optional(), ...WRITABLE }, 'a client update');

function createClient(ctx: RequestContext<z.output<typeof ClientCreate>>): Reply {
  const body = ctx.body;
  const tenant = visibleTenant(ctx, body.tenant_id);
  const client: ApiClient = {
    client_id: ctx.store.newId(),
    client_secret: ctx.store.newSecret(),
    tenant_id: tenant.id,
    // A client acts for its own tenant: every scope but the root's.
    scopes: ALL_SCOPES.filter((s) => tenant.parent_id === null || !s.endsWith('::root_admin')),
    status: 'enabled',
    type: body.type ?? 'api_client',
    data: { ...body.data },
    token_endpoint_auth_method: body.token_endpoint_auth_method ?? 'client_secret_basic',
    redirect_uris: body.redirect_uris ?? [],
    created_at: nowIso(),
    created_by: ctx.caller.clientId,
    ...(body.origin_id !== undefined ? { origin_id: body.origin_id } : {}),
  };
  ctx.store.world.clients.push(client);
  ctx.store.save();
  // GAPS: API client read (only the 201 of the create carries client_secret)
  return json(201, { ...render(client), client_secret: client.client_secret, registration_access_token: ctx.store.newSecret() });
}

function updateClient(ctx: RequestContext<z.output<typeof ClientUpdate>>): Reply {
  const c = clientOr404(ctx);
  const body = ctx.body;
  if (body.data !== undefined) c.data = body.data;
  if (body.redirect_uris !== undefined) c.redirect_uris = body.redirect_uris;
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
  withBody({ method: 'POST', pattern: `${PREFIX}/clients`, scopes: ADMIN_TENANTS, body: ClientCreate, handler: createClient }),
  { method: 'GET', pattern: `${PREFIX}/clients/:id`, scopes: VIEW_TENANTS, handler: (ctx) => json(200, render(clientOr404(ctx))) },
  withBody({ method: 'PUT', pattern: `${PREFIX}/clients/:id`, scopes: ADMIN_TENANTS, body: ClientUpdate, handler: updateClient }),
  { method: 'DELETE', pattern: `${PREFIX}/clients/:id`, scopes: ADMIN_TENANTS, handler: deleteClient },
];
