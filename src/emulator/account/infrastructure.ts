/** Infrastructure components. */
import { createHash } from 'node:crypto';
import { accountBadRequest, accountConflict, accountNotFound } from '../errors';
import { z } from 'zod';
import { list, nonEmpty, oneOf, problem, text, uuid, version } from '../body';
import { json, noContent, queryList, withBody, type Reply, type RequestContext, type Route } from '../router';
import type { InfraComponent } from '../store';
import { ADMIN_INFRA, PREFIX, queryVersion, staleVersion, VIEW_INFRA, visibleTenant } from './common';

const URL_RE = /^[a-z][a-z0-9+]*:\/\/\S/;
const CAPABILITIES: [string, ...string[]] = ['backup', 'disaster_recovery', 'files_cloud', 'vcd'];

const ADDRESS = 'must start with a lowercase scheme followed by :// and an address';
const address = () => text(ADDRESS).regex(URL_RE, ADDRESS);

/** The writable members; a create requires `owner_tenant_id`, `name` and `url` (platform-interface: infra location, optional on create). */
const INFRA_MEMBERS = {
  owner_tenant_id: uuid(),
  location_id: uuid().nullable().optional(),
  name: nonEmpty('must be a non-empty string'),
  url: address(),
  capabilities: list(oneOf(CAPABILITIES)).optional(),
  content_url: address().nullable().optional(),
  content_mobile_url: address().nullable().optional(),
  // GAPS: backend_type values (any string or null)
  backend_type: z.unknown().optional(),
};

const InfraCreate = z.looseObject(INFRA_MEMBERS, problem('must be an object'));

// GAPS: infrastructure component update (the current version is required in the body)
const InfraUpdate = z.looseObject(
  {
    ...INFRA_MEMBERS,
    version,
    owner_tenant_id: INFRA_MEMBERS.owner_tenant_id.optional(),
    name: INFRA_MEMBERS.name.optional(),
    url: INFRA_MEMBERS.url.optional(),
  },
  problem('must be an object'),
);

/**
 * The location a component registered without one belongs to: its owner's default location (the
 * reference requires a `location_id` on every component). Derived from the owner, so stable.
 */
