import { z } from 'zod';
import type { Agent } from '../../api';
import { attr, oneOf } from '../attributes';
import { defineDataSource, type State } from '../declaration';

const OS_FAMILIES = ['WINDOWS', 'LINUX', 'MACOSX'] as const;

export const dataAgents = defineDataSource({
  type: 'tenantform_agents',
  description:
    'The agents of a tenant and its sub-tenants, filtered by host name, operating system, online state or unit: the input of per-agent update settings (`for_each` over `ids`).',
  attributes: {
    tenant_id: attr.uuid({ mode: 'required', identifying: true, description: 'The tenant whose subtree is searched.' }),
    hostname: attr.string({
      mode: 'optional',
      check: z.string().min(1),
      expects: 'a host name, or a mask hlike(x), like(x) or tlike(x)',
      description: 'A full host name or a mask: `hlike(x)` starts with, `like(x)` contains, `tlike(x)` ends with (spec 2).',
    }),
    os_family: attr.string({ mode: 'optional', check: oneOf(OS_FAMILIES), expects: OS_FAMILIES.join(', '), description: 'Only agents of this operating system family.' }),
    online: attr.bool({ mode: 'optional', description: 'Only agents that are online (true) or offline (false).' }),
    unit: attr.string({ mode: 'optional', description: 'Only agents of this unit, e.g. `servers` or `workstations`.' }),
    ids: attr.list(z.string(), { mode: 'computed', description: 'The ids of the matching agents, ordered by host name.' }),
    hostnames: attr.list(z.string(), { mode: 'computed', description: 'Their host names, in the same order.' }),
    agents: attr.json({ mode: 'computed', description: 'The matching agents as a JSON list of `{id, hostname, tenant_id, os_family, online, unit}`.' }),
  },
  notes: ['The host name filter runs on the platform; the other filters on what it returns.'],
  example: { name: 'servers', config: { tenant_id: '${data.tenantform_tenant.acme.id}', unit: 'servers', online: true } },
  async read(ctx, config) {
    const all = await ctx.client.listAgents({
      tenantId: String(config.tenant_id),
      ...(typeof config.hostname === 'string' ? { hostname: config.hostname } : {}),
    });
    const found = all.filter((a) => matches(a, config)).sort((a, b) => a.hostname.localeCompare(b.hostname) || a.id.localeCompare(b.id));
    return {
      ...config,
      ids: found.map((a) => a.id),
      hostnames: found.map((a) => a.hostname),
      agents: JSON.stringify(found.map((a) => ({ id: a.id, hostname: a.hostname, tenant_id: a.tenant_id, os_family: a.os_family, online: a.online, unit: a.unit ?? null }))),
    };
  },
});

function matches(a: Agent, config: State): boolean {
  return (
    (config.os_family === null || a.os_family === config.os_family) &&
    (config.online === null || a.online === config.online) &&
    (config.unit === null || a.unit === config.unit)
  );
}

export default dataAgents;
