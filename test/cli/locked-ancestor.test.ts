/**
 * A tenant setting whose own value is not in effect because an ancestor locked another value:
 * plan and drift say so, naming the ancestor, instead of "in sync".
 */
import { configWith, run, startWorld, writeConfig, type World } from './helpers';

describe('a setting locked above', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('is reported in plan and drift as a warning naming the ancestor', async () => {
    const backup = world.application('backup');
    const acme = world.tenant('Acme Manufacturing');
    const northwind = world.tenant('Northwind Partner');
    const file = writeConfig(
      world,
      configWith({ tenantform_tenant_setting: { retention: { application_id: backup, tenant_id: acme, name: 'retention_days', value: '30' } } }),
    );
    expect((await run(world, ['apply', '--auto-approve', '--config', file])).code).toBe(0);

    await world.client.putSetting(backup, northwind, 'retention_days', { value: 90, lock: true, exclusive: false });
    const expected = `ancestor tenant ${northwind} locked the setting, so its value 90 is in effect`;

    const plan = await run(world, ['plan', '--config', file]);
    expect(plan.code).toBe(0);
    expect(plan.stdout + plan.stderr).toContain('The declared value is not in effect');
    expect(plan.stdout + plan.stderr).toContain(expected);

    const drift = await run(world, ['drift', '--config', file]);
    expect(drift.stdout + drift.stderr).toContain(expected);
  });
});
