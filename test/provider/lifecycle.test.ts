/**
 * The tenant lifecycle kinds through the provider, driven by the real `terraform` binary:
 * a customer tenant, its offering items, its administrator with roles and an API client whose
 * secret becomes a sensitive output. Create (in trial), no-change plan, update in place with the
 * move to production (the date the platform records is planned unknown), replacement,
 * drift repair, import, the plan-time refusal of production to trial, destroy.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { isNotFound } from '../../src/api/errors';
import { startEmulator } from '../../src/emulator';
import { ensureBuilt, leftoverProviders, requireTerraform, run, type RunResult, terraformEnvironment, PROVIDER_HCL } from './helpers';

jest.setTimeout(180_000);

interface Knobs {
  tag?: string;
  quota?: number;
  authMethod?: string;
  pricing?: string;
}

function mainTf(k: Knobs = {}): string {
  return `${PROVIDER_HCL}
data "tenantform_current_client" "me" {}

data "tenantform_tenant" "northwind" {
  name = "Northwind Partner"
}
data "tenantform_application" "backup" {
  type = "backup"
}

resource "tenantform_tenant" "contoso" {
  parent_id    = data.tenantform_tenant.northwind.id
  kind         = "customer"
  name         = "Contoso"
  internal_tag = "${k.tag ?? 'silver'}"
  pricing_mode = "${k.pricing ?? 'production'}"
  contact = {
    email = "it@contoso.example"
    types = ["primary"]
  }
}

resource "tenantform_offering_items" "backup" {
  tenant_id      = tenantform_tenant.contoso.id
  application_id = data.tenantform_application.backup.id
  items          = [{ name = "storage", quota = { value = ${k.quota ?? 100}, overage = 10 } }]
}

resource "tenantform_user" "admin" {
  tenant_id = tenantform_tenant.contoso.id
  login     = "contoso-admin"
  email     = "admin@contoso.example"
}

resource "tenantform_user_roles" "admin" {
  user_id = tenantform_user.admin.id
  roles   = [{ tenant_id = tenantform_tenant.contoso.id, role_id = "company_admin" }]
}

resource "tenantform_api_client" "monitoring" {
  tenant_id                  = tenantform_tenant.contoso.id
  token_endpoint_auth_method = "${k.authMethod ?? 'client_secret_basic'}"
}

output "monitoring_secret" {
  value     = tenantform_api_client.monitoring.client_secret
  sensitive = true
}

output "operator_tenant" {
  value = data.tenantform_current_client.me.tenant_id
}
`;
}

type Emulator = Awaited<ReturnType<typeof startEmulator>>;
let emulator: Emulator;
let api: PlatformClient;
let dir: string;
let env: NodeJS.ProcessEnv;
const markerValue = `${process.pid}-${Date.now()}-lifecycle`;
const secrets: string[] = [];

async function terraform(...args: string[]): Promise<RunResult> {
  const r = await run('terraform', args, { cwd: dir, env });
  for (const s of [...secrets, emulator.clientSecret]) expect(r.output).not.toContain(s);
  expect(await leftoverProviders(markerValue)).toEqual([]);
  return r;
}

function expectOk(r: RunResult): void {
  if (r.code !== 0) throw new Error(`terraform exited with ${r.code}:\n${r.output}`);
}

function attributesOf(type: string, name: string, file = 'terraform.tfstate'): Record<string, any> {
  const st = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const r = st.resources.find((x: { type: string; name: string; mode: string }) => x.type === type && x.name === name && x.mode === 'managed');
  if (!r) throw new Error(`${type}.${name} is not in the state`);
  return r.instances[0].attributes;
}

const write = (k: Knobs = {}) => writeFileSync(join(dir, 'main.tf'), mainTf(k));
const apply = () => terraform('apply', '-auto-approve', '-input=false', '-no-color');

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  emulator = await startEmulator({ port: 0, seed: 12 });
  api = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  dir = mkdtempSync(join(tmpdir(), 'tenantform-terraform-lifecycle-'));
  env = await terraformEnvironment(dir, emulator, markerValue);
  write({ pricing: 'trial' });
  expectOk(await terraform('init', '-input=false', '-no-color'));
});

afterAll(async () => {
  await api?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('creates the whole customer; the secret is a sensitive output and works; the next plan is empty', async () => {
  const plan = await terraform('plan', '-input=false', '-no-color');
  expectOk(plan);
  expect(plan.stdout).toContain('Plan: 5 to add, 0 to change, 0 to destroy.');
  expect(plan.stdout).toMatch(/client_secret\s+= \(sensitive value\)/);
  expectOk(await apply());

  const client = attributesOf('tenantform_api_client', 'monitoring');
  secrets.push(client.client_secret);
  // Listed with the other outputs, the secret is masked (naming it alone prints it, as Terraform does).
  const shown = await terraform('output', '-no-color');
  expect(shown.stdout).toMatch(/monitoring_secret = <sensitive>/);
  const raw = await run('terraform', ['output', '-raw', 'monitoring_secret'], { cwd: dir, env });
  expect(raw.stdout).toBe(client.client_secret);
  const tool = new PlatformClient({ baseUrl: emulator.url, clientId: client.id, clientSecret: client.client_secret });
  try {
    expect(await tool.ownTenantId()).toBe(attributesOf('tenantform_tenant', 'contoso').id);
  } finally {
    await tool.close();
  }
  expect((await terraform('output', '-raw', 'operator_tenant')).stdout).toBe(emulator.tenantId);

  const again = await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
  expect(again.stdout).toContain('No changes.');
  expect(again.code).toBe(0);
});

test('updates the tenant (trial to production) and a quota in place, and replaces the API client', async () => {
  const before = attributesOf('tenantform_tenant', 'contoso');
  expect(before).toMatchObject({ pricing_mode: 'trial', production_start_date: null });
  write({ tag: 'gold', quota: 200, authMethod: 'client_secret_post' });
  const plan = await terraform('plan', '-input=false', '-no-color');
  expect(plan.stdout).toContain('Plan: 1 to add, 2 to change, 1 to destroy.');
  expect(plan.stdout).toMatch(/production_start_date\s+= \(known after apply\)/);
  expectOk(await apply());
  const after = attributesOf('tenantform_tenant', 'contoso');
  expect(after).toMatchObject({ id: before.id, internal_tag: 'gold', pricing_mode: 'production' });
  expect(after.production_start_date).toMatch(/^\d{4}-\d{2}-\d{2}/);
  expect(after.version).toBeGreaterThan(before.version);
  expect((await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color')).code).toBe(0);
  const items = await api.listOfferingItems(before.id);
  expect(items.find((i) => i.name === 'storage')?.quota).toMatchObject({ value: 200 });
  secrets.push(attributesOf('tenantform_api_client', 'monitoring').client_secret);
});

test('a console change is repaired; production back to trial is refused at plan time', async () => {
  const t = attributesOf('tenantform_tenant', 'contoso');
  const live = await api.getTenant(t.id);
  await api.updateTenant(t.id, { version: live.version!, name: 'Contoso (renamed in the console)' });
  const plan = await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
  expect(plan.code).toBe(2);
  expect(plan.stdout).toContain('Contoso (renamed in the console)');
  expectOk(await apply());
  expect((await api.getTenant(t.id)).name).toBe('Contoso');

  write({ tag: 'gold', quota: 200, authMethod: 'client_secret_post', pricing: 'trial' });
  const refused = await terraform('plan', '-input=false', '-no-color');
  expect(refused.code).toBe(1);
  expect(refused.output).toContain('cannot return to trial');
  write({ tag: 'gold', quota: 200, authMethod: 'client_secret_post' });
});

test('import adopts the tenant into a fresh state without changes; the client secret cannot be imported', async () => {
  const t = attributesOf('tenantform_tenant', 'contoso');
  const client = attributesOf('tenantform_api_client', 'monitoring');
  const r = await terraform('import', '-input=false', '-no-color', '-state=imported.tfstate', 'tenantform_tenant.contoso', t.id);
  expectOk(r);
  expect(attributesOf('tenantform_tenant', 'contoso', 'imported.tfstate')).toMatchObject({ id: t.id, name: 'Contoso', internal_tag: 'gold' });
  expectOk(await terraform('import', '-input=false', '-no-color', '-state=imported.tfstate', 'tenantform_api_client.monitoring', client.id));
  expect(attributesOf('tenantform_api_client', 'monitoring', 'imported.tfstate').client_secret).toBeNull();
});

test('destroy disables and deletes everything the configuration made', async () => {
  const ids = {
    tenant: attributesOf('tenantform_tenant', 'contoso').id,
    user: attributesOf('tenantform_user', 'admin').id,
    client: attributesOf('tenantform_api_client', 'monitoring').id,
  };
  expectOk(await terraform('destroy', '-auto-approve', '-input=false', '-no-color'));
  for (const read of [() => api.getTenant(ids.tenant), () => api.getUser(ids.user), () => api.getApiClient(ids.client)]) {
    const outcome = await read().then(
      () => 'still there',
      (err: unknown) => (isNotFound(err) ? 'gone' : String(err)),
    );
    expect(outcome).toBe('gone');
  }
});
