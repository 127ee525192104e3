/**
 * The provider driven by the real `terraform` binary, against an emulator in this process:
 * init from a filesystem mirror, create, no-change plan, update in place, replacement, drift
 * repair, a stale saved plan refused, import, invalid configuration, destroy. The steps run
 * in order on one working directory, as a user would run them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { startEmulator } from '../../src/emulator';
import { onRequest } from '../helpers/moments';
import { ensureBuilt, leftoverProviders, requireTerraform, run, type RunResult, terraformEnvironment, PROVIDER_HCL } from './helpers';

jest.setTimeout(180_000);

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const LOCATION = '11111111-2222-4333-8444-555555555555';

interface Knobs {
  settingValue?: string;
  infraName?: string;
  infraUrl?: string;
  bindingTenant?: 'globex' | 'acme';
}

/** The configuration once the binding has moved to Acme and the component to its new address. */
const MOVED: Knobs = {
  settingValue: 'jsonencode(120)',
  infraName: 'Globex primary storage',
  bindingTenant: 'acme',
  infraUrl: 'https://new.globex.example.com',
};

function mainTf(k: Knobs = {}): string {
  return `${PROVIDER_HCL}
data "tenantform_tenant" "globex" {
  name = "Globex Retail"
}
data "tenantform_tenant" "acme" {
  name = "Acme Manufacturing"
}
data "tenantform_application" "backup" {
  type = "backup"
}

resource "tenantform_application_binding" "backup" {
  application_id = data.tenantform_application.backup.id
  tenant_id      = data.tenantform_tenant.${k.bindingTenant ?? 'globex'}.id
}

resource "tenantform_tenant_setting" "retention" {
  application_id = data.tenantform_application.backup.id
  tenant_id      = data.tenantform_tenant.globex.id
  name           = "retention_days"
  value          = ${k.settingValue ?? 'jsonencode(90)'}
  lock           = true
}

resource "tenantform_infra_component" "storage" {
  owner_tenant_id = data.tenantform_tenant.globex.id
  name            = "${k.infraName ?? 'Globex storage'}"
  url             = "${k.infraUrl ?? 'https://storage.globex.example.com'}"
  capabilities    = ["backup", "disaster_recovery"]
  location_id     = "${LOCATION}"
}

resource "tenantform_agent_update_settings" "globex" {
  tenant_id      = data.tenantform_tenant.globex.id
  update_channel = "STABLE"
  automatic      = true
  maintenance_window = {
    time_from    = "01:00:00"
    time_to      = "05:00:00"
    days_of_week = ["SATURDAY", "SUNDAY"]
  }
}

resource "tenantform_usage_report" "monthly" {
  result_action = "save"
  parameters = {
    tenant_id = data.tenantform_tenant.globex.id
    kind      = "usage_summary"
    level     = "accounts"
    formats   = ["csv"]
  }
  schedule = {
    type = "monthly"
  }
}

resource "tenantform_event_subscription" "tenant_events" {
  topic_id     = "cti.a.p.em.topic.v1.0~a.p.tenant.v1.0"
  types        = ["cti.a.p.em.event.v1.0~a.p.tenant.*"]
  tenant_depth = "ALL"
}
`;
}

let emulator: Emulator;
let api: PlatformClient;
let dir: string;
let env: NodeJS.ProcessEnv;
let globex: string;
let acme: string;
let backup: string;
/** In the environment of every provider this suite launches, to tell them from other suites' ones. */
const markerValue = `${process.pid}-${Date.now()}`;
const outputs: string[] = [];

/** The platform as the test sees it, to compare before and after. */
async function snapshot() {
  return {
    globexApps: (await api.listTenantApplications(globex)).sort(),
    acmeApps: (await api.listTenantApplications(acme)).sort(),
    retention: await api.getSetting(backup, globex, 'retention_days'),
    globexInfra: await api.listTenantInfra(globex),
    globexReports: await api.listTenantReports(globex),
    globexUpdates: await api.getAgentUpdateSettings(globex, { master: true }),
  };
}
let before: Awaited<ReturnType<typeof snapshot>>;

function write(k: Knobs = {}): void {
  writeFileSync(join(dir, 'main.tf'), mainTf(k));
}

async function terraform(...args: string[]): Promise<RunResult> {
  const r = await run('terraform', args, { cwd: dir, env });
  outputs.push(r.output);
  // Every launch must end with the command: Shutdown answered and the process gone.
  expect(await leftoverProviders(markerValue)).toEqual([]);
  return r;
}

