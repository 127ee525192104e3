/**
 * `show` and `state show` mask what the state records as sensitive: attributes sensitive by their
 * kind, and attributes given a value derived from a sensitive variable (sensitive_attributes).
 */
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

describe('show and state show', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('print "(sensitive value)" for an attribute built from a sensitive variable, as terraform does', async () => {
    const secret = 'Project Nightingale';
    const file = writeConfig(
      world,
      {
        ...configWith({ tenantform_infra_component: { hidden: infra('${var.codename} site') } }),
        variable: { codename: { type: 'string', sensitive: true, default: secret } },
      },
      'sensitive.tf.json',
    );
    const at = ['--config', file, '--state', 'sensitive.tfstate'];
    expect((await run(world, ['apply', ...at, '--auto-approve'])).code).toBe(0);
    for (const args of [['state', 'show', 'tenantform_infra_component.hidden'], ['show']]) {
      const shown = await run(world, [...args, ...at]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/name += \(sensitive value\)/);
      expect(shown.stdout).not.toContain(secret);
      // What is not derived from it is shown.
      expect(shown.stdout).toMatch(/url += "https:\/\//);
    }
  });
});
