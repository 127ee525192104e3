import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { DRIFT_ALERT_TYPE } from '../../src/drift/alert';
import { ensureBuilt } from '../provider/helpers';
import { terraformPlan } from './helpers';
import { infra, run, startWorld, writeConfig, type World } from '../cli/helpers';

const PROVIDER = 'provider["registry.terraform.io/tenantform/tenantform"]';

/** Two emulators stand for two data centers: the default provider and `tenantform.us`. */
describe('several data centers in one stack', () => {
  let world: World;
  let us: RunningEmulator;
  let usClient: PlatformClient;
  let usTenant: string;
  beforeAll(async () => {
    await ensureBuilt();
    world = await startWorld();
    us = await startEmulator({ port: 0, seed: 11 });
    usClient = new PlatformClient({ baseUrl: us.url, clientId: us.clientId, clientSecret: us.clientSecret });
    usTenant = us.world().tenants['Northwind Partner'].id;
  }, 120_000);
  afterAll(async () => {
    await usClient.close();
    await us.close();
    await world.close();
  });

  const stack = (withUs: boolean) => ({
    terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } } },
    provider: {
      tenantform: [{}, { alias: 'us', base_url: us.url, client_id: us.clientId, client_secret: us.clientSecret }],
    },
    data: {
      tenantform_tenant: {
        northwind: { name: 'Northwind Partner' },
        northwind_us: { provider: 'tenantform.us', name: 'Northwind Partner' },
      },
    },
    resource: {
      tenantform_infra_component: {
        eu_site: infra('EU storage'),
        ...(withUs ? { us_site: { ...infra('US storage'), provider: 'tenantform.us', owner_tenant_id: '${data.tenantform_tenant.northwind_us.id}' } } : {}),
      },
    },
  });

  it('reads and creates each object in the data center of its provider, and records the provider as Terraform does', async () => {
    const dir = join(world.dir, 'two');
    mkdirSync(dir);
    writeConfig(world, stack(true), 'two/main.tf.json');
    const args = ['--config', 'two/main.tf.json', '--state', 'two/terraform.tfstate'];
    const apply = await run(world, ['apply', ...args, '--auto-approve']);
    expect(apply.stderr).not.toContain('Error');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('2 added');

    const usInfra = await usClient.getInfra(await usClient.listTenantInfra(usTenant));
    expect(usInfra.map((i) => i.name)).toEqual(['US storage']);
    const euInfra = await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')));
    expect(euInfra.map((i) => i.name)).toContain('EU storage');
    expect(euInfra.map((i) => i.name)).not.toContain('US storage');

    const state = JSON.parse(readFileSync(join(dir, 'terraform.tfstate'), 'utf8')) as { resources: Array<{ mode: string; name: string; provider: string }> };
    const providerOf = Object.fromEntries(state.resources.map((r) => [`${r.mode} ${r.name}`, r.provider]));
    expect(providerOf).toEqual({
      'data northwind': PROVIDER,
      'data northwind_us': `${PROVIDER}.us`,
      'managed eu_site': PROVIDER,
      'managed us_site': `${PROVIDER}.us`,
    });

    const again = await run(world, ['plan', ...args, '--detailed-exitcode']);
    expect(again.stdout + again.stderr).toContain('No changes');
    expect(again.code).toBe(0);

    // Terraform through the provider agrees: same objects, same providers, nothing to do.
    const tfPlan = await terraformPlan(world, dir, 'language-dc');
    expect(tfPlan.output).toContain('No changes');
    expect(tfPlan.code).toBe(0);

    // Removed from the configuration: deleted in its own data center, from the provider the state recorded.
    writeConfig(world, stack(false), 'two/main.tf.json');
    const remove = await run(world, ['apply', ...args, '--auto-approve']);
    expect(remove.code).toBe(0);
    expect(remove.stdout).toContain('1 destroyed');
    expect(await usClient.listTenantInfra(usTenant)).toEqual([]);
  }, 180_000);

  it('raises the drift alert in the data center of the drifted objects, and dismisses it there once in sync', async () => {
    mkdirSync(join(world.dir, 'alerts'));
    const config = stack(true);
    config.resource.tenantform_infra_component = {
      eu_site: infra('EU alert storage'),
      us_site: { ...infra('US alert storage'), provider: 'tenantform.us', owner_tenant_id: '${data.tenantform_tenant.northwind_us.id}' },
    };
    writeConfig(world, config, 'alerts/main.tf.json');
    const args = ['--config', 'alerts/main.tf.json', '--state', 'alerts/terraform.tfstate'];
    expect((await run(world, ['apply', ...args, '--auto-approve'])).code).toBe(0);
    const driftAlerts = async (client: PlatformClient) => (await client.listAlerts()).filter((a) => a.type === DRIFT_ALERT_TYPE && a.details?.stack === 'main');

    // Deleted by hand in the US data center only.
    const [usSite] = await usClient.getInfra(await usClient.listTenantInfra(usTenant));
    await usClient.deleteInfra(usSite.id, usSite.version);
    const drifted = await run(world, ['drift', ...args, '--alert']);
    expect(drifted.code).toBe(2);
    expect(drifted.stderr).not.toContain('Error');
    expect(drifted.stderr).toContain(`for tenant ${usTenant} (${us.url})`);
    expect(drifted.stderr.match(/Raised drift alert/g)).toHaveLength(1);
    const usAlerts = await driftAlerts(usClient);
    expect(usAlerts).toHaveLength(1);
    expect(usAlerts[0].details).toMatchObject({ drifted: ['tenantform_infra_component.us_site'], drifted_count: 1 });
    expect(await driftAlerts(world.client)).toEqual([]);

    // Created again: the US alert is dismissed, and the EU data center never had one.
    expect((await run(world, ['apply', ...args, '--auto-approve'])).code).toBe(0);
    const inSync = await run(world, ['drift', ...args, '--alert']);
    expect(inSync.code).toBe(0);
    expect(inSync.stderr).toContain(`dismissed drift alert ${usAlerts[0].id}`);
    expect(await driftAlerts(usClient)).toEqual([]);
    expect(await driftAlerts(world.client)).toEqual([]);
  }, 180_000);

  it('refuses a resource naming a provider that is not declared, before anything is sent', async () => {
    const config = stack(true);
    config.provider.tenantform = [{}];
    const file = writeConfig(world, config, 'undeclared.tf.json');
    const r = await run(world, ['plan', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tenantform_infra_component.us_site');
    expect(r.stderr).toContain('tenantform.us');
    expect(r.stderr).not.toContain(us.clientSecret);
  });
});
