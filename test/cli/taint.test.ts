import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

/** A state entry marked tainted (`"status": "tainted"`, as `terraform taint` writes it) is replaced, as Terraform replaces it. */
describe('a tainted object', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('is planned for replacement, replaced on apply, and recorded untainted', async () => {
    const file = writeConfig(world, configWith({ tenantform_infra_component: { site: infra('Tainted Site') } }));
    expect((await run(world, ['apply', '--config', file, '--auto-approve'])).code).toBe(0);
    const statePath = join(world.dir, 'terraform.main.tfstate');
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    const block = state.resources.find((r: { name: string }) => r.name === 'site');
    const oldId = block.instances[0].attributes.id as string;
    block.instances[0].status = 'tainted';
    writeFileSync(statePath, JSON.stringify(state));

    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('# tenantform_infra_component.site is tainted, so must be replaced');
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
    const json = JSON.parse((await run(world, ['plan', '--config', file, '--format', 'json'])).stdout);
    expect(json.resource_changes[0]).toMatchObject({ address: 'tenantform_infra_component.site', action_reason: 'replace_because_tainted' });

    expect((await run(world, ['apply', '--config', file, '--auto-approve'])).code).toBe(0);
    const after = JSON.parse(readFileSync(statePath, 'utf8')).resources.find((r: { name: string }) => r.name === 'site').instances[0];
    expect(after.status).toBeUndefined();
    expect(after.attributes.id).not.toBe(oldId);
    expect(await world.client.getInfra([oldId]).catch((e: { status: number }) => e.status)).toBe(404);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
  });
});
