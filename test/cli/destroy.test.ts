import { join } from 'node:path';
import { discover } from '../../src/export/discover';
import { configWith, infra, run, runOnTerminal, startWorld, synthesizeExample, writeConfig, type World } from './helpers';

/** What the platform holds under Northwind, as `tenantform export` finds it. */
async function platformObjects(world: World): Promise<string[]> {
  const found = await discover(world.client, world.tenant('Northwind Partner'));
  return found.objects.map((o) => `${o.kind.type} ${o.importId}`).sort();
}

describe('tenantform destroy and plan -destroy', () => {
  let world: World;
  let where: string[];
  let untouched: string[];
  beforeAll(async () => {
    world = await startWorld();
    where = ['-config', synthesizeExample(world.dir), '-state', join(world.dir, 'example.tfstate')];
    untouched = await platformObjects(world);
  });
  afterAll(() => world.close());

  it('refuses at once when it would have to ask but -input=false forbids it', async () => {
    world.requests.length = 0;
    for (const command of ['apply', 'destroy']) {
      const r = await run(world, [command, ...where, '-input=false']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${command} needs approval, but -input=false forbids asking`);
      expect(r.stderr).toContain('-auto-approve');
      expect(r.stdout).toBe('');
    }
    expect(world.requests).toEqual([]);
  });

  it('refuses --refresh-only, which is apply’s and plan’s, and does not offer it in its help', async () => {
    const before = world.requests.length;
    const refused = await run(world, ['destroy', '--refresh-only', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('destroy takes no --refresh-only');
    expect(world.requests.length).toBe(before);
    expect((await run(world, ['destroy', '--help'])).stdout).not.toContain('refresh-only');
  });

  it('declining the apply prompt exits 1 with "Apply cancelled." and changes nothing', async () => {
    const r = await runOnTerminal(world, ['apply', ...where], 'no');
    expect(r.stdout).toContain(
      "Do you want to perform these actions?\n  tenantform will perform the actions described above.\n  Only 'yes' will be accepted to approve.",
    );
    expect(r.stdout).toContain('Apply cancelled.');
    expect(r.code).toBe(1);
    expect(await platformObjects(world)).toEqual(untouched);
  });

  it('answering yes applies', async () => {
    const r = await runOnTerminal(world, ['apply', ...where], 'yes');
    expect(r.stdout).toContain('Apply complete! Resources: 14 added, 0 changed, 0 destroyed.');
    expect(r.code).toBe(0);
    expect(await platformObjects(world)).not.toEqual(untouched);
  });

  it('plan -destroy shows every object destroyed', async () => {
    const r = await run(world, ['plan', ...where, '-destroy', '-detailed-exitcode']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('# tenantform_infra_component.northwind_dr_site will be destroyed');
    expect(r.stdout).not.toContain('not in configuration');
    expect(r.stdout).toContain('Plan: 0 to add, 0 to change, 14 to destroy.');
  });

  it('declining the destroy prompt exits 1 with "Destroy cancelled."', async () => {
    const before = await platformObjects(world);
    const r = await runOnTerminal(world, ['destroy', ...where], 'no');
    expect(r.stdout).toContain('Do you really want to destroy all resources?');
    expect(r.stdout).toContain('Destroy cancelled.');
    expect(r.code).toBe(1);
    expect(await platformObjects(world)).toEqual(before);
  });

  it('destroy -target destroys the target and what depends on it, nothing else', async () => {
    const r = await run(world, ['destroy', ...where, '-target=tenantform_application_binding.acme_backup', '-auto-approve']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Destroy complete! Resources: 3 destroyed.');
    for (const gone of [
      'tenantform_application_binding.acme_backup',
      'tenantform_tenant_setting.acme_retention',
      'tenantform_agent_update_settings.acme_agent_updates',
    ]) {
      expect(r.stdout).toContain(`# ${gone} will be destroyed`);
    }
    expect(r.stdout).not.toContain('northwind_dr_site');
    const plan = await run(world, ['plan', ...where, '-detailed-exitcode']);
    expect(plan.stdout).toContain('Plan: 3 to add, 0 to change, 0 to destroy.');
  });

  it('destroy -auto-approve leaves the platform as it was before the first apply', async () => {
    const r = await run(world, ['destroy', ...where, '-auto-approve']);
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Destroy complete! Resources: 11 destroyed.');
    expect(await platformObjects(world)).toEqual(untouched);
    const again = await run(world, ['destroy', ...where, '-auto-approve']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes. No objects need to be destroyed.');
  });

  it('plan -destroy -out=FILE, then apply FILE, destroys exactly what was reviewed', async () => {
    const file = writeConfig(world, configWith({ tenantform_infra_component: { reviewed: infra('Reviewed') } }), 'reviewed.tf.json');
    expect((await run(world, ['apply', '-config', file, '-auto-approve'])).code).toBe(0);
    const plan = await run(world, ['plan', '-config', file, '-destroy', '-out=destroy.plan', '-detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 1 to destroy.');
    const applied = await run(world, ['apply', '-config', file, 'destroy.plan']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Destroy complete! Resources: 1 destroyed.');
    const names = (await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')))).map((c) => c.name);
    expect(names).not.toContain('Reviewed');
  });

  it('honours prevent_destroy', async () => {
    const file = writeConfig(
      world,
      configWith({ tenantform_infra_component: { kept: { ...infra('Kept'), lifecycle: { prevent_destroy: true } }, other: infra('Other') } }),
      'kept.tf.json',
    );
    expect((await run(world, ['apply', '-config', file, '-auto-approve'])).code).toBe(0);
    const r = await run(world, ['destroy', '-config', file, '-auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('tenantform_infra_component.kept: The object is protected from destruction');
    const names = (await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')))).map((c) => c.name).sort();
    expect(names).toEqual(['Kept', 'Other']);
  });
});
