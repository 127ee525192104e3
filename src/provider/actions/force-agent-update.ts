import { z } from 'zod';
import { attr } from '../../resources/attributes';
import { count, defineAction, step, strings } from './declaration';

/** Spec 02: agent management identifiers are uuids in either case. */
const AGENT_ID = z.string().regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/);

export default defineAction({
  type: 'tenantform_force_agent_update',
  description:
    'Starts an update of the named agents now, outside their maintenance window. The platform accepts the request and the agents update in the background; how many update at once is limited by the platform. At least one agent must be named: the platform reads an empty list as every agent of the tenant, which this action never sends.',
  operation: '`POST /api/agent_manager/v2/agents/update:force` with `{agent_ids}` (spec 02)',
  attributes: {
    agent_ids: attr.list(AGENT_ID, {
      mode: 'required',
      minItems: 1,
      maxItems: 1000,
      unique: true,
      expects: 'agent ids (uuids), 1 to 1000 of them, none twice',
      description: 'The agents to update, for example from the `tenantform_agents` data source.',
    }),
  },
  example: { name: 'update_outdated', config: { agent_ids: '${data.tenantform_agents.acme.ids}' } },
  async *invoke(config, { client }) {
    const agents = strings(config.agent_ids);
    yield `Asking the platform to update ${count(agents.length, 'agent')} now`;
    await step(`starting the update of ${count(agents.length, 'agent')}`, () => client.forceAgentUpdate(agents));
    yield `The platform accepted the update of ${count(agents.length, 'agent')}; they update in the background`;
  },
});
