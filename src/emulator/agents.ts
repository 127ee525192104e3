/**
 * Agent management interface (`/api/agent_manager/v2`): agent listing and unattended agent
 * update settings with the resolution rules of spec 02. Agents are answered in the vendor's shape
 * (test/contract/vendor/agents-v2.openapi.json, `Agent`), rendered from the stored agents by
 * ./agent-view.
 */
import { OS_FAMILIES, resolveMaster, vendorAgent, type VendorAgent } from './agent-view';
import { agentBadRequest, agentError } from './errors';
import { SPOKEN_INTERFACES } from '../api/interfaces';
import { z } from 'zod';
import { DayOfWeek } from '../api/schemas';
import { bool, closed, distinct, list, oneOf, problem, text } from './body';
import { decodeCursor, encodeCursor, json, noContent, queryBool, UUID_RE, withBody, type InterfaceRoutes, type Reply, type RequestContext } from './router';
import type { Agent, AgentUpdateSettings, Store, Tenant } from './store';

const AM = (role: string): string => `urn:vendor::agent_manager::${role}`;
const VIEW_AGENTS = [AM('agent_viewer'), AM('admin')];
const VIEW_SETTINGS = [AM('agent_update_settings_viewer'), AM('admin')];
const MODIFY_SETTINGS = [AM('agent_update_settings_modifier'), AM('admin')];
const FORCE_UPDATE = [AM('agent_registrar'), AM('admin')];

const PREFIX = SPOKEN_INTERFACES.agent_manager.prefix;

// ---------------------------------------------------------------- tenant visibility

function visibleTenant(ctx: RequestContext, id: string): Tenant | undefined {
  const t = ctx.store.tenant(id);
  return t !== undefined && ctx.store.isInSubtree(t.id, ctx.caller.tenantId) ? t : undefined;
}

/** spec 02: the tenant and its descendants, leaving out children behind a visibility barrier. */
function tenantsSeenFrom(store: Store, rootId: string): Set<string> {
  const seen = new Set<string>([rootId]);
  const queue = [rootId];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const child of store.children(id)) {
      if (child.barrier) continue;
      seen.add(child.id);
      queue.push(child.id);
    }
  }
  return seen;
}

// ---------------------------------------------------------------- agents listing

const ORDER = z.enum(['asc', 'desc']);

/** A listing's filters, as a page's cursor carries them. */
const AgentQuery = z.object({
  tenant_id: z.string(),
  hostname: z.string().optional(),
  online: z.boolean().optional(),
  up_to_date: z.boolean().optional(),
  os_family: z.string().optional(),
  unit: z.string().optional(),
  order: ORDER,
  limit: z.number(),
});
type AgentQuery = z.output<typeof AgentQuery>;

function parseAgentQuery(ctx: RequestContext): AgentQuery {
  const q = ctx.query;
  const tenantId = q.get('tenant_id') ?? ctx.caller.tenantId;
  // platform-interface: agent manager error codes (a tenant_id the caller cannot see answers 400)
  if (!UUID_RE.test(tenantId) || visibleTenant(ctx, tenantId) === undefined) throw agentBadRequest(`tenant_id ${tenantId} is not a tenant you can see`);
  const out: AgentQuery = { tenant_id: tenantId, order: 'asc', limit: parseLimit(q.get('limit')) };
  for (const flag of ['online', 'up_to_date'] as const) {
    const v = queryBool(q, flag);
    if (v === 'invalid') throw agentBadRequest(`${flag} must be true or false`);
    if (v !== undefined) out[flag] = v;
  }
  const os = q.get('os_family');
  if (os !== null) {
    const family = OS_FAMILIES.find((f) => f === os.toUpperCase());
    if (family === undefined) throw agentBadRequest(`os_family must be one of ${OS_FAMILIES.join(', ')}`);
    out.os_family = family;
  }
  const hostname = q.get('hostname');
  if (hostname !== null) out.hostname = hostname;
  const unit = q.get('unit');
  if (unit !== null) out.unit = unit;
  const order = q.get('order');
  if (order !== null) {
    const direction = ORDER.safeParse(/^(\w+)\(hostname\)$/.exec(order.trim())?.[1]);
    if (!direction.success) throw agentBadRequest('order supports only asc(hostname) or desc(hostname)');
    out.order = direction.data;
  }
  return out;
}

