/**
 * A sensitive value never becomes a key: not of an output's map (the output must be marked
 * sensitive), not of a for_each (its keys are addresses, printed everywhere).
 * Each folder is planned by tenantform and by the real terraform, which must agree.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, startWorld, type World } from '../cli/helpers';
import { requireTerraform } from '../provider/helpers';

const SECRET = 'hunter2-very-secret';

const CASES: ReadonlyArray<{ name: string; main: string; refused: RegExp | undefined }> = [
  { name: 'output-key', main: 'output "m" {\n  value = { for c in [var.pw] : c => 1 }\n}\n', refused: /Output refers to sensitive values/ },
  { name: 'output-key-marked', main: 'output "m" {\n  value     = { for c in [var.pw] : c => 1 }\n  sensitive = true\n}\n', refused: undefined },
  { name: 'for-each-set', main: 'module "m" {\n  source   = "./m"\n  for_each = toset([var.pw])\n}\n', refused: /for_each/ },
  { name: 'for-each-map-values', main: 'module "m" {\n  source   = "./m"\n  for_each = { a = var.pw }\n}\n', refused: undefined },
  // Terraform takes a count derived from a sensitive value: only how many is told.
  { name: 'count', main: 'module "m" {\n  source = "./m"\n  count  = length(var.pw)\n}\n', refused: undefined },
];

describe('sensitive values as keys', () => {
  let world: World;
  beforeAll(async () => {
    requireTerraform();
    world = await startWorld();
  });
  afterAll(() => world.close());

  it.each(CASES)('$name: tenantform and terraform agree, and the secret is never printed', async ({ name, main, refused }) => {
    const dir = join(world.dir, name);
    mkdirSync(join(dir, 'm'), { recursive: true });
    writeFileSync(join(dir, 'm', 'main.tf'), '');
    writeFileSync(join(dir, 'variables.tf'), `variable "pw" {\n  type      = string\n  sensitive = true\n  default   = "${SECRET}"\n}\n`);
    writeFileSync(join(dir, 'main.tf'), main);
    writeFileSync(join(world.dir, 'cli.tfrc'), '');
    const env = { PATH: process.env.PATH, TF_CLI_CONFIG_FILE: join(world.dir, 'cli.tfrc'), CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' };
    const terraform = (...args: string[]) => spawnSync('terraform', [...args, '-input=false', '-no-color'], { cwd: dir, env, encoding: 'utf8' });
    expect(terraform('init').status).toBe(0);
    const theirs = terraform('plan');
    const ours = await run(world, ['plan', '--config', dir, '--state', join(dir, 'tenantform.tfstate')]);
    expect({ name, refused: ours.code === 1 }).toEqual({ name, refused: theirs.status === 1 });
    expect(theirs.status).toBe(refused ? 1 : 0);
    if (refused) expect(ours.stdout + ours.stderr).toMatch(refused);
    expect(ours.stdout + ours.stderr).not.toContain(SECRET);
  });
});
