/**
 * An MSP's account as it meets the platform: the API client on its partner tenant, customers
 * holding users made in the console (with the platform's default notifications) and the alerts the
 * platform raised. What exists there is exported, adopted by one apply, and then neither plan nor
 * drift finds anything to change: no perpetual diff on console-made objects.
 */
import { join } from 'node:path';
import { BACKUP_FAILED_TYPE, MSP_PARTNER } from '../../src/emulator/msp-account';
import { run, startWorld, type World } from './helpers';

describe("an MSP's account", () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld({ account: 'msp' });
  });
  afterAll(() => world.close());

  it("has its API client on its partner tenant, which sees its own subtree only, and the platform's alerts", async () => {
    expect(await world.client.ownTenantId()).toBe(world.tenant(MSP_PARTNER));
    const doctor = await run(world, ['doctor']);
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toContain(`"${MSP_PARTNER}" (${world.tenant(MSP_PARTNER)}), a partner tenant`);
    // Another partner's customer is out of its reach.
    await expect(world.client.getTenant(world.tenant('Umbrella Health'))).rejects.toMatchObject({ status: 404 });
    const alerts = await world.client.listAlerts({ type: BACKUP_FAILED_TYPE });
    expect(alerts.map((a) => a.tenant?.id).sort()).toEqual([world.tenant('Acme Manufacturing'), world.tenant('Globex Retail')].sort());
  });

  it('adopts what the console made by export and one apply; then plan and drift find nothing to change', async () => {
    const config = join(world.dir, 'estate.tf.json');
    const state = join(world.dir, 'estate.tfstate');
    const exported = await run(world, ['export', '--tenant', world.tenant(MSP_PARTNER), '--format', 'json', '--out', config, '--import-blocks']);
    expect(exported.code).toBe(0);
    const plan = await run(world, ['plan', '--config', config, '--state', state, '--detailed-exitcode']);
    expect(plan.stdout).toContain('tenantform_user.acme_manufacturing_user_acme_it will be imported');
    expect(plan.stdout).toMatch(/Plan: \d+ to import, 0 to add, 0 to change, 0 to destroy\./);
    const applied = await run(world, ['apply', '--config', config, '--state', state, '--auto-approve']);
    expect(applied.stdout).toMatch(/Apply complete! Resources: \d+ imported, 0 added, 0 changed, 0 destroyed\./);
    const again = await run(world, ['plan', '--config', config, '--state', state, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
    const drift = await run(world, ['drift', '--config', config, '--state', state]);
    expect(drift.code).toBe(0);
  });
});
