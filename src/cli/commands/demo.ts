import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { PlatformClient } from '../../api';
import type { RunningEmulator } from '../../emulator';
import { packageRoot } from '../../package-root';

const STACK = 'msp-onboarding';

interface Step {
  readonly title: string;
  readonly command: string;
  readonly args: string[];
  /** Exit codes that mean the step did what it should. */
  readonly expect: number[];
}

/**
 * `tenantform demo` (run by `npm start`): the whole flow against the emulator — plan,
 * apply (a new customer onboarded among the rest), changes made outside tenantform, their
 * detection and repair, an empty plan.
 */
export const demoCommand: CommandModule = {
  command: 'demo',
  describe: 'Run the whole flow on the emulator: synth, plan, apply, an outside change, repair, empty plan',
  handler: async () => {
    // The demo runs the example of a checkout of tenantform, found when the command runs.
    const root = packageRoot();
    const cli = join(root, 'bin/tenantform.js');
    const work = mkdtempSync(join(tmpdir(), 'tenantform-demo-'));
    // Loaded here: every other command starts without the emulator.
    const { startEmulator } = await import('../../emulator');
    const emulator = await startEmulator({ port: 0, seed: 1 });
    const env = {
      ...process.env,
      TENANTFORM_BASE_URL: emulator.url,
      TENANTFORM_CLIENT_ID: emulator.clientId,
      TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
      CHECKPOINT_DISABLE: '1',
    };
    const out = join(work, 'cdktf.out');
    const state = join(work, `terraform.${STACK}.tfstate`);
    const where = ['--config', join(out, 'stacks', STACK, 'cdk.tf.json'), '--state', state];
    const tenantform = (title: string, args: string[], expect: number[]): Step => ({
      title,
      command: process.execPath,
      args: [cli, ...args, ...where],
      expect,
    });
    try {
      banner(`Emulator on ${emulator.url}`);
      await run({ title: 'Synthesize examples/msp-onboarding', command: 'npx', args: ['cdktf', 'synth', '--output', out], expect: [0] }, env, root);
      await run(tenantform('Plan', ['plan', '--detailed-exitcode'], [2]), env, root);
      await run(tenantform('Apply', ['apply', '--auto-approve'], [0]), env, root);
      banner('An administrator changes a setting, the DR site and the new customer in the console');
      await changeOutsideTenantform(emulator);
      await run(tenantform('Plan: the change outside tenantform, and its repair', ['plan', '--detailed-exitcode'], [2]), env, root);
      await run(tenantform('Apply the repair', ['apply', '--auto-approve'], [0]), env, root);
      await run(tenantform('Plan: nothing left to do', ['plan', '--detailed-exitcode'], [0]), env, root);
      banner('Done: the platform matches the configuration.');
    } catch (err) {
      process.stderr.write(`\nThe demo stopped: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    } finally {
      await emulator.close();
      rmSync(work, { recursive: true, force: true });
    }
  },
};

function banner(text: string): void {
  process.stdout.write(`\n=== ${text}\n`);
}

function run(step: Step, env: NodeJS.ProcessEnv, cwd: string): Promise<void> {
  banner(step.title);
  return new Promise((resolve, reject) => {
    const child = spawn(step.command, step.args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== null && step.expect.includes(code)) resolve();
      else reject(new Error(`${step.title} exited with ${code}, expected ${step.expect.join(' or ')}`));
    });
  });
}

/** What a console administrator would do: through the API, not through tenantform. */
async function changeOutsideTenantform(emulator: RunningEmulator): Promise<void> {
  const world = emulator.world();
  const client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  try {
    const backup = world.applications.backup.id;
    const acme = world.tenants['Acme Manufacturing'].id;
    await client.putSetting(backup, acme, 'retention_days', { value: 30, lock: false, exclusive: false });
    process.stdout.write('  retention_days of Acme Manufacturing set to 30 (declared: 90)\n');
    const partner = world.tenants['Northwind Partner'].id;
    const [site] = await client.getInfra(await client.listTenantInfra(partner));
    await client.updateInfra(site.id, {
      name: site.name,
      location_id: site.location_id,
      url: 'https://dr-old.northwind.example',
      capabilities: site.capabilities,
      backend_type: site.backend_type,
      version: site.version,
    });
    process.stdout.write(`  ${site.name}: url changed to https://dr-old.northwind.example\n`);
    const [contoso] = (await client.getTenants({ parentId: partner, lod: 'basic' })).filter((t) => t.name === 'Contoso');
    await client.updateTenant(contoso.id, { version: contoso.version ?? 1, name: 'Contoso (renamed in the console)' });
    process.stdout.write('  Contoso renamed to "Contoso (renamed in the console)"\n');
  } finally {
    await client.close();
  }
}
