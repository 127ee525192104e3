/**
 * Control endpoints outside /api (platform-interface: emulator control, emulator control details): fault settings, extra
 * API clients with chosen scopes, a summary of the world and a reset to the seeded world.
 * They need no token: the emulator listens on loopback for tests, demos and benchmarks.
 */
import { ALL_SCOPES, type ApiClient, type InfraUsage, type Store } from './store';
import type { FaultInjector } from './faults';
import { isObject, UUID_RE, type Reply } from './router';

export interface WorldSummary {
  rootTenantId: string;
  tenants: Record<string, { id: string; kind: string; parent_id: string | null }>;
  applications: Record<string, { id: string; name: string }>;
  agents: Record<string, string[]>;
}

export function summarizeWorld(store: Store): WorldSummary {
  const w = store.world;
  const tenants: WorldSummary['tenants'] = {};
  for (const t of w.tenants) tenants[t.name] = { id: t.id, kind: t.kind, parent_id: t.parent_id };
  const applications: WorldSummary['applications'] = {};
  for (const a of w.applications) applications[a.type] = { id: a.id, name: a.name };
  const agents: WorldSummary['agents'] = {};
  for (const a of w.agents) {
    const name = store.tenant(a.tenant_id)?.name ?? a.tenant_id;
    (agents[name] ??= []).push(a.id);
  }
  return { rootTenantId: w.rootTenantId, tenants, applications, agents };
}

const problem = (status: number, message: string): Reply => ({ status, body: { error: { code: status, message } } });

export function handleControl(method: string, path: string, rawBody: Buffer, store: Store, faults: FaultInjector): Reply {
  const route = `${method} ${path.replace(/\/$/, '')}`;
  switch (route) {
    case 'GET /_emulator/faults':
      return { status: 200, body: faults.faults };
    case 'PUT /_emulator/faults': {
      const body = parseJson(rawBody);
      if (body === undefined) return problem(400, 'The body must be a JSON object of fault settings');
      try {
        faults.set(body);
      } catch (e) {
        return problem(400, (e as Error).message);
      }
      return { status: 200, body: faults.faults };
    }
    case 'POST /_emulator/clients': {
      const body = parseJson(rawBody) ?? {};
      const scopes = body.scopes ?? [...ALL_SCOPES];
      if (!Array.isArray(scopes) || scopes.some((s) => typeof s !== 'string')) return problem(400, 'scopes must be an array of strings');
      const tenantId = body.tenant_id ?? store.primaryClient.tenant_id;
      if (typeof tenantId !== 'string' || !UUID_RE.test(tenantId) || store.tenant(tenantId) === undefined)
        return problem(400, 'tenant_id must be a tenant of the world');
      const client: ApiClient = {
        client_id: store.newId(),
        client_secret: store.newSecret(),
        tenant_id: tenantId,
        scopes: scopes as string[],
        status: body.status === 'disabled' ? 'disabled' : 'enabled',
      };
      store.world.clients.push(client);
      store.save();
      return { status: 201, body: { client_id: client.client_id, client_secret: client.client_secret, tenant_id: client.tenant_id, scopes: client.scopes } };
    }
    case 'PUT /_emulator/infra_usage': {
      // platform-interface: emulator control details (customers using a component).
      const body = parseJson(rawBody);
      const usages = body?.tenants;
      if (typeof body?.infra_id !== 'string' || store.world.infra[body.infra_id] === undefined)
        return problem(400, 'infra_id must be a component of the world');
      if (!Array.isArray(usages) || usages.some((u) => !isObject(u) || typeof u.tenant_id !== 'string' || typeof u.offering_items_on !== 'boolean')) {
        return problem(400, 'tenants must be a list of {tenant_id, offering_items_on}');
      }
      store.world.infraUsage = { ...store.world.infraUsage, [body.infra_id]: usages as InfraUsage[] };
      store.save();
      return { status: 200, body: { infra_id: body.infra_id, tenants: usages } };
    }
    case 'GET /_emulator/world':
      return { status: 200, body: summarizeWorld(store) };
    case 'GET /_emulator/dump':
      return { status: 200, body: dumpWorld(store) };
    case 'POST /_emulator/reset':
      store.reset();
      return { status: 200, body: summarizeWorld(store) };
    default:
      return problem(404, `No control operation ${method} ${path}`);
  }
}

/**
 * Every object of the world, for tests and audits: tenants, users, clients, settings, components,
 * reports, agents and the rest, as stored. API clients' secrets are left out.
 */
function dumpWorld(store: Store): Record<string, unknown> {
  const { clients, ...rest } = structuredClone(store.world);
  return { ...rest, clients: clients.map(({ client_secret: _secret, ...client }) => client) };
}

function parseJson(raw: Buffer): Record<string, unknown> | undefined {
  if (raw.length === 0) return undefined;
  try {
    const v = JSON.parse(raw.toString('utf8')) as unknown;
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
