/** Agents and their update settings (agent manager). */
import { AGENTS, call, collect, paged, type PlatformCore } from '../core';
import * as S from '../schemas';

export interface AgentUpdateSettingsItem {
  agent_id?: string;
  tenant_id?: string;
  update_channel: string;
  automatic: boolean;
  maintenance_window?: { time_from: string; time_to: string; days_of_week: string[] };
}

export interface ListAgentsOptions {
  tenantId?: string;
  /** Page size. */
  limit?: number;
  /** Full host name or a mask (`hlike(...)`, `like(...)`, `tlike(...)`). */
  hostname?: string;
}

export const agentsMethods = {
  /**
   * The settings that apply to an agent (`master: false`) or a tenant (`master: true`), resolved
   * by the platform (spec 2). platform-interface: agent update settings read (not wrapped).
   */
  getAgentUpdateSettings(this: PlatformCore, id: string, opts: { master: boolean }): Promise<S.AgentUpdateSettings> {
    return this[call]({
      method: 'GET',
      endpoint: `${AGENTS}/agent_update_settings/{id}`,
      params: { id },
      query: { master: opts.master },
      schema: S.AgentUpdateSettings,
    });
  },

  async putAgentUpdateSettings(this: PlatformCore, items: AgentUpdateSettingsItem[]): Promise<void> {
    await this[call]({
      method: 'PUT',
      endpoint: `${AGENTS}/agent_update_settings`,
      json: { items },
      schema: null,
    });
  },

  async deleteAgentUpdateSettings(this: PlatformCore, id: string, opts: { master: boolean }): Promise<void> {
    await this[call]({
      method: 'DELETE',
      endpoint: `${AGENTS}/agent_update_settings/{id}`,
      params: { id },
      query: { master: opts.master },
      schema: null,
    });
  },

  /**
   * Spec 02: `POST /agents/update:force` starts an update of the named agents now (202). Never
   * called with no id: the platform reads an empty list as every agent of the tenant.
   */
  async forceAgentUpdate(this: PlatformCore, agentIds: readonly string[]): Promise<void> {
    if (agentIds.length === 0) throw new Error('forceAgentUpdate needs at least one agent id');
    // Starting the same update twice is harmless, so a lost answer may be asked again.
    await this[call]({ method: 'POST', endpoint: `${AGENTS}/agents/update:force`, json: { agent_ids: [...agentIds] }, schema: null, idempotent: true });
  },

  /** Every agent matching the filters, page after page. platform-interface: agents listing. */
  agents(this: PlatformCore, opts: ListAgentsOptions = {}): AsyncGenerator<S.Agent, void, undefined> {
    return this[paged](`${AGENTS}/agents`, { tenant_id: opts.tenantId, hostname: opts.hostname, limit: opts.limit }, S.AgentPage);
  },

  /** All agents matching the filters (follows cursors). */
  async listAgents(this: PlatformCore, opts: ListAgentsOptions = {}): Promise<S.Agent[]> {
    return collect(agentsMethods.agents.call(this, opts));
  },
};
