/**
 * What `cdktf deploy` does with tenantform's provider: synthesize the example app, then run
 * Terraform in the stack's directory (its JSON configuration and local backend) with the
 * provider taken from the mirror.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator';
import { ensureBuilt, leftoverProviders, requireTerraform, ROOT, run, type RunResult, terraformEnvironment } from './helpers';

jest.setTimeout(120_000);

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let dir: string;
let stackDir: string;
let env: NodeJS.ProcessEnv;
const markerValue = `cdktf-${process.pid}-${Date.now()}`;

async function terraform(...args: string[]): Promise<RunResult> {
  const r = await run('terraform', [...args, '-input=false', '-no-color'], { cwd: stackDir, env });
  expect(await leftoverProviders(markerValue)).toEqual([]);
  expect(r.output).not.toContain(emulator.clientSecret);
  if (r.code !== 0 && r.code !== 2) throw new Error(`terraform ${args[0]} exited with ${r.code}:\n${r.output}`);
  return r;
}

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  emulator = await startEmulator({ port: 0, seed: 21 });
  dir = mkdtempSync(join(tmpdir(), 'tenantform-cdktf-'));
  // Synthesized from a directory of its own, so that the local backend's state lands there.
  const synth = await run(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'examples', 'msp-onboarding', 'main.ts')], {
    cwd: dir,
    env: { ...process.env, CDKTF_OUTDIR: join(dir, 'cdktf.out') },
  });
  if (synth.code !== 0) throw new Error(`synth failed:\n${synth.output}`);
  stackDir = join(dir, 'cdktf.out', 'stacks', 'msp-onboarding');
  env = await terraformEnvironment(dir, emulator, markerValue);
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the synthesized example stack deploys, is then unchanged, and destroys', async () => {
  expect(readFileSync(join(stackDir, 'cdk.tf.json'), 'utf8')).toContain('"local"');
  await terraform('init');
  const apply = await terraform('apply', '-auto-approve');
  expect(apply.stdout).toMatch(/Apply complete! Resources: \d+ added, 0 changed, 0 destroyed\./);
  expect(existsSync(join(dir, 'terraform.msp-onboarding.tfstate'))).toBe(true);

  const plan = await terraform('plan', '-detailed-exitcode');
  expect(plan.code).toBe(0);

  const destroy = await terraform('destroy', '-auto-approve');
  expect(destroy.stdout).toMatch(/Destroy complete! Resources: \d+ destroyed\./);
  expect(readFileSync(join(dir, 'terraform.msp-onboarding.tfstate'), 'utf8')).not.toContain(emulator.clientSecret);
});
