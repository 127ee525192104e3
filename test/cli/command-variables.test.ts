/**
 * Every command that evaluates the configuration takes `--var` and `--var-file`, as terraform's
 * `-var` and `-var-file`: drift and import of a stack whose arguments come from a variable.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

describe('--var and --var-file on drift and import', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('drift and import evaluate the configuration with the variables given, as plan does', async () => {
    const file = writeConfig(
      world,
      { ...configWith({ tenantform_infra_component: { site: infra('${var.site_name}') } }), variable: { site_name: { type: 'string' } } },
      'variables.tf.json',
    );
    writeFileSync(join(world.dir, 'site.tfvars'), 'site_name = "Variable Site"\n');
    const at = ['--config', file, '--state', 'variables.tfstate'];
    expect((await run(world, ['apply', ...at, '--var', 'site_name=Variable Site', '--auto-approve'])).code).toBe(0);

    const drift = await run(world, ['drift', ...at, '--var-file', 'site.tfvars']);
    expect(drift.stderr).not.toMatch(/Unknown argument/);
    expect(drift.code).toBe(0);
    const withoutValue = await run(world, ['drift', ...at]);
    expect(withoutValue.code).toBe(1);
    expect(withoutValue.stderr).toContain('site_name');

    const shown = JSON.parse((await run(world, ['show', '--json', ...at])).stdout) as {
      values: { root_module: { resources: Array<{ address: string; values: { id: string } }> } };
    };
    const id = shown.values.root_module.resources.find((r) => r.address === 'tenantform_infra_component.site')!.values.id;
    expect((await run(world, ['state', 'rm', 'tenantform_infra_component.site', ...at])).code).toBe(0);
    const imported = await run(world, ['import', 'tenantform_infra_component.site', id, ...at, '--var', 'site_name=Variable Site']);
    expect(imported.stderr).not.toMatch(/Unknown argument/);
    expect(imported.code).toBe(0);
    expect((await run(world, ['plan', ...at, '--var-file', 'site.tfvars', '--detailed-exitcode'])).code).toBe(0);
  });
});
