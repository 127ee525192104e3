import { ensureBuilt, requireTerraform, run as runCommand, terraformEnvironment, type RunResult } from '../provider/helpers';
import { run, startWorld, type World } from '../cli/helpers';

/** The emulator and a folder for the suite, with dist/ built for the CLI and the provider. */
export function withWorld(): { readonly world: World } {
  const holder = {} as { world: World };
  beforeAll(async () => {
    await ensureBuilt();
    holder.world = await startWorld();
  }, 120_000);
  afterAll(() => holder.world.close());
  return holder;
}

/** `terraform init` then `terraform plan -detailed-exitcode` in `dir`, through the provider from the mirror. */
export async function terraformPlan(world: World, dir: string, marker: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  requireTerraform();
  const tfEnv = { ...(await terraformEnvironment(world.dir, world.emulator, `${marker}-${process.pid}`)), ...env };
  const init = await runCommand('terraform', ['init', '-input=false', '-no-color'], { cwd: dir, env: tfEnv });
  if (init.code !== 0) throw new Error(`terraform init failed:\n${init.output}`);
  return runCommand('terraform', ['plan', '-detailed-exitcode', '-input=false', '-no-color', ...args], { cwd: dir, env: tfEnv });
}

/** A plan of a stack whose remote state's stack was never applied: refused, naming the data source and what to do, never the backend's secret. */
export async function expectOtherStackNotApplied(world: World, args: string[], secret: string): Promise<void> {
  const early = await run(world, ['plan', ...args]);
  expect(early.code).toBe(1);
  expect(early.stderr).toContain('data.terraform_remote_state.network');
  expect(early.stderr).toContain('apply the other stack first');
  expect(early.stderr).not.toContain(secret);
}
