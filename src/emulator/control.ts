/**
 * Control endpoints outside /api (platform-interface: emulator control, emulator control details): fault settings, extra
 * API clients with chosen scopes, a summary of the world and a reset to the seeded world.
 * They need no token: the emulator listens on loopback for tests, demos and benchmarks.
 */
import { z } from 'zod';
import { ALL_SCOPES, type ApiClient, type Store } from './store';
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

/** An extra API client: every scope, on the primary client's tenant, enabled, unless the body says otherwise. */
const ClientRequest = z.object({
  scopes: z.array(z.string(), 'scopes must be an array of strings').optional(),
  tenant_id: z.string('tenant_id must be a tenant of the world').optional(),
  status: z.unknown().optional(),
});

/** The customers that use a component (platform-interface: emulator control details). */
const USAGES = 'tenants must be a list of {tenant_id, offering_items_on}';
const InfraUsageRequest = z.object(
  {
    infra_id: z.string('infra_id must be a component of the world'),
    tenants: z.array(z.object({ tenant_id: z.string(USAGES), offering_items_on: z.boolean(USAGES) }, USAGES), USAGES),
  },
  'infra_id must be a component of the world',
);

/** The body read with `schema`, or the 400 that says its first problem. */
function readBody<T>(schema: z.ZodType<T>, raw: unknown): { value: T } | { refused: Reply } {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { value: parsed.data } : { refused: problem(400, parsed.error.issues[0]?.message ?? 'The body is not valid') };
}

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
      const read = readBody(ClientRequest, parseJson(rawBody) ?? {});
      if ('refused' in read) return read.refused;
      const body = read.value;
      const tenantId = body.tenant_id ?? store.primaryClient.tenant_id;
      if (!UUID_RE.test(tenantId) || store.tenant(tenantId) === undefined) return problem(400, 'tenant_id must be a tenant of the world');
      const client: ApiClient = {
        client_id: store.newId(),
        client_secret: store.newSecret(),
        tenant_id: tenantId,
        scopes: body.scopes ?? [...ALL_SCOPES],
        status: body.status === 'disabled' ? 'disabled' : 'enabled',
      };
      store.world.clients.push(client);
      store.save();
      return { status: 201, body: { client_id: client.client_id, client_secret: client.client_secret, tenant_id: client.tenant_id, scopes: client.scopes } };
    }
    case 'PUT /_emulator/infra_usage': {
      const read = readBody(InfraUsageRequest, parseJson(rawBody));
      if ('refused' in read) return read.refused;
      const { infra_id, tenants } = read.value;
      if (store.world.infra[infra_id] === undefined) return problem(400, 'infra_id must be a component of the world');
      store.world.infraUsage = { ...store.world.infraUsage, [infra_id]: tenants };
      store.save();
      return { status: 200, body: { infra_id, tenants } };
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
