/**
 * `cdktf deploy` and `cdktf destroy` themselves (the real cdktf CLI, which synthesizes the
 * example app and runs Terraform), with tenantform's provider from a filesystem mirror.
 * `--skip-provider-lock` on the first deploy: without a lock file cdktf asks the public registry
 * for lock-file checksums; once the stack's folder has one, the flag is not needed.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { startEmulator } from '../../src/emulator';
import { ensureBuilt, leftoverProviders, requireTerraform, ROOT, run, terraformEnvironment } from './helpers';

jest.setTimeout(240_000);

const STATE = join(ROOT, 'terraform.msp-onboarding.tfstate');
const markerValue = `cdktf-deploy-${process.pid}-${Date.now()}`;
let emulator: Awaited<ReturnType<typeof startEmulator>>;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  emulator = await startEmulator({ port: 0, seed: 23 });
  dir = mkdtempSync(join(tmpdir(), 'tenantform-cdktf-deploy-'));
  // cdktf runs npx and node itself, so it keeps the whole environment (and its own HOME).
  env = { ...process.env, ...(await terraformEnvironment(dir, emulator, markerValue)), HOME: process.env.HOME, CI: '1' };
});

afterAll(async () => {
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  for (const f of [STATE, `${STATE}.backup`]) rmSync(f, { force: true });
});

async function cdktf(verb: 'deploy' | 'destroy', flags = ['--skip-provider-lock']): Promise<string> {
  const r = await run(join(ROOT, 'node_modules', '.bin', 'cdktf'), [verb, '--auto-approve', ...flags, '--output', join(dir, 'cdktf.out')], { cwd: ROOT, env });
  expect(await leftoverProviders(markerValue)).toEqual([]);
  expect(r.output).not.toContain(emulator.clientSecret);
  if (r.code !== 0) throw new Error(`cdktf ${verb} exited with ${r.code}:\n${r.output}`);
  return r.output.replace(/\x1b\[[0-9;]*m/g, '');
}

test('cdktf deploy creates the example on the platform and cdktf destroy removes it', async () => {
  const world = emulator.world();
  const client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  try {
    const partner = world.tenants['Northwind Partner'].id;
    const acme = world.tenants['Acme Manufacturing'].id;
    const backup = world.applications.backup.id;

    expect(await cdktf('deploy')).toMatch(/Apply complete! Resources: 9 added, 0 changed, 0 destroyed\./);
    expect(existsSync(STATE)).toBe(true);
    expect(await client.listTenantApplications(acme)).toContain(backup);
    expect(await client.listTenantInfra(partner)).toHaveLength(1);
    expect(existsSync(join(dir, 'cdktf.out', 'stacks', 'msp-onboarding', '.terraform.lock.hcl'))).toBe(true);

    // The lock file the first deploy left holds tenantform: no registry is asked, nothing changes.
    expect(await cdktf('deploy', [])).toMatch(/No changes\. Your infrastructure matches the configuration\./);

    expect(await cdktf('destroy')).toMatch(/Destroy complete! Resources: 9 destroyed\./);
    expect(await client.listTenantApplications(acme)).not.toContain(backup);
    expect(await client.listTenantInfra(partner)).toHaveLength(0);
  } finally {
    await client.close();
  }
});
