/**
 * One stack that both tenantform and the real `terraform` (with tenantform's provider) plan: the
 * configuration in `main.tf.json` and the state in `terraform.tfstate` of a world's folder, for
 * tests that hold the native path to what Terraform does on the same files.
 */
import { ensureBuilt, requireTerraform, run as runProcess, terraformEnvironment, type RunResult } from '../provider/helpers';
import { run, startWorld, writeConfig, type CliResult, type World } from '../cli/helpers';

export const ORACLE_STATE = 'terraform.tfstate';

/** Declares the provider as terraform needs it to find tenantform's. */
export const REQUIRED_PROVIDERS = { required_providers: { tenantform: { source: 'tenantform/tenantform' } } };

export interface Oracle {
  readonly world: World;
  /** `terraform ARGS -input=false -no-color` in the world's folder. */
  terraform(...args: string[]): Promise<RunResult>;
  /** `tenantform ARGS --config main.tf.json --state terraform.tfstate`. */
  tenantform(...args: string[]): Promise<CliResult>;
}

/** A world whose folder terraform has initialized with `first` as its configuration. */
export async function startOracle(label: string, first: Record<string, unknown>): Promise<Oracle> {
  requireTerraform();
  await ensureBuilt();
  const world = await startWorld();
  const env = await terraformEnvironment(world.dir, world.emulator, `${label}-${process.pid}`);
  const oracle: Oracle = {
    world,
    terraform: (...args) => runProcess('terraform', [...args, '-input=false', '-no-color'], { cwd: world.dir, env }),
    tenantform: (...args) => run(world, [...args, '--config', 'main.tf.json', '--state', ORACLE_STATE]),
  };
  writeConfig(world, first);
  const init = await oracle.terraform('init');
  if (init.code !== 0) throw new Error(init.output);
  return oracle;
}
