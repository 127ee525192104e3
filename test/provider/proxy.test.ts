/**
 * The provider under the real `terraform`, on a runner whose only way out is a forward proxy:
 * it reaches the platform through HTTPS_PROXY and trusts the platform's certificate through
 * SSL_CERT_FILE, as Terraform's own providers do; without the certificate, the plan names the
 * host and the variables that fix it. `platform.test` resolves nowhere but in the proxy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy';
import { createTestAuthority, type TestAuthority } from '../helpers/test-authority';
import { ensureBuilt, leftoverProviders, requireTerraform, run, type RunResult, terraformEnvironment, PROVIDER_HCL } from './helpers';

jest.setTimeout(180_000);

const MAIN_TF = `${PROVIDER_HCL}
data "tenantform_tenant" "northwind" {
  name = "Northwind Partner"
}

resource "tenantform_user" "proxied" {
  tenant_id = data.tenantform_tenant.northwind.id
  login     = "proxied-admin"
  email     = "proxied@northwind.example"
}
`;

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
let emulator: Emulator;
let proxy: ForwardProxy;
let authority: TestAuthority;
let dir: string;
let env: NodeJS.ProcessEnv;
const markerValue = `${process.pid}-${Date.now()}-proxy`;

async function terraform(extra: NodeJS.ProcessEnv, ...args: string[]): Promise<RunResult> {
  const r = await run('terraform', args, { cwd: dir, env: { ...env, ...extra } });
  expect(r.output).not.toContain(emulator.clientSecret);
  expect(await leftoverProviders(markerValue)).toEqual([]);
  return r;
}

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'tenantform-terraform-proxy-'));
  authority = createTestAuthority(dir, ['platform.test']);
  emulator = await startEmulator({ port: 0, seed: 12, tls: { key: authority.key, cert: authority.cert } });
  proxy = await startForwardProxy({ hosts: { 'platform.test:443': new URL(emulator.url).host } });
  env = {
    ...(await terraformEnvironment(dir, emulator, markerValue)),
    TENANTFORM_BASE_URL: 'https://platform.test',
    HTTPS_PROXY: proxy.url,
    TENANTFORM_RETRY_TIMEOUT: '0',
  };
  writeFileSync(join(dir, 'main.tf'), MAIN_TF);
  const init = await terraform({}, 'init', '-input=false', '-no-color');
  if (init.code !== 0) throw new Error(init.output);
});

afterAll(async () => {
  await proxy?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('terraform plan reaches the platform through HTTPS_PROXY, trusting the authority of SSL_CERT_FILE', async () => {
  proxy.forwarded.length = 0;
  const plan = await terraform({ SSL_CERT_FILE: authority.caFile, TF_LOG_PROVIDER: 'debug' }, 'plan', '-input=false', '-no-color');
  expect(plan.output).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
  expect(plan.code).toBe(0);
  // The provider's debug log, in Terraform's, names the proxy.
  expect(plan.output).toContain(`connections to https://platform.test go through the proxy ${proxy.url}`);
  expect(proxy.forwarded.length).toBeGreaterThan(0);
  expect(new Set(proxy.forwarded)).toEqual(new Set(['CONNECT platform.test:443']));
});

test('without the authority, terraform plan names the host and the variables that fix it', async () => {
  const plan = await terraform({}, 'plan', '-input=false', '-no-color');
  expect(plan.code).toBe(1);
  expect(plan.output).toContain('The certificate of platform.test is not trusted');
  expect(plan.output).toContain('signed by an authority this machine does not trust');
  expect(plan.output).toMatch(/SSL_CERT_FILE[\s\S]*SSL_CERT_DIR[\s\S]*NODE_EXTRA_CA_CERTS/);
});

test('with the host in NO_PROXY, the provider goes direct, where platform.test does not resolve', async () => {
  proxy.forwarded.length = 0;
  const plan = await terraform({ SSL_CERT_FILE: authority.caFile, NO_PROXY: 'platform.test' }, 'plan', '-input=false', '-no-color');
  expect(plan.code).toBe(1);
  expect(plan.output.replace(/\s+/g, ' ')).toContain("the base URL's host name platform.test does not resolve");
  expect(proxy.forwarded).toEqual([]);
});
