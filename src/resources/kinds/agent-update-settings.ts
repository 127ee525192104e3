import { z } from 'zod';
import type { AgentUpdateSettings, AgentUpdateSettingsItem, PlatformClient } from '../../api';
import { isNotFound } from '../../api/errors';
import { attr, oneOf, UUID_PATTERN } from '../attributes';
import { defineResource, type OperationContext } from '../declaration';
import type { KnownOf, PlannedOf, StateOf } from '../models';
import { exactlyOneOf } from '../validate';
import { canonicalJson } from '../values';
import { DISCOVERY_CONCURRENCY, mapLimit, type TenantInfo } from '../discovery';

const DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
const TIME_OF_DAY = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/, 'Not a time of day HH:MM:SS.');
const TIME_EXPECTS = 'a time of day `HH:MM:SS` (24-hour, agent local time)';

const attributes = {
  id: attr.string({ mode: 'computed', key: true, description: 'The settings identity, `agent/<agent_id>` or `tenant/<tenant_id>`.' }),
  agent_id: attr.uuid({
    mode: 'optional',
    forceNew: true,
    identifying: true,
    description: 'The agent whose own settings these are. Set exactly one of `agent_id` and `tenant_id`.',
  }),
  tenant_id: attr.uuid({
    mode: 'optional',
    forceNew: true,
    identifying: true,
    description: 'The tenant whose master settings these are. Set exactly one of `agent_id` and `tenant_id`.',
  }),
  update_channel: attr.string({
    mode: 'required',
    check: oneOf(['CURRENT', 'STABLE']),
    expects: '`CURRENT` or `STABLE`',
    description: 'The release channel agents update from.',
  }),
  automatic: attr.bool({ mode: 'required', description: 'Whether agents update without an administrator starting it.' }),
  maintenance_window: attr.object(
    {
      time_from: attr.string({ mode: 'required', check: TIME_OF_DAY, expects: TIME_EXPECTS, description: 'Start of the window.' }),
      time_to: attr.string({ mode: 'required', check: TIME_OF_DAY, expects: TIME_EXPECTS, description: 'End of the window.' }),
      days_of_week: attr.list(oneOf(DAYS), {
        mode: 'required',
        minItems: 1,
        maxItems: 7,
        unique: true,
        expects: 'day names `MONDAY` ... `SUNDAY`',
        description: 'The days the window is open, 1 to 7 distinct day names.',
      }),
    },
    { mode: 'optional', description: 'When updates may run. Left out: whenever the platform decides.' },
  ),
};

export const agentUpdateSettings = defineResource({
  type: 'tenantform_agent_update_settings',
  description:
    'Unattended update settings of one agent, or master settings of one tenant (which its agents and sub-tenants inherit). ' +
    'Removing the resource deletes the own settings, so the target inherits again.',
  schemaVersion: 0,
  attributes,
  check: (config) => exactlyOneOf(config, ['agent_id', 'tenant_id']),
  notes: [
    "The platform resolves what applies: an agent without own settings gets its tenant's master settings, and a tenant without " +
      "own settings gets the nearest ancestor's (up to a visibility barrier), marked with the tenant they are inherited from. " +
      "The resource is the target's own settings: after someone deletes them by hand, the plan creates them again, even when " +
      'the inherited values are the declared ones.',
    'Several targets applied together are sent in one request.',
  ],
  importId: {
    format: '`agent/<agent_id>` or `tenant/<tenant_id>`',
    parse: (id) => {
      const m = /^(agent|tenant)\/(.*)$/.exec(id);
      return m && UUID_PATTERN.test(m[2]) ? { id, [`${m[1]}_id`]: m[2] } : undefined;
    },
  },
  identity: (s) => identityOf(s),
  discover: {
    rank: 50,
    async list(scope, tenant) {
      const own = await scope.once('tenants with own master agent update settings', () => tenantsWithOwnMasterSettings(scope.client, scope.tenants));
      return own.has(tenant.id) ? [{ identity: { tenant_id: tenant.id }, label: ['agent_updates'] }] : [];
    },
  },
  example: {
    name: 'acme_updates',
    config: {
      tenant_id: '${data.tenantform_tenant.acme.id}',
      update_channel: 'STABLE',
      automatic: true,
      maintenance_window: { time_from: '01:00:00', time_to: '05:00:00', days_of_week: ['SATURDAY', 'SUNDAY'] },
    },
  },
  async read(ctx, state) {
    const { master, id: targetId } = targetOf(state);
    try {
      // GAPS "GET response": the platform answers with the resolved (possibly inherited) settings.
      const live = await ctx.client.getAgentUpdateSettings(targetId, { master });
      // Inherited settings are someone else's: the target's own settings are gone.
      if (live.inherited_from_tenant_id !== undefined && !(master && live.inherited_from_tenant_id === targetId)) return null;
      return toState(state, {
        update_channel: live.update_channel,
        automatic: live.automatic,
        maintenance_window: live.maintenance_window ?? null,
      });
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  },
  writeBatch: { doing: 'sending agent update settings', write: putSettings },
  async create(ctx, planned) {
    return (await putSettings(ctx, [planned]))[0];
  },
  async update(ctx, _prior, planned) {
    return (await putSettings(ctx, [planned]))[0];
  },
  async delete(ctx, prior) {
    const { master, id } = targetOf(prior);
    // Spec 2: DELETE answers 204 also when the settings are absent.
    await ctx.client.deleteAgentUpdateSettings(id, { master });
  },
});

/**
 * Sends the settings of several targets in ONE request (`PUT /agent_update_settings` takes a
 * list) and returns their new states, in the order given.
 */
async function putSettings(ctx: OperationContext, planned: ReadonlyArray<PlannedOf<typeof attributes>>): Promise<Array<StateOf<typeof attributes>>> {
  const items = planned.map(toItem);
  const ids = planned.map(identityOf);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated) throw new Error(`Agent update settings for ${repeated} are declared more than once; keep one of them.`);
  if (items.length > 0) await ctx.client.putAgentUpdateSettings(items);
  // GAPS "PUT response": 204 without a body, so the new state is what was sent.
  return planned.map((p) => toState(p, p));
}