function expectOk(r: RunResult): void {
  if (r.code !== 0) throw new Error(`terraform exited with ${r.code}:\n${r.output}`);
}

function state(): { resources: Array<{ type: string; name: string; instances: Array<{ attributes: Record<string, unknown> }> }> } {
  return JSON.parse(readFileSync(join(dir, 'terraform.tfstate'), 'utf8'));
}

function attributesOf(type: string, name: string): Record<string, unknown> {
  const r = state().resources.find((x) => x.type === type && x.name === name);
  if (!r) throw new Error(`${type}.${name} is not in the state`);
  return r.instances[0].attributes;
}

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  emulator = await startEmulator({ port: 0, seed: 11 });
  api = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  const world = emulator.world();
  globex = world.tenants['Globex Retail'].id;
  acme = world.tenants['Acme Manufacturing'].id;
  backup = world.applications.backup.id;
  before = await snapshot();

  dir = mkdtempSync(join(tmpdir(), 'tenantform-terraform-'));
  env = await terraformEnvironment(dir, emulator, markerValue);
  write();
});

afterAll(async () => {
  await api?.close();
  await emulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('init installs the provider from the mirror', async () => {
  const r = await terraform('init', '-input=false', '-no-color');
  expectOk(r);
  expect(r.stdout).toMatch(/Installing tenantform\/tenantform v0\.1\.0/);
  expect(r.stdout).toContain('Terraform has been successfully initialized');
  expect(readFileSync(join(dir, '.terraform.lock.hcl'), 'utf8')).toMatch(/"h1:/);
});

test('plan shows every resource to create; apply creates them; the next plan is empty', async () => {
  const plan = await terraform('plan', '-input=false', '-no-color');
  expectOk(plan);
  expect(plan.stdout).toContain('# tenantform_infra_component.storage will be created');
  expect(plan.stdout).toMatch(/\+ version\s+= \(known after apply\)/);
  expect(plan.stdout).toMatch(/\+ lock\s+= true/);
  expect(plan.stdout).toContain('Plan: 6 to add, 0 to change, 0 to destroy.');

  expectOk(await terraform('apply', '-auto-approve', '-input=false', '-no-color'));
  expect((await api.getSetting(backup, globex, 'retention_days')).own?.value).toBe(90);
  expect(await api.listTenantApplications(globex)).toContain(backup);
  expect(attributesOf('tenantform_infra_component', 'storage').version).toBe(1);

  const again = await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
  expect(again.code).toBe(0);
  expect(again.stdout).toContain('No changes.');
});

test('an update in place: value and name change, the version becomes unknown', async () => {
  write({ settingValue: 'jsonencode(120)', infraName: 'Globex primary storage' });
  const plan = await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
  expect(plan.code).toBe(2);
  expect(plan.stdout).toContain('# tenantform_tenant_setting.retention will be updated in-place');
  expect(plan.stdout).toMatch(/~ value\s+= "90" -> "120"/);
  expect(plan.stdout).toContain('# tenantform_infra_component.storage will be updated in-place');
  expect(plan.stdout).toMatch(/~ name\s+= "Globex storage" -> "Globex primary storage"/);
  expect(plan.stdout).toMatch(/~ version\s+= 1 -> \(known after apply\)/);
  expect(plan.stdout).toContain('Plan: 0 to add, 2 to change, 0 to destroy.');

  expectOk(await terraform('apply', '-auto-approve', '-input=false', '-no-color'));
  expect((await api.getSetting(backup, globex, 'retention_days')).own?.value).toBe(120);
  expect(attributesOf('tenantform_infra_component', 'storage')).toMatchObject({ name: 'Globex primary storage', version: 2 });
});

test('a replacement: moving the binding to another tenant destroys and creates', async () => {
  write({ settingValue: 'jsonencode(120)', infraName: 'Globex primary storage', bindingTenant: 'acme' });
  const plan = await terraform('plan', '-input=false', '-no-color');
  expectOk(plan);
  expect(plan.stdout).toContain('# tenantform_application_binding.backup must be replaced');
  expect(plan.stdout).toMatch(/~ tenant_id\s+= "[0-9a-f-]+" -> "[0-9a-f-]+" # forces replacement/);
  expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');

  expectOk(await terraform('apply', '-auto-approve', '-input=false', '-no-color'));
  expect(await api.listTenantApplications(globex)).not.toContain(backup);
  expect(await api.listTenantApplications(acme)).toContain(backup);
});

test('a change made outside Terraform shows as drift and the next apply repairs it', async () => {
  await api.putSetting(backup, globex, 'retention_days', { value: 7, lock: true, exclusive: false });
  // Terraform lists drift in a normal plan only where it could affect other changes; a
  // refresh-only plan lists all of it.
  const drift = await terraform('plan', '-refresh-only', '-detailed-exitcode', '-input=false', '-no-color');
  expect(drift.code).toBe(2);
  expect(drift.stdout).toContain('Objects have changed outside of Terraform');
  expect(drift.stdout).toContain('# tenantform_tenant_setting.retention has changed');
  expect(drift.stdout).toMatch(/~ value\s+= "120" -> "7"/);

  const apply = await terraform('apply', '-auto-approve', '-input=false', '-no-color');
  expectOk(apply);
  expect(apply.stdout).toContain('# tenantform_tenant_setting.retention will be updated in-place');
  expect(apply.stdout).toMatch(/~ value\s+= "7" -> "120"/);
  expect((await api.getSetting(backup, globex, 'retention_days')).own?.value).toBe(120);
});

test('a saved plan made stale by a concurrent change is refused, and the other change survives', async () => {
  write({ ...MOVED, settingValue: 'jsonencode(150)' });
  const plan = await terraform('plan', '-out=stale.tfplan', '-input=false', '-no-color');
  expectOk(plan);
  expect(plan.stdout).toMatch(/~ url\s+= "https:\/\/storage\.globex\.example\.com" -> "https:\/\/new\.globex\.example\.com"/);
  expect(plan.stdout).toMatch(/~ value\s+= "120" -> "150"/);

  const id = String(attributesOf('tenantform_infra_component', 'storage').id);
  const [live] = await api.getInfra([id]);
  await api.updateInfra(id, {
    name: live.name,
    location_id: live.location_id,
    url: live.url,
    capabilities: [...live.capabilities],
    backend_type: 'azure',
    version: live.version,
  });
  const [bumped] = await api.getInfra([id]);
  expect(bumped.version).toBe(live.version + 1);
  // A setting has no version: the plan's fingerprint of it is what gets re-checked.
  await api.putSetting(backup, globex, 'retention_days', { value: 33, lock: true, exclusive: false });

  const apply = await terraform('apply', '-input=false', '-no-color', 'stale.tfplan');
  expect(apply.code).toBe(1);
  expect(apply.stderr).toContain('The object was changed by someone else');
  expect(apply.stderr).toContain(`is at version ${bumped.version} on the platform`);
  expect(apply.stderr).toContain(`planned against version ${live.version}`);
  expect(apply.stderr).toMatch(/terraform plan/);
  expect(apply.stderr).toContain('with tenantform_infra_component.storage');

  expect(apply.stderr).toMatch(/\/retention_days\s+changed on the platform after the plan was made/);
  expect(apply.stderr).toContain('with tenantform_tenant_setting.retention');

  const [after] = await api.getInfra([id]);
  expect(after).toMatchObject({ backend_type: 'azure', url: 'https://storage.globex.example.com', version: bumped.version });
  expect((await api.getSetting(backup, globex, 'retention_days')).own?.value).toBe(33);
  // The refused update leaves the recorded object as it was.
  expect(attributesOf('tenantform_infra_component', 'storage').version).toBe(live.version);

  // A fresh plan sees the other changes; applying it converges.
  write(MOVED);
  expectOk(await terraform('apply', '-auto-approve', '-input=false', '-no-color'));
  const [converged] = await api.getInfra([id]);
  expect(converged.url).toBe('https://new.globex.example.com');
  expect((await api.getSetting(backup, globex, 'retention_days')).own?.value).toBe(120);
});

test('Ctrl-C during apply: Terraform sends StopProvider and the provider gives up the operation at once', async () => {
  write({ ...MOVED, settingValue: 'jsonencode(121)' });
  // Its own process group, as in a terminal, where Ctrl-C reaches Terraform and its providers alike.
  const child = spawn('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    const text = d.toString();
    output += text;
    // Once planned, every platform request is slowed down, so that the change is still in flight when interrupted.
    if (text.includes('Plan: ')) {
      planned = true;
      emulator.setFaults({ latency_ms: 3_000 });
    }
  });
  // Interrupted when the apply's first request reaches the platform (an event the emulator
  // records, not a timer): the change is then in flight, its write not yet sent.
  let planned = false;
  const stop = onRequest(
    'arrival',
    (r) => planned && r.path.startsWith('/api/') && !r.path.endsWith('/idp/token'),
    1,
    () => process.kill(-child.pid!, 'SIGINT'),
  );
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve)).finally(stop);
  emulator.setFaults({ latency_ms: 0 });
  outputs.push(output);
  expect(code).toBe(1);
  expect(output).toContain('Interrupt received');
  expect(output).toContain('Error: Stopped');
  expect(output).toContain('Terraform asked the provider to stop while the change was in progress');
  expect(await leftoverProviders(markerValue)).toEqual([]);
  // Whether the interrupted write reached the platform is the platform's business: converge.
  write(MOVED);
  expectOk(await terraform('apply', '-auto-approve', '-input=false', '-no-color'));
});

test('terraform import of each kind, then an empty plan', async () => {
  const ids: Record<string, string> = {
    'tenantform_application_binding.backup': `${backup}/${acme}`,
    'tenantform_tenant_setting.retention': `${backup}/${globex}/retention_days`,
    'tenantform_infra_component.storage': String(attributesOf('tenantform_infra_component', 'storage').id),
    'tenantform_agent_update_settings.globex': `tenant/${globex}`,
    'tenantform_usage_report.monthly': String(attributesOf('tenantform_usage_report', 'monthly').id),
  };
  // The platform cannot read a subscription back, so its import is a documented replacement: not part of this round.
  expectOk(await terraform('state', 'rm', '-no-color', ...Object.keys(ids)));
  for (const [address, id] of Object.entries(ids)) {
    const r = await terraform('import', '-input=false', '-no-color', address, id);
    expectOk(r);
    expect(r.stdout).toContain('Import successful!');
  }
  const plan = await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
  expect(plan.stdout).toContain('No changes.');
  expect(plan.code).toBe(0);
});

test('an invalid configuration gets diagnostics that point at the attribute', async () => {
  const good = readFileSync(join(dir, 'main.tf'), 'utf8');
  writeFileSync(
    join(dir, 'main.tf'),
    `${good}
resource "tenantform_infra_component" "broken" {
  owner_tenant_id = "not-a-uuid"
  name            = "Broken"
  url             = "ftp//nowhere"
  capabilities    = ["backup", "teleport"]
}

resource "tenantform_agent_update_settings" "broken" {
  tenant_id      = data.tenantform_tenant.acme.id
  update_channel = "NIGHTLY"
  automatic      = false
}
`,
  );
  try {
    const r = await terraform('validate', '-no-color');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Invalid value for owner_tenant_id');
    expect(r.stderr).toMatch(/owner_tenant_id = "not-a-uuid"/);
    expect(r.stderr).toContain('Invalid value for url');
    expect(r.stderr).toMatch(/url\s+= "ftp\/\/nowhere"/);
    expect(r.stderr).toContain('Invalid value for capabilities[1]');
    expect(r.stderr).toContain('Invalid value for update_channel');
    expect(r.stderr).toMatch(/on main\.tf line \d+, in resource "tenantform_agent_update_settings" "broken"/);
    expect(r.stderr).toMatch(/`CURRENT` or\s+`STABLE`/);
  } finally {
    writeFileSync(join(dir, 'main.tf'), good);
  }
});

test('with plugin TLS disabled (TF_DISABLE_PLUGIN_TLS), Terraform still talks to the provider', async () => {
  const r = await run('terraform', ['validate', '-no-color'], { cwd: dir, env: { ...env, TF_DISABLE_PLUGIN_TLS: '1' } });
  outputs.push(r.output);
  expectOk(r);
  expect(r.stdout).toContain('Success! The configuration is valid.');
  expect(await leftoverProviders(markerValue)).toEqual([]);
});

test('destroy removes everything; the emulator is as before and settings are inherited again', async () => {
  const r = await terraform('destroy', '-auto-approve', '-input=false', '-no-color');
  expectOk(r);
  // The platform cannot delete a subscription: Terraform shows the provider's warning.
  expect(r.output).toContain('The platform cannot delete this object');
  expect(r.stdout).toMatch(/Destroy complete! Resources: 6 destroyed\./);

  const after = await snapshot();
  expect(after).toEqual(before);
  expect(after.retention.own).toBeNull();
  expect(after.retention.effective?.owner.id).toBe(emulator.rootTenantId);
});

test('no secret in any output or in the state', () => {
  const stateText = readFileSync(join(dir, 'terraform.tfstate'), 'utf8');
  for (const text of [...outputs, stateText]) expect(text).not.toContain(emulator.clientSecret);
});
