/**
 * Checks the provider makes against the platform, driven by the real `terraform` binary: a
 * role on the wrong kind of a known tenant is refused by `terraform plan` before any write, and
 * importing an API client warns that its secret cannot be imported.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { startEmulator } from '../../src/emulator';
import { ensureBuilt, leftoverProviders, requireTerraform, run, type RunResult, terraformEnvironment, PROVIDER_HCL } from './helpers';

jest.setTimeout(180_000);

const mainTf = (roleId: string) => `${PROVIDER_HCL}
data "tenantform_tenant" "northwind" {
  name = "Northwind Partner"
}
data "tenantform_tenant" "globex" {
  name      = "Globex Retail"
  parent_id = data.tenantform_tenant.northwind.id
}

resource "tenantform_user" "admin" {
  tenant_id = data.tenantform_tenant.globex.id
  login     = "globex-admin"
  email     = "admin@globex.example"
}

resource "tenantform_user_roles" "admin" {
  user_id = tenantform_user.admin.id
  roles   = [{ tenant_id = data.tenantform_tenant.globex.id, role_id = "${roleId}" }]
}

resource "tenantform_api_client" "monitoring" {
  tenant_id = data.tenantform_tenant.globex.id
}
`;

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
let emulator: Emulator;
let api: PlatformClient;
let dir: string;
let env: NodeJS.ProcessEnv;
const requests: string[] = [];
const markerValue = `${process.pid}-${Date.now()}-plan-checks`;

async function terraform(...args: string[]): Promise<RunResult> {
  const r = await run('terraform', args, { cwd: dir, env });
  expect(r.output).not.toContain(emulator.clientSecret);
  expect(await leftoverProviders(markerValue)).toEqual([]);
  return r;
}

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  emulator = await startEmulator({ port: 0, seed: 12, log: (line) => requests.push(line) });
  api = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  dir = mkdtempSync(join(tmpdir(), 'tenantform-terraform-plan-checks-'));
  env = await terraformEnvironment(dir, emulator, markerValue);
  writeFileSync(join(dir, 'main.tf'), mainTf('partner_admin'));
  const init = await terraform('init', '-input=false', '-no-color');
  if (init.code !== 0) throw new Error(init.output);
});

afterAll(async () => {
  await api?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('terraform plan refuses a role on the wrong kind of tenant, before any write', async () => {
  requests.length = 0;
  const plan = await terraform('plan', '-input=false', '-no-color');
  expect(plan.code).toBe(1);
  expect(plan.output).toContain('partner_admin cannot be granted on a customer tenant');
  expect(plan.output).toContain('tenantform_user_roles.admin');
  expect(requests.filter((r) => !r.startsWith('GET') && !r.startsWith('POST /api/2/idp/token'))).toEqual([]);
});

test('terraform import of an API client warns that its secret cannot be imported', async () => {
  writeFileSync(join(dir, 'main.tf'), mainTf('company_admin'));
  const created = await api.createApiClient({ tenant_id: emulator.world().tenants['Globex Retail'].id });
  const imported = await terraform('import', '-input=false', '-no-color', 'tenantform_api_client.monitoring', created.client_id);
  expect(imported.code).toBe(0);
  expect(imported.output).toContain('The client secret cannot be imported');
  expect(imported.output).toContain('terraform apply -replace=tenantform_api_client.<name>');
  expect(imported.output).not.toContain('ADDRESS');
  expect(imported.output).not.toContain(created.client_secret);
});