/**
 * The tenants that have master settings of their OWN. The platform answers a read with the
 * nearest ancestor's settings when a tenant has none (spec 2), carrying the requested tenant id,
 * and says nothing about where they came from. An answer equal to the parent's resolved answer
 * is therefore taken as inherited. Own settings identical to the parent's are skipped too: they
 * change nothing the tenant gets today. An answer naming the tenant it was inherited from is
 * inherited (an MSP's partner reads the root's settings so, while the root is out of its reach).
 * Otherwise, when the parent cannot be read, the answer is kept: declaring an inherited value
 * makes an empty plan, while leaving out an own value would lose it.
 */
async function tenantsWithOwnMasterSettings(client: PlatformClient, tenants: readonly TenantInfo[]): Promise<Set<string>> {
  const root = tenants[0];
  const parentOfRoot = root.parentId === null ? [] : [root.parentId];
  const ids = [...parentOfRoot, ...tenants.map((t) => t.id)];
  const answers = await mapLimit(ids, DISCOVERY_CONCURRENCY, (id) => resolvedMaster(client, id));
  const resolved = new Map(ids.map((id, i) => [id, answers[i]]));
  const own = new Set<string>();
  for (const t of tenants) {
    const mine = resolved.get(t.id);
    if (mine === null || mine === 'unreadable' || mine === undefined) continue;
    // An answer that names where it came from settles it (the read trusts the same member).
    if (mine.inherited_from_tenant_id !== undefined && mine.inherited_from_tenant_id !== t.id) continue;
    const parents = t.parentId === null ? null : resolved.get(t.parentId);
    const inherited = parents !== null && parents !== undefined && parents !== 'unreadable' && sameSettings(mine, parents);
    if (!inherited) own.add(t.id);
  }
  return own;
}

/** The resolved master settings; null when none apply, `unreadable` when the tenant is out of reach. */
async function resolvedMaster(client: PlatformClient, tenantId: string): Promise<AgentUpdateSettings | null | 'unreadable'> {
  try {
    return await client.getAgentUpdateSettings(tenantId, { master: true });
  } catch (err) {
    // GAPS "GET response": 404 UNATTENDED_AGENT_UPDATE_SETTINGS_NOT_FOUND (none apply) or TENANT_NOT_FOUND.
    if (isNotFound(err)) return (err as { code?: string }).code === 'TENANT_NOT_FOUND' ? 'unreadable' : null;
    throw err;
  }
}

function sameSettings(a: AgentUpdateSettings, b: AgentUpdateSettings): boolean {
  const comparable = (s: AgentUpdateSettings) => ({
    update_channel: s.update_channel,
    automatic: s.automatic,
    maintenance_window: s.maintenance_window ?? null,
  });
  return canonicalJson(comparable(a)) === canonicalJson(comparable(b));
}

/** Whose settings these are: one agent's, or a tenant's master settings. */
type Target = Pick<KnownOf<typeof attributes>, 'agent_id' | 'tenant_id'>;

/** The target's id; the check lets a configuration name exactly one of them. */
function targetOf(s: Target): { master: boolean; id: string } {
  return s.tenant_id !== null ? { master: true, id: s.tenant_id } : { master: false, id: String(s.agent_id) };
}

function identityOf(s: Target): string {
  const { master, id } = targetOf(s);
  return `${master ? 'tenant' : 'agent'}/${id}`;
}

interface Window {
  readonly time_from: string;
  readonly time_to: string;
  readonly days_of_week: readonly string[];
}

function toItem(s: PlannedOf<typeof attributes>): AgentUpdateSettingsItem {
  // GAPS "Settings item shape": master settings carry tenant_id, agent settings agent_id.
  const { master, id } = targetOf(s);
  const w = s.maintenance_window;
  return {
    ...(master ? { tenant_id: id } : { agent_id: id }),
    update_channel: s.update_channel,
    automatic: s.automatic,
    ...(w ? { maintenance_window: { time_from: w.time_from, time_to: w.time_to, days_of_week: [...w.days_of_week] } } : {}),
  };
}

/** The state of a target (taken from `target`) with the given settings. */
function toState(target: Target, settings: { update_channel: string; automatic: boolean; maintenance_window: Window | null }): StateOf<typeof attributes> {
  const { master, id } = targetOf(target);
  const w = settings.maintenance_window;
  return {
    id: identityOf(target),
    agent_id: master ? null : id,
    tenant_id: master ? id : null,
    update_channel: settings.update_channel,
    automatic: settings.automatic,
    maintenance_window: w ? { time_from: w.time_from, time_to: w.time_to, days_of_week: [...w.days_of_week] } : null,
  };
}

export default agentUpdateSettings;
