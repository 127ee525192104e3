import { PlatformClient, type ClientEvent } from '../../api';
import { startEmulator, type RunningEmulator } from '../../emulator';
import type { OperationContext, State } from '../declaration';
import { createResource, deleteResource, importResource, readResource, updateResource } from '../operations';
import { planResource } from '../plan';
import { validateConfig } from '../validate';
import { stateOf } from '../testing';
import kind from './agent-update-settings';

const ADDRESS = 'tenantform_agent_update_settings.test';
const AGENT = '2f0c4a52-7a1e-4c4e-9d1a-0b6f3c1d2e3f';
const TENANT = '7d3e1b2a-5c4f-4e6d-8a9b-1c2d3e4f5a6b';

function problems(config: State) {
  return validateConfig(kind, config, ADDRESS);
}

describe('tenantform_agent_update_settings validation', () => {
  const base = { update_channel: 'STABLE', automatic: true };

  it('accepts an agent target and a tenant target with a window', () => {
    expect(problems({ ...base, agent_id: AGENT })).toEqual([]);
    const window = { time_from: '01:00:00', time_to: '23:59:59', days_of_week: ['MONDAY', 'SUNDAY'] };
    expect(problems({ ...base, tenant_id: TENANT, maintenance_window: window })).toEqual([]);
  });

  it('needs one of agent_id and tenant_id', () => {
    const [p, ...rest] = problems(base);
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ code: 'exactly_one_of', address: ADDRESS, path: ['agent_id'] });
  });

  it('refuses both agent_id and tenant_id', () => {
    const [p, ...rest] = problems({ ...base, agent_id: AGENT, tenant_id: TENANT });
    expect(rest).toEqual([]);
    expect(p).toMatchObject({ code: 'exactly_one_of', address: ADDRESS, path: ['tenant_id'], found: 'agent_id and tenant_id' });
  });

  it('checks the target ids are uuids', () => {
    expect(problems({ ...base, agent_id: 'agent-1' })).toMatchObject([{ address: ADDRESS, path: ['agent_id'] }]);
  });

  it('checks the update channel', () => {
    expect(problems({ ...base, agent_id: AGENT, update_channel: 'BETA' })).toMatchObject([
      { address: ADDRESS, path: ['update_channel'], expected: '`CURRENT` or `STABLE`', found: '"BETA"' },
    ]);
  });

  it('checks times are HH:MM:SS', () => {
    const window = { time_from: '1:00', time_to: '24:00:00', days_of_week: ['MONDAY'] };
    expect(problems({ ...base, agent_id: AGENT, maintenance_window: window })).toMatchObject([
      { address: ADDRESS, path: ['maintenance_window', 'time_from'], found: '"1:00"' },
      { address: ADDRESS, path: ['maintenance_window', 'time_to'], found: '"24:00:00"' },
    ]);
  });

  it('checks day names', () => {
    const window = { time_from: '01:00:00', time_to: '02:00:00', days_of_week: ['MONDAY', 'monday', 'FUNDAY'] };
    expect(problems({ ...base, agent_id: AGENT, maintenance_window: window })).toMatchObject([
      { address: ADDRESS, path: ['maintenance_window', 'days_of_week', 1] },
      { address: ADDRESS, path: ['maintenance_window', 'days_of_week', 2] },
    ]);
  });

  it('refuses repeated days', () => {
    const window = { time_from: '01:00:00', time_to: '02:00:00', days_of_week: ['MONDAY', 'TUESDAY', 'MONDAY'] };
    expect(problems({ ...base, agent_id: AGENT, maintenance_window: window })).toMatchObject([
      { code: 'duplicate', address: ADDRESS, path: ['maintenance_window', 'days_of_week', 2] },
    ]);
  });

  it('needs 1 to 7 days', () => {
    const window = { time_from: '01:00:00', time_to: '02:00:00', days_of_week: [] };
    expect(problems({ ...base, agent_id: AGENT, maintenance_window: window })).toMatchObject([
      { code: 'list_size', address: ADDRESS, path: ['maintenance_window', 'days_of_week'] },
    ]);
  });

  it('parses both import id forms', () => {
    expect(kind.importId.parse(`agent/${AGENT}`)).toEqual({ id: `agent/${AGENT}`, agent_id: AGENT });
    expect(kind.importId.parse(`tenant/${TENANT}`)).toEqual({ id: `tenant/${TENANT}`, tenant_id: TENANT });
    expect(kind.importId.parse(`user/${TENANT}`)).toBeUndefined();
    expect(kind.importId.parse('agent/x')).toBeUndefined();
  });
});