function parseLimit(raw: string | null): number {
  if (raw === null || raw === '') return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw agentBadRequest('limit must be an integer >= 0');
  return n;
}

/** spec 02: hostname is a full name or a mask: hlike(x) starts with, like(x) contains, tlike(x) ends with. */
function hostnameMatches(filter: string, hostname: string): boolean {
  const m = /^(hlike|like|tlike)\((.*)\)$/.exec(filter);
  const h = hostname.toLowerCase();
  if (m === null) return h === filter.toLowerCase();
  const needle = m[2].toLowerCase();
  if (m[1] === 'hlike') return h.startsWith(needle);
  if (m[1] === 'tlike') return h.endsWith(needle);
  return h.includes(needle);
}

/** A listing cursor: the query, a position and its direction (`a` items from `o` on, `b` items before `o`). */
const AgentCursor = z.object({ q: AgentQuery, o: z.number(), d: z.enum(['a', 'b']).optional() });
type AgentCursor = z.output<typeof AgentCursor>;

/** The query and the page bounds of a request: a first page, or `after`/`before` with at most `limit`. */
function pageRequest(ctx: RequestContext): { query: AgentQuery; from: number; direction: 'a' | 'b' } {
  const after = ctx.query.get('after');
  const before = ctx.query.get('before');
  const cursor = after ?? before;
  if (cursor === null) return { query: parseAgentQuery(ctx), from: 0, direction: 'a' };
  const name = after !== null ? 'after' : 'before';
  // agents-v2 reference: x-exclusive-with-all-but-limit [after, before]
  const others = [...new Set(ctx.query.keys())].filter((k) => k !== name && k !== 'limit');
  if (others.length > 0) throw agentBadRequest(`${name} cannot be combined with ${others.join(', ')}`);
  const state = decodeCursor(cursor, AgentCursor);
  const direction = name === 'after' ? 'a' : 'b';
  if (state === undefined || (state.d ?? 'a') !== direction) {
    throw agentBadRequest(`${name} is not a cursor of this listing`);
  }
  let query = state.q;
  if (ctx.query.get('limit') !== null) query = { ...query, limit: parseLimit(ctx.query.get('limit')) };
  return { query, from: state.o, direction };
}

function listAgents(ctx: RequestContext): Reply {
  const { query, from, direction } = pageRequest(ctx);
  const tenants = tenantsSeenFrom(ctx.store, query.tenant_id);
  const matches: VendorAgent[] = ctx.store.world.agents
    .filter((a) => tenants.has(a.tenant_id))
    .filter((a) => query.up_to_date === undefined || a.up_to_date === query.up_to_date)
    .map((a) => vendorAgent(ctx.store, a))
    .filter((a) => query.hostname === undefined || hostnameMatches(query.hostname, a.hostname))
    .filter((a) => query.online === undefined || a.online === query.online)
    .filter((a) => query.os_family === undefined || a.platform.family === query.os_family)
    .filter((a) => query.unit === undefined || a.units.some((u) => u.name === query.unit))
    // spec 02: ordered by hostname, ties ascending by agent id
    .sort((a, b) => (query.order === 'asc' ? 1 : -1) * a.hostname.localeCompare(b.hostname) || a.id.localeCompare(b.id));
  // `after` pages from its position on; `before` pages up to (not including) its position.
  const start = direction === 'a' ? Math.min(from, matches.length) : query.limit === 0 ? 0 : Math.max(0, Math.min(from, matches.length) - query.limit);
  const end = direction === 'a' ? (query.limit === 0 ? matches.length : Math.min(matches.length, start + query.limit)) : Math.min(from, matches.length);
  const cursors: { after?: string; before?: string } = {};
  // agents-v2 reference: AgentCollection {items, paging: {cursors: {after?, before?}}}
  if (end < matches.length) cursors.after = encodeCursor({ q: query, o: end, d: 'a' } satisfies AgentCursor);
  if (start > 0) cursors.before = encodeCursor({ q: query, o: start, d: 'b' } satisfies AgentCursor);
  return json(200, { items: matches.slice(start, end), paging: { cursors } });
}

