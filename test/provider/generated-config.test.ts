/**
 * Adoption as a plain Terraform user does it, through the real `terraform`: import blocks and
 * `terraform plan -generate-config-out`. The generated configuration writes JSON values with
 * `jsonencode` (keys sorted); the imported state holds the same text, so the import applies
 * without a single write to the platform and the next plan is empty.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { startEmulator } from '../../src/emulator';
import { ensureBuilt, leftoverProviders, PROVIDER_HCL, requireTerraform, run, terraformEnvironment, type RunResult } from './helpers';

jest.setTimeout(180_000);

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
let emulator: Emulator;
let api: PlatformClient;
let dir: string;
let env: NodeJS.ProcessEnv;
const requests: string[] = [];
const marker = `${process.pid}-${Date.now()}-generated-config`;

async function terraform(...args: string[]): Promise<RunResult> {
  const r = await run('terraform', args, { cwd: dir, env });
  expect(await leftoverProviders(marker)).toEqual([]);
  return r;
}

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  emulator = await startEmulator({ port: 0, seed: 12, log: (line) => requests.push(line) });
  api = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  dir = mkdtempSync(join(tmpdir(), 'tenantform-generated-config-'));
  env = await terraformEnvironment(dir, emulator, marker);
});

afterAll(async () => {
  await api?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('objects made in the console are imported with generated configuration, without a write, and plan empty', async () => {
  const world = emulator.world();
  const tenant = world.tenants['Northwind Partner'].id;
  const backup = world.applications['backup'].id;
  // Written in the console with its keys in an order jsonencode does not use.
  await api.putSetting(backup, tenant, 'backup_window', { value: { start: '22:00', end: '04:00', note: 'nightly, ü' }, lock: false, exclusive: false });
  writeFileSync(
    join(dir, 'main.tf'),
    `${PROVIDER_HCL}
import {
  to = tenantform_tenant_setting.window
  id = "${backup}/${tenant}/backup_window"
}
`,
  );
  const init = await terraform('init', '-input=false', '-no-color');
  expect(init.code).toBe(0);
  const generated = await terraform('plan', '-input=false', '-no-color', '-generate-config-out=generated.tf');
  if (generated.code !== 0) throw new Error(generated.output);
  expect(generated.stdout).toContain('Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.');
  expect(readFileSync(join(dir, 'generated.tf'), 'utf8')).toMatch(/value\s+= jsonencode\(/);

  requests.length = 0;
  const apply = await terraform('apply', '-auto-approve', '-input=false', '-no-color');
  if (apply.code !== 0) throw new Error(apply.output);
  expect(apply.stdout).toContain('1 imported, 0 added, 0 changed, 0 destroyed.');
  expect(requests.filter((r) => /^(PUT|POST|PATCH|DELETE) /.test(r) && !r.includes('/idp/token'))).toEqual([]);

  const again = await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
  expect(again.stdout).toContain('No changes.');
  expect(again.code).toBe(0);
});
