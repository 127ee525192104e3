/**
 * The example's whole life against the emulator — plan, apply, a change made in the console,
 * drift with its alert, repair, import, export and destroy — with every exchange checked against
 * the vendor's references by the contract layer (setup.ts), which fails this test on any request
 * the references would refuse or any answer they would not allow. It runs as the root's API client,
 * and as an MSP's account meets the platform: the client on its partner tenant, customers with
 * console-made users and alerts, versions the millisecond timestamps of each object's last change.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exchangeChannel, type Exchange } from '../../src/emulator';
import { DRIFT_ALERT_TYPE } from '../../src/drift/alert';
import { run, startWorld, synthesizeExample, type World } from '../cli/helpers';

describe.each([
  { account: 'root', versions: 'counters' },
  { account: 'msp', versions: 'timestamps' },
] as const)("the example's life on the $account's account", ({ account, versions }) => {
  let world: World;
  let config: string;
  const seen = new Set<string>();
  const observe = (message: unknown) => {
    const e = message as Exchange;
    if (String(e.headers['user-agent'] ?? '').startsWith('tenantform/')) seen.add(`${e.method} ${e.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}')}`);
  };

  beforeAll(async () => {
    world = await startWorld({ account, versions });
    config = synthesizeExample(world.dir);
    exchangeChannel.subscribe(observe);
  });
  afterAll(async () => {
    exchangeChannel.unsubscribe(observe);
    await world.close();
  });

  const where = () => ['--config', config, '--state', 'example.tfstate'];
  const tenantform = async (args: string[], expected: number) => {
    const r = await run(world, [...args, ...where()]);
    if (r.code !== expected) throw new Error(`tenantform ${args.join(' ')} exited ${r.code}, expected ${expected}:\n${r.stdout}\n${r.stderr}`);
    return r;
  };

  test('plan, apply, drift with its alert, repair, import, export and destroy speak only the published contract', async () => {
    await tenantform(['plan', '--detailed-exitcode'], 2);
    await tenantform(['apply', '--auto-approve'], 0);
    await tenantform(['plan', '--detailed-exitcode'], 0);
    const recorded = (
      JSON.parse(readFileSync(join(world.dir, 'example.tfstate'), 'utf8')).resources as Array<{ instances: Array<{ attributes: { version?: unknown } }> }>
    )
      .flatMap((r) => r.instances.map((i) => i.attributes.version))
      .filter((v): v is number => typeof v === 'number');
    expect(recorded.length).toBeGreaterThan(3);
    for (const v of recorded) expect(v > 1_500_000_000_000).toBe(versions === 'timestamps');

    // An administrator changes a setting in the console: drift, with its alert.
    const backup = world.application('backup');
    const acme = world.tenant('Acme Manufacturing');
    await world.client.putSetting(backup, acme, 'retention_days', { value: 30, lock: false, exclusive: false });
    const drift = await tenantform(['drift', '--format=json', '--alert'], 2);
    expect(drift.stdout).toContain('tenantform_tenant_setting.acme_retention');
    expect((await world.client.listAlerts({ type: DRIFT_ALERT_TYPE })).length).toBe(1);
    await tenantform(['apply', '--auto-approve'], 0);
    await tenantform(['drift', '--alert'], 0);
    expect(await world.client.listAlerts({ type: DRIFT_ALERT_TYPE })).toEqual([]);

    // Forget the DR site, then adopt it again.
    const state = JSON.parse(readFileSync(join(world.dir, 'example.tfstate'), 'utf8'));
    const site = state.resources.find((r: { name: string }) => r.name === 'northwind_dr_site').instances[0].attributes.id as string;
    await tenantform(['state', 'rm', 'tenantform_infra_component.northwind_dr_site'], 0);
    await tenantform(['import', 'tenantform_infra_component.northwind_dr_site', site], 0);
    await tenantform(['plan', '--detailed-exitcode'], 0);

    const exported = await run(world, ['export', '--tenant', world.tenant('Northwind Partner'), '--setting', 'retention_days', '--setting', 'backup_window']);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('northwind_partner');

    await tenantform(['destroy', '--auto-approve'], 0);

    // The life touched every area of the platform the example uses.
    for (const operation of [
      'POST /api/2/tenants',
      'PUT /api/2/tenants/{id}/offering_items',
      'POST /api/2/users',
      'PUT /api/2/users/{id}/access_policies',
      'POST /api/2/clients',
      'PUT /api/2/applications/{id}/settings/tenants/{id}/retention_days',
      'GET /api/2/locations/{id}/infra',
      'POST /api/alert_manager/v1/alerts',
      'DELETE /api/alert_manager/v1/alerts',
      'DELETE /api/2/tenants/{id}',
    ]) {
      expect([...seen]).toContain(operation);
    }
  }, 240_000);
});