// ---------------------------------------------------------------- unattended update settings

const TIME = 'must be a time HH:MM:SS';
const time = () => text(TIME).regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, TIME);

const Window = closed(
  {
    time_from: time(),
    time_to: time(),
    days_of_week: list(z.enum(DayOfWeek.enum, problem(`must be one of ${DayOfWeek.options.join(', ')}`)), 'must list 1 to 7 days')
      .min(1, 'must list 1 to 7 days')
      .max(7, 'must list 1 to 7 days')
      .refine(distinct, 'must not repeat a day'),
  },
  'a maintenance window',
);

/** GAPS: settings item shape. An item with `agent_id` is an agent's own settings; without, its tenant's (master settings). */
const SettingsItem = closed(
  {
    agent_id: text().optional(),
    tenant_id: text().optional(),
    update_channel: oneOf(['CURRENT', 'STABLE'], 'must be CURRENT or STABLE'),
    automatic: bool(),
    maintenance_window: Window.optional(),
  },
  'a settings item',
);

const SettingsPut = z.object({ items: list(SettingsItem) }, problem('must be {items: [settings item, ...]}'));

/** The item to store: its agent or tenant must be one the caller sees. */
function checkSettingsItem(ctx: RequestContext, raw: z.output<typeof SettingsItem>, at: string): AgentUpdateSettings {
  const { agent_id, tenant_id, ...item } = raw;
  if (agent_id !== undefined) {
    // spec 02: an item with agent_id is agent-specific and requires a registered agent
    const agent = ctx.store.agent(agent_id);
    if (agent === undefined || visibleTenant(ctx, agent.tenant_id) === undefined) throw agentBadRequest(`${at}.agent_id ${agent_id} is not a registered agent`);
    if (tenant_id !== undefined && tenant_id !== agent.tenant_id) throw agentBadRequest(`${at}.tenant_id does not match the agent's tenant`);
    return { agent_id: agent.id, ...item };
  }
  if (tenant_id === undefined || visibleTenant(ctx, tenant_id) === undefined) {
    throw agentBadRequest(`${at}: master settings need the tenant_id of a tenant you can see`);
  }
  return { tenant_id, ...item };
}

function putSettings(ctx: RequestContext<z.output<typeof SettingsPut>>): Reply {
  // check every item before storing any, so that a bad item changes nothing
  const items = ctx.body.items.map((raw, i) => checkSettingsItem(ctx, raw, `items[${i}]`));
  const stored = ctx.store.world.agentUpdateSettings;
  for (const item of items) {
    if (item.agent_id !== undefined) stored.byAgent[item.agent_id] = item;
    else if (item.tenant_id !== undefined) stored.byTenant[item.tenant_id] = item;
  }
  ctx.store.save();
  return noContent(); // GAPS: PUT response (204, no body)
}

function masterFlag(ctx: RequestContext): boolean {
  const v = queryBool(ctx.query, 'master');
  if (v === 'invalid') throw agentBadRequest('master must be true or false');
  return v === true;
}

function settingsNotFound(id: string): never {
  // GAPS: GET response (404 codes)
  throw agentError(404, 'UNATTENDED_AGENT_UPDATE_SETTINGS_NOT_FOUND', `No unattended update settings apply to ${id}`);
}

function withoutTarget(s: AgentUpdateSettings): AgentUpdateSettings {
  const { agent_id: _a, tenant_id: _t, ...rest } = structuredClone(s);
  return rest;
}