describe('tenantform_agent_update_settings against the emulator', () => {
  let emulator: RunningEmulator;
  let client: PlatformClient;
  let ctx: OperationContext;
  const events: ClientEvent[] = [];
  let acme: string;
  let acmeAgents: string[];
  let initech: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: 1 });
    client = new PlatformClient({
      baseUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      onEvent: (e) => events.push(e),
    });
    ctx = { client };
    const world = emulator.world();
    acme = world.tenants['Acme Manufacturing'].id;
    initech = world.tenants['Initech Finance'].id;
    acmeAgents = world.agents['Acme Manufacturing'];
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  /** Plans a create from configuration and applies it. */
  async function create(config: State) {
    expect(problems(config)).toEqual([]);
    const plan = await planResource({ kind, address: ADDRESS, config, prior: null });
    expect(plan.action).toBe('create');
    const r = await createResource({ kind, address: ADDRESS, ctx, planned: plan.planned! });
    expect(r.diagnostics).toEqual([]);
    return stateOf(kind, r.value);
  }

  async function read(state: State): Promise<State | null> {
    const r = await readResource({ kind, address: ADDRESS, ctx, state });
    expect(r.diagnostics).toEqual([]);
    return r.value ?? null;
  }

  async function update(prior: State, config: State) {
    const plan = await planResource({ kind, address: ADDRESS, config, prior });
    expect(plan.action).toBe('update');
    const r = await updateResource({ kind, address: ADDRESS, ctx, prior, planned: plan.planned! });
    expect(r.diagnostics).toEqual([]);
    return stateOf(kind, r.value);
  }

  async function remove(prior: State): Promise<void> {
    expect((await planResource({ kind, address: ADDRESS, config: null, prior })).action).toBe('delete');
    expect((await deleteResource({ kind, address: ADDRESS, ctx, prior })).diagnostics).toEqual([]);
  }

  const window = { time_from: '01:00:00', time_to: '05:00:00', days_of_week: ['SATURDAY', 'SUNDAY'] };

  it("manages an agent's own settings, which fall back to the tenant's master settings once deleted", async () => {
    const agent = acmeAgents[0];
    const config = { agent_id: agent, update_channel: 'CURRENT', automatic: false, maintenance_window: window };
    const created = await create(config);
    const expected = { id: `agent/${agent}`, tenant_id: null, ...config };
    expect(created).toEqual(expected);
    expect(await read(created)).toEqual(expected);
    expect((await planResource({ kind, address: ADDRESS, config, prior: created })).action).toBe('no-op');

    const config2 = { agent_id: agent, update_channel: 'STABLE', automatic: true };
    const updated = await update(created, config2);
    const expected2 = { id: `agent/${agent}`, tenant_id: null, maintenance_window: null, ...config2 };
    expect(updated).toEqual(expected2);
    expect(await read(updated)).toEqual(expected2);

    await remove(updated);
    // The platform now answers with the master settings that apply to the agent's tenant, marked
    // as inherited. They hold the very values of config2, yet the agent's own settings are gone:
    // still declared, they are created again.
    const live = await client.getAgentUpdateSettings(agent, { master: false });
    expect(live).toMatchObject({ update_channel: 'STABLE', automatic: true, inherited_from_tenant_id: expect.any(String) });
    expect(await read(updated)).toBeNull();
    expect((await planResource({ kind, address: ADDRESS, config: config2, prior: null })).action).toBe('create');

    const imported = await importResource({ kind, address: ADDRESS, ctx, id: `agent/${agent}` });
    expect(imported.diagnostics).toEqual([expect.objectContaining({ code: 'import_not_found' })]);
  });

  it("manages a tenant's master settings, which fall back to the nearest ancestor's once deleted", async () => {
    const config = { tenant_id: acme, update_channel: 'CURRENT', automatic: true, maintenance_window: window };
    const created = await create(config);
    const expected = { id: `tenant/${acme}`, agent_id: null, ...config };
    expect(created).toEqual(expected);
    expect(await read(created)).toEqual(expected);

    // The tenant's agents without own settings now resolve to these settings.
    const agentView = await client.getAgentUpdateSettings(acmeAgents[1], { master: false });
    expect(agentView).toMatchObject({ agent_id: acmeAgents[1], update_channel: 'CURRENT', automatic: true });

    const config2 = { ...config, automatic: false, maintenance_window: { ...window, days_of_week: ['WEDNESDAY'] } };
    const updated = await update(created, config2);
    expect(updated).toEqual({ ...expected, ...config2 });
    expect(await read(updated)).toEqual({ ...expected, ...config2 });

    const imported = await importResource({ kind, address: ADDRESS, ctx, id: `tenant/${acme}` });
    expect(imported.value).toEqual({ ...expected, ...config2 });

    await remove(updated);
    // The platform substitutes the root's settings, carrying the requested tenant id and where
    // they are inherited from: the tenant's own settings are gone.
    expect(await client.getAgentUpdateSettings(acme, { master: true })).toMatchObject({
      tenant_id: acme,
      update_channel: 'STABLE',
      automatic: true,
      inherited_from_tenant_id: expect.any(String),
    });
    expect(await read(updated)).toBeNull();
  });

  it('reads nothing behind a visibility barrier, where no substitute is searched', async () => {
    const state = { id: `tenant/${initech}`, agent_id: null, tenant_id: initech, update_channel: 'STABLE', automatic: true, maintenance_window: null };
    expect(await read(state)).toBeNull();
    const imported = await importResource({ kind, address: ADDRESS, ctx, id: `tenant/${initech}` });
    expect(imported.value).toBeUndefined();
    expect(imported.diagnostics).toMatchObject([{ severity: 'error', code: 'import_not_found', address: ADDRESS }]);
  });

  it('sends several targets in one request', async () => {
    const planned: State[] = [
      { agent_id: acmeAgents[2], tenant_id: null, update_channel: 'CURRENT', automatic: false, maintenance_window: window },
      { agent_id: null, tenant_id: initech, update_channel: 'CURRENT', automatic: true, maintenance_window: null },
    ];
    events.length = 0;
    const states = await kind.writeBatch!.write(ctx, planned);
    const puts = events.filter((e) => e.method === 'PUT' && e.endpoint.endsWith('/agent_update_settings'));
    expect(puts).toHaveLength(1);
    expect(states.map((s) => s.id)).toEqual([`agent/${acmeAgents[2]}`, `tenant/${initech}`]);
    for (const s of states) expect(await read(s)).toEqual(s);
    for (const s of states) await remove(s);
  });

  it('refuses a batch naming the same target twice, before sending anything', async () => {
    const one = { agent_id: null, tenant_id: acme, update_channel: 'CURRENT', automatic: true, maintenance_window: null };
    await expect(kind.writeBatch!.write(ctx, [one, { ...one, automatic: false }])).rejects.toThrow(`tenant/${acme}`);
  });
});
