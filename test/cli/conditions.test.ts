/**
 * A resource's `lifecycle` preconditions and postconditions on the native path: a false one is
 * an error with its message, before anything is sent (precondition, postcondition on the planned
 * object), or after apply on the object as created (`self`), which stays recorded. The real
 * `terraform` with tenantform's provider plans the same configuration the same way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORACLE_STATE, REQUIRED_PROVIDERS, startOracle, type Oracle } from '../helpers/oracle';
import { configWith, infra, writeConfig, type World } from './helpers';

jest.setTimeout(180_000);

describe('lifecycle preconditions and postconditions', () => {
  let world: World;
  let oracle: Oracle;
  const infraWrites = (from: number) => world.requests.slice(from).filter((l) => /^(POST|PUT|DELETE) \/api\/2\/infra/.test(l));
  const config = (lifecycle: Record<string, unknown>, allowed = true) => ({
    ...configWith({ tenantform_infra_component: { site: { ...infra('Conditioned Site'), lifecycle } } }),
    terraform: REQUIRED_PROVIDERS,
    variable: { allowed: { type: 'bool', default: allowed } },
  });

  beforeAll(async () => {
    oracle = await startOracle('conditions', config({}));
    world = oracle.world;
  });
  afterAll(() => world.close());

  it('a false precondition, or a postcondition false on the planned object, fails the plan on both paths; nothing is sent', async () => {
    for (const [lifecycle, summary, message] of [
      [
        { precondition: { condition: '${var.allowed}', error_message: 'Sites are not allowed (allowed = ${var.allowed}).' } },
        'Resource precondition failed',
        'Sites are not allowed (allowed = false).',
      ],
      [
        { postcondition: [{ condition: '${self.name == "Expected Name"}', error_message: 'The site is named ${self.name}.' }] },
        'Resource postcondition failed',
        'The site is named Conditioned Site.',
      ],
    ] as const) {
      writeConfig(world, config(lifecycle, false));
      const before = world.requests.length;
      const native = await oracle.tenantform('plan');
      const viaTerraform = await oracle.terraform('plan');
      for (const text of [native.stdout + native.stderr, viaTerraform.output]) {
        expect(text).toContain(summary);
        expect(text).toContain(message);
      }
      expect(native.code).toBe(1);
      expect(viaTerraform.code).toBe(1);
      expect(infraWrites(before)).toEqual([]);
    }
  });

  it('a postcondition on a value known only after apply is checked after the create: the object stays recorded, the apply fails', async () => {
    writeConfig(world, config({ postcondition: { condition: '${self.version > 100}', error_message: 'The site is at version ${self.version}.' } }));
    const planned = await oracle.tenantform('plan');
    expect(planned.code).toBe(0);
    const applied = await oracle.tenantform('apply', '--auto-approve');
    expect(applied.code).toBe(1);
    expect(applied.stdout + applied.stderr).toContain('Resource postcondition failed');
    expect(applied.stdout + applied.stderr).toContain('The site is at version 1.');
    const state = JSON.parse(readFileSync(join(world.dir, ORACLE_STATE), 'utf8')) as { resources: Array<{ name: string; mode: string }> };
    expect(state.resources.filter((r) => r.mode === 'managed').map((r) => r.name)).toEqual(['site']);

    // The condition met: the next plan has nothing to create, and both tools plan no change.
    writeConfig(world, config({ postcondition: { condition: '${self.version >= 1}', error_message: 'No version.' } }));
    expect((await oracle.tenantform('plan', '--detailed-exitcode')).code).toBe(0);
    expect((await oracle.terraform('plan', '-detailed-exitcode')).code).toBe(0);
  });
});