function defaultLocationOf(tenantId: string): string {
  const h = createHash('sha256').update(`location:${tenantId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A component as the platform answers it: the content addresses only when set (links, never null). */
function renderInfra(c: InfraComponent): Record<string, unknown> {
  const { content_url, content_mobile_url, ...rest } = c;
  return { ...rest, ...(content_url !== null ? { content_url } : {}), ...(content_mobile_url !== null ? { content_mobile_url } : {}) };
}

function infraOr404(ctx: RequestContext, id: string): InfraComponent {
  const c = ctx.store.world.infra[id];
  // platform-interface: not found codes (infra_not_found)
  if (c === undefined || !ctx.store.isInSubtree(c.owner_tenant_id, ctx.caller.tenantId)) {
    throw accountNotFound('infra_not_found', 'Infrastructure component', id);
  }
  return c;
}

function getInfra(ctx: RequestContext): Reply {
  const ids = queryList(ctx.query, 'uuids');
  if (ids.length === 0) throw accountBadRequest('uuids', 'is required');
  return json(200, { items: ids.map((id) => renderInfra(infraOr404(ctx, id))) });
}

function createInfra(ctx: RequestContext<z.output<typeof InfraCreate>>): Reply {
  const body = ctx.body;
  const owner = visibleTenant(ctx, body.owner_tenant_id);
  const component: InfraComponent = {
    id: ctx.store.newId(),
    owner_tenant_id: owner.id,
    location_id: body.location_id ?? defaultLocationOf(owner.id),
    name: body.name,
    url: body.url,
    capabilities: body.capabilities ?? [],
    content_url: body.content_url ?? null,
    content_mobile_url: body.content_mobile_url ?? null,
    backend_type: body.backend_type ?? null,
    platform_owned: false,
    version: ctx.store.nextVersion(),
    readonly: false,
  };
  ctx.store.world.infra[component.id] = component;
  ctx.store.save();
  return json(201, renderInfra(component));
}

function updateInfra(ctx: RequestContext<z.output<typeof InfraUpdate>>): Reply {
  const current = infraOr404(ctx, ctx.params.id);
  const body = ctx.body;
  const version = body.version;
  if (body.owner_tenant_id !== undefined && body.owner_tenant_id !== current.owner_tenant_id) {
    throw accountBadRequest('owner_tenant_id', 'cannot change; register a new component instead');
  }
  if (version !== current.version) throw staleVersion('Infrastructure component', current.id, version, current.version);
  // platform-interface: partial updates
  const next: InfraComponent = { ...current, version: ctx.store.nextVersion(current.version) };
  if (body.name !== undefined) next.name = body.name;
  if (body.location_id !== undefined && body.location_id !== null) next.location_id = body.location_id;
  if (body.url !== undefined) next.url = body.url;
  if (body.capabilities !== undefined) next.capabilities = body.capabilities;
  if (body.content_url !== undefined) next.content_url = body.content_url;
  if (body.content_mobile_url !== undefined) next.content_mobile_url = body.content_mobile_url;
  if ('backend_type' in body) next.backend_type = body.backend_type;
  ctx.store.world.infra[current.id] = next;
  ctx.store.save();
  return json(200, renderInfra(next));
}

function deleteInfra(ctx: RequestContext): Reply {
  const current = infraOr404(ctx, ctx.params.id);
  const version = queryVersion(ctx);
  // GAPS: infrastructure component delete with a stale version
  if (version !== current.version) throw staleVersion('Infrastructure component', current.id, version, current.version);
  // GAPS: infrastructure component delete while in use
  const usage = ctx.store.world.infraUsage?.[current.id] ?? [];
  const force = ctx.query.get('force') === 'true';
  const offered = usage.filter((u) => u.offering_items_on);
  if (usage.length > 0 && !force) {
    throw accountConflict(
      `Infrastructure component ${current.id} is in use by ${usage.length} customer tenant(s): ${usage.map((u) => u.tenant_id).join(', ')}`,
      { id: current.id, in_use_by: usage.map((u) => u.tenant_id) },
    );
  }
  if (offered.length > 0) {
    throw accountConflict(
      `Infrastructure component ${current.id} has offering items turned on for customer tenant(s): ${offered.map((u) => u.tenant_id).join(', ')}`,
      { id: current.id, offering_items_on: offered.map((u) => u.tenant_id) },
    );
  }
  delete ctx.store.world.infra[current.id];
  if (ctx.store.world.infraUsage) delete ctx.store.world.infraUsage[current.id];
  ctx.store.save();
  return noContent();
}

/**
 * A tenant's locations (reference operation listed, not transcribed; shape ours): its default
 * location and every location its components name.
 */
/** A tenant's locations: its default one and those of the components it owns. */
function locationsOf(ctx: RequestContext, tenantId: string): Array<Record<string, unknown>> {
  const ids = new Set([defaultLocationOf(tenantId)]);
  for (const c of Object.values(ctx.store.world.infra)) if (c.owner_tenant_id === tenantId && c.location_id !== null) ids.add(c.location_id);
  return [...ids].map((id) => ({ id, owner_tenant_id: tenantId, platform_owned: false }));
}

function tenantLocations(ctx: RequestContext): Reply {
  return json(200, { items: locationsOf(ctx, visibleTenant(ctx, ctx.params.tenant).id) });
}

/** GAPS (corrected by the reference): the components at a location, `{infras: [ids]}`, as far as the caller sees. */
function locationInfra(ctx: RequestContext): Reply {
  const location = ctx.params.location;
  const visible = Object.values(ctx.store.world.infra).filter(
    (c) => c.location_id === location && ctx.store.isInSubtree(c.owner_tenant_id, ctx.caller.tenantId),
  );
  return json(200, { infras: visible.map((c) => c.id) });
}

export const infrastructureRoutes: Route[] = [
  { method: 'GET', pattern: `${PREFIX}/infra`, scopes: VIEW_INFRA, handler: getInfra },
  withBody({ method: 'POST', pattern: `${PREFIX}/infra`, scopes: ADMIN_INFRA, body: InfraCreate, handler: createInfra }),
  { method: 'GET', pattern: `${PREFIX}/infra/:id`, scopes: VIEW_INFRA, handler: (ctx) => json(200, renderInfra(infraOr404(ctx, ctx.params.id))) },
  withBody({ method: 'PUT', pattern: `${PREFIX}/infra/:id`, scopes: ADMIN_INFRA, body: InfraUpdate, handler: updateInfra }),
  { method: 'DELETE', pattern: `${PREFIX}/infra/:id`, scopes: ADMIN_INFRA, handler: deleteInfra },
  { method: 'GET', pattern: `${PREFIX}/tenants/:tenant/locations`, scopes: VIEW_INFRA, handler: tenantLocations },
  // The caller's own tenant's locations, as `/tenants/{own id}/locations` answers them.
  { method: 'GET', pattern: `${PREFIX}/locations`, scopes: VIEW_INFRA, handler: (ctx) => json(200, { items: locationsOf(ctx, ctx.caller.tenantId) }) },
  { method: 'GET', pattern: `${PREFIX}/locations/:location/infra`, scopes: VIEW_INFRA, handler: locationInfra },
];
