import { z } from 'zod';
import type { Agent } from '../../api';
import { attr, oneOf } from '../attributes';
import { defineDataSource } from '../declaration';
import type { StateOf } from '../models';

/** The reference's `platform.family` values (agents v2, `Agent`). */
const OS_FAMILIES = ['UNKNOWN', 'WINDOWS', 'LINUX', 'MACOSX', 'SOLARIS'] as const;

const attributes = {
  tenant_id: attr.uuid({
    mode: 'required',
    identifying: true,
    description: 'The tenant whose subtree is searched: agents registered in this tenant or in a sub-tenant that is not behind a visibility barrier.',
  }),
  hostname: attr.string({
    mode: 'optional',
    check: z.string().min(1),
    expects: 'a host name, or a mask hlike(x), like(x) or tlike(x)',
    description: 'A full host name or a mask: `hlike(x)` starts with, `like(x)` contains, `tlike(x)` ends with (spec 2).',
  }),
  os_family: attr.string({
    mode: 'optional',
    check: oneOf(OS_FAMILIES),
    expects: OS_FAMILIES.join(', '),
    description: "Only agents of this operating system family (the agent's `platform.family`).",
  }),
  online: attr.bool({ mode: 'optional', description: 'Only agents that are online (true) or offline (false).' }),
  unit: attr.string({
    mode: 'optional',
    description: "Only agents with a software unit of this name among the agent's `units` (their `name`), e.g. `servers`.",
  }),
  ids: attr.list(z.string(), { mode: 'computed', description: 'The ids of the matching agents, ordered by host name.' }),
  hostnames: attr.list(z.string(), { mode: 'computed', description: 'Their host names, in the same order.' }),
  agents: attr.listNested(
    {
      id: attr.string({ mode: 'computed', description: 'The agent id.' }),
      hostname: attr.string({ mode: 'computed', description: 'Its host name.' }),
      tenant_id: attr.string({ mode: 'computed', description: "The id of the agent's tenant (`tenant.id`)." }),
      os_family: attr.string({ mode: 'computed', description: 'Its operating system family (`platform.family`).' }),
      online: attr.bool({ mode: 'computed', description: 'Whether it is online.' }),
      units: attr.list(z.string(), { mode: 'computed', description: 'The names of its software units (`units[].name`).' }),
    },
    { mode: 'computed', description: 'The matching agents, in the same order.' },
  ),
};

export const dataAgents = defineDataSource({
  type: 'tenantform_agents',
  description:
    'The agents of a tenant and its sub-tenants, filtered by host name, operating system, online state or software unit: the input of per-agent update settings (`for_each` over `ids`).',
  attributes,
  notes: ['The host name filter runs on the platform; the other filters on what it returns.'],
  example: { name: 'servers', config: { tenant_id: '${data.tenantform_tenant.acme.id}', unit: 'servers', online: true } },
  async read(ctx, config) {
    const all = await ctx.client.listAgents({
      tenantId: config.tenant_id,
      ...(config.hostname === null ? {} : { hostname: config.hostname }),
    });
    const found = all.filter((a) => matches(a, config)).sort((a, b) => a.hostname.localeCompare(b.hostname) || a.id.localeCompare(b.id));
    return {
      ...config,
      ids: found.map((a) => a.id),
      hostnames: found.map((a) => a.hostname),
      agents: found.map(summary),
    };
  },
});

/** What `agents` lists of one agent, from the platform's nested shape. */
export function summary(a: Agent): { id: string; hostname: string; tenant_id: string; os_family: string; online: boolean; units: string[] } {
  return { id: a.id, hostname: a.hostname, tenant_id: a.tenant.id, os_family: a.platform.family, online: a.online, units: a.units.map((u) => u.name) };
}

function matches(a: Agent, config: StateOf<typeof attributes>): boolean {
  return (
    (config.os_family === null || a.platform.family === config.os_family) &&
    (config.online === null || a.online === config.online) &&
    (config.unit === null || a.units.some((u) => u.name === config.unit))
  );
}

export default dataAgents;