function getSettings(ctx: RequestContext): Reply {
  const id = ctx.params.id;
  const stored = ctx.store.world.agentUpdateSettings;
  if (masterFlag(ctx)) {
    const tenant = visibleTenant(ctx, id);
    if (tenant === undefined) throw agentError(404, 'TENANT_NOT_FOUND', `Tenant ${id} not found`);
    const found = resolveMaster(ctx.store, tenant.id);
    if (found === undefined) settingsNotFound(id);
    // spec 02: a substitute is returned carrying the requested tenant id; the reference marks
    // where inherited settings live.
    const inherited = found.tenant_id !== undefined && found.tenant_id !== tenant.id ? { inherited_from_tenant_id: found.tenant_id } : {};
    return json(200, { tenant_id: tenant.id, ...withoutTarget(found), ...inherited });
  }
  const agent: Agent | undefined = ctx.store.agent(id);
  if (agent === undefined || visibleTenant(ctx, agent.tenant_id) === undefined) throw agentError(404, 'AGENT_NOT_FOUND', `Agent ${id} not found`);
  const own = stored.byAgent[agent.id];
  if (own !== undefined) return json(200, { agent_id: agent.id, ...withoutTarget(own) });
  const master = resolveMaster(ctx.store, agent.tenant_id);
  if (master === undefined) settingsNotFound(id);
  // spec 02: the master settings that apply, marked with the agent id and without a tenant id;
  // the reference marks the tenant they are inherited from.
  return json(200, { agent_id: agent.id, ...withoutTarget(master), ...(master.tenant_id !== undefined ? { inherited_from_tenant_id: master.tenant_id } : {}) });
}

function deleteSettings(ctx: RequestContext, id: string | null): Reply {
  if (id === null || id === '') throw agentBadRequest('id is required');
  const stored = ctx.store.world.agentUpdateSettings;
  const master = masterFlag(ctx);
  const table = master ? stored.byTenant : stored.byAgent;
  const tenantId = master ? id : ctx.store.agent(id)?.tenant_id;
  // spec 02: 204 whether deleted, absent or inaccessible; settings the caller cannot see stay.
  const visible = tenantId !== undefined && visibleTenant(ctx, tenantId) !== undefined;
  if (visible && table[id] !== undefined) {
    delete table[id];
    ctx.store.save();
  }
  return noContent();
}

// ---------------------------------------------------------------- forced update

/**
 * Spec 02: `POST /agents/update:force` with `{agent_ids}`; an empty list makes every agent of the
 * caller's tenants a candidate. The emulator runs no agents: a forced update completes at once
 * (`up_to_date` turns true). An id that is no agent the caller sees answers 400 naming it, and
 * nothing is updated (platform-interface: forced agent update).
 */
const ForceUpdate = z.object({ agent_ids: list(text()) }, problem('must be {agent_ids: [string, ...]}'));

function forceUpdate(ctx: RequestContext<z.output<typeof ForceUpdate>>): Reply {
  const seen = tenantsSeenFrom(ctx.store, ctx.caller.tenantId);
  const ids = ctx.body.agent_ids;
  const agents = ids.length === 0 ? ctx.store.world.agents.filter((a) => seen.has(a.tenant_id)) : [];
  for (const id of ids) {
    const agent = ctx.store.agent(id.toLowerCase());
    if (agent === undefined || !seen.has(agent.tenant_id)) throw agentBadRequest(`agent_ids: ${id} is not a registered agent`);
    agents.push(agent);
  }
  for (const agent of agents) agent.up_to_date = true;
  ctx.store.save();
  return { status: 202 };
}

export const agentRoutes: InterfaceRoutes = {
  name: 'agent',
  prefix: `${PREFIX}/`,
  routes: [
    { method: 'GET', pattern: `${PREFIX}/agents`, scopes: VIEW_AGENTS, handler: listAgents },
    withBody({
      method: 'POST',
      pattern: `${PREFIX}/agents/update:force`,
      scopes: FORCE_UPDATE,
      body: ForceUpdate,
      // A body the operation cannot read is refused before any agent is looked at.
      refuseBody: (field, problem) => agentError(400, 'UNMARSHALLING_ERROR', `${field} ${problem}`),
      handler: forceUpdate,
    }),
    withBody({ method: 'PUT', pattern: `${PREFIX}/agent_update_settings`, scopes: MODIFY_SETTINGS, body: SettingsPut, handler: putSettings }),
    { method: 'GET', pattern: `${PREFIX}/agent_update_settings/:id`, scopes: VIEW_SETTINGS, handler: getSettings },
    { method: 'DELETE', pattern: `${PREFIX}/agent_update_settings`, scopes: MODIFY_SETTINGS, handler: (ctx) => deleteSettings(ctx, ctx.query.get('id')) },
    {
      method: 'DELETE',
      pattern: `${PREFIX}/agent_update_settings/:id`,
      scopes: MODIFY_SETTINGS,
      handler: (ctx) => deleteSettings(ctx, ctx.params.id),
    },
  ],
};
