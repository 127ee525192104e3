/**
 * Objects without a version (tenant settings, agent update settings) against the emulator over
 * real HTTP: an update or delete planned before someone else's change is refused with the
 * message a version conflict gives, and the other change stays. This is the layer both the
 * reconciler and the Terraform provider call.
 */
import { PlatformClient } from '../api';
import { startEmulator } from '../emulator';
import type { ResourceKind, State } from './declaration';
import { agentUpdateSettings } from './kinds/agent-update-settings';
import { tenantSetting } from './kinds/tenant-setting';
import { createResource, deleteResource, readResource, updateResource } from './operations';
import { planResource } from './plan';

let emu: Awaited<ReturnType<typeof startEmulator>>;
let client: PlatformClient;
let ctx: { client: PlatformClient };

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 1 });
  client = new PlatformClient({ baseUrl: emu.url, clientId: emu.clientId, clientSecret: emu.clientSecret });
  ctx = { client };
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

async function made(kind: ResourceKind, address: string, config: State): Promise<State> {
  const created = await createResource({ kind, address, ctx, planned: (await planResource({ kind, address, config, prior: null })).planned! });
  expect(created.diagnostics).toEqual([]);
  return (await readResource({ kind, address, ctx, state: created.value! })).value!;
}

function expectRefused(r: { diagnostics: Array<{ code?: string; summary: string; detail: string }> }, address: string, attribute: string): void {
  expect(r.diagnostics).toHaveLength(1);
  expect(r.diagnostics[0]).toMatchObject({ code: 'version_conflict', summary: 'The object was changed by someone else' });
  expect(r.diagnostics[0].detail).toContain(`${address} changed on the platform after the plan was made (${attribute})`);
  expect(r.diagnostics[0].detail).toContain('Nothing was overwritten. Run `tenantform plan`');
}

it('a tenant setting changed by someone else after the plan is neither overwritten nor deleted', async () => {
  const world = emu.world();
  const backup = world.applications.backup.id;
  const acme = world.tenants['Acme Manufacturing'].id;
  const address = 'tenantform_tenant_setting.retention';
  const config = { application_id: backup, tenant_id: acme, name: 'retention_days', value: '30' };
  const seen = await made(tenantSetting, address, config);

  await client.putSetting(backup, acme, 'retention_days', { value: 45, lock: false, exclusive: false });
  const planned = (await planResource({ kind: tenantSetting, address, config: { ...config, value: '60' }, prior: seen })).planned!;
  expectRefused(await updateResource({ kind: tenantSetting, address, ctx, prior: seen, planned }), address, 'value');
  expectRefused(await deleteResource({ kind: tenantSetting, address, ctx, prior: seen }), address, 'value');
  expect((await client.getSetting(backup, acme, 'retention_days')).own).toMatchObject({ value: 45 });

  // Planned again, from what is there now: applied.
  const now = (await readResource({ kind: tenantSetting, address, ctx, state: seen })).value!;
  const again = (await planResource({ kind: tenantSetting, address, config: { ...config, value: '60' }, prior: now })).planned!;
  expect((await updateResource({ kind: tenantSetting, address, ctx, prior: now, planned: again })).diagnostics).toEqual([]);
  expect((await client.getSetting(backup, acme, 'retention_days')).own).toMatchObject({ value: 60 });
});

it("agent update settings: a colleague's maintenance window is not reset by an update that changes only the channel", async () => {
  const world = emu.world();
  const globex = world.tenants['Globex Retail'].id;
  const address = 'tenantform_agent_update_settings.globex';
  const window = { time_from: '01:00:00', time_to: '03:00:00', days_of_week: ['SUNDAY'] };
  const config = { tenant_id: globex, update_channel: 'CURRENT', automatic: true, maintenance_window: window };
  const seen = await made(agentUpdateSettings, address, config);

  const theirs = { time_from: '22:00:00', time_to: '23:00:00', days_of_week: ['FRIDAY'] };
  await client.putAgentUpdateSettings([{ tenant_id: globex, update_channel: 'CURRENT', automatic: true, maintenance_window: theirs }]);
  const planned = (await planResource({ kind: agentUpdateSettings, address, config: { ...config, update_channel: 'STABLE' }, prior: seen })).planned!;
  expectRefused(await updateResource({ kind: agentUpdateSettings, address, ctx, prior: seen, planned }), address, 'maintenance_window');
  expect(await client.getAgentUpdateSettings(globex, { master: true })).toMatchObject({ update_channel: 'CURRENT', maintenance_window: theirs });
});
