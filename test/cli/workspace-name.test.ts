/**
 * TF_WORKSPACE names a workspace, never a path: pointed at a neighbouring stack's folder, it is
 * refused before anything is read or written, as terraform refuses it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, type World } from './helpers';

describe('TF_WORKSPACE', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it("that climbs out of the workspace folder is refused: the neighbour's state is neither read nor written", async () => {
    const stack = (name: string) => {
      mkdirSync(join(world.dir, name), { recursive: true });
      const config = join(name, 'main.tf.json');
      writeFileSync(
        join(world.dir, config),
        JSON.stringify({
          ...configWith(name === 'victim' ? { tenantform_infra_component: { site: infra('Victim site') } } : {}),
          terraform: { backend: { local: {} } },
        }),
      );
      return config;
    };
    const victim = stack('victim');
    const attacker = stack('attacker');
    expect((await run(world, ['apply', '--config', victim, '--auto-approve'])).code).toBe(0);
    const victimState = readFileSync(join(world.dir, 'victim', 'terraform.tfstate'), 'utf8');

    world.requests.length = 0;
    const plan = await run(world, ['plan', '--config', attacker, '--detailed-exitcode'], { TF_WORKSPACE: '../../victim' });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('Invalid workspace name set using TF_WORKSPACE');
    expect(plan.stderr).toContain('TF_WORKSPACE="../../victim" is not a workspace name');
    expect(plan.stdout).not.toContain('destroy');
    expect(world.requests).toEqual([]);
    expect(readFileSync(join(world.dir, 'victim', 'terraform.tfstate'), 'utf8')).toBe(victimState);
    for (const name of ['..', '.', 'a/b', 'staging\\prod']) {
      expect((await run(world, ['workspace', 'show'], { TF_WORKSPACE: name })).stderr).toContain('is not a workspace name');
    }
    expect((await run(world, ['workspace', 'show'], { TF_WORKSPACE: 'eu-west.prod_2' })).stdout).toBe('eu-west.prod_2\n');
  });
});
