import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { run, type World } from './helpers';
import { changes, startTerraformFolder, type PlanJson, type TerraformFolderWorld } from './terraform-folder';

/**
 * A team that keeps what each customer gets in a module of its own repository, called once per
 * customer: tenantform plans, applies and drift-checks the folder itself, with the addresses and
 * the state terraform uses, so that `terraform` with tenantform's provider plans the same folder
 * and state with no change.
 */
const FILES: Record<string, string> = {
  'main.tf': `
terraform {
  required_providers {
    tenantform = { source = "tenantform/tenantform" }
  }
}

provider "tenantform" {}

data "tenantform_tenant" "northwind" {
  name = "Northwind Partner"
}

variable "customers" {
  type = map(object({ name = string, email = string }))
}

module "customer" {
  source    = "./modules/customer"
  for_each  = var.customers
  parent_id = data.tenantform_tenant.northwind.id
  name      = each.value.name
  email     = each.value.email
  login     = "\${each.key}-admin"
}

module "partner_settings" {
  source    = "./modules/settings"
  tenant_id = data.tenantform_tenant.northwind.id
}

output "customer_ids" {
  value = { for key, c in module.customer : key => c.tenant_id }
}

output "contoso_admin" {
  value = module.customer["contoso"].admin_login
}
`,
  'terraform.tfvars': `
customers = {
  contoso  = { name = "Contoso", email = "it@contoso.example" }
  fabrikam = { name = "Fabrikam", email = "it@fabrikam.example" }
}
`,
  'modules/customer/main.tf': `
terraform {
  required_providers {
    tenantform = { source = "tenantform/tenantform" }
  }
}

variable "parent_id" {}
variable "name" {}
variable "email" {}
variable "login" {}
variable "types" {
  default = ["primary"]
}

locals {
  display = upper(var.name)
}

resource "tenantform_tenant" "this" {
  parent_id = var.parent_id
  kind      = "customer"
  name      = var.name
  contact = {
    email      = var.email
    first_name = local.display
    types      = var.types
  }
}

resource "tenantform_user" "admin" {
  tenant_id = tenantform_tenant.this.id
  login     = var.login
  email     = var.email
}

module "settings" {
  source    = "../settings"
  tenant_id = tenantform_tenant.this.id
}

output "tenant_id" {
  value = tenantform_tenant.this.id
}

output "admin_login" {
  value = tenantform_user.admin.login
}
`,
  'modules/settings/main.tf': `
terraform {
  required_providers {
    tenantform = { source = "tenantform/tenantform" }
  }
}

variable "tenant_id" {}

data "tenantform_application" "backup" {
  type = "backup"
}

resource "tenantform_tenant_setting" "retention" {
  application_id = data.tenantform_application.backup.id
  tenant_id      = var.tenant_id
  name           = "retention_days"
  value          = "30"
}
`,
};

const PLANNED = [
  'module.customer["contoso"].module.settings.tenantform_tenant_setting.retention',
  'module.customer["contoso"].tenantform_tenant.this',
  'module.customer["contoso"].tenantform_user.admin',
  'module.customer["fabrikam"].module.settings.tenantform_tenant_setting.retention',
  'module.customer["fabrikam"].tenantform_tenant.this',
  'module.customer["fabrikam"].tenantform_user.admin',
  'module.partner_settings.tenantform_tenant_setting.retention',
];

describe('modules from local folders', () => {
  let world: World;
  let folder: string;
  let terraform: TerraformFolderWorld['terraform'];
  let shownPlan: TerraformFolderWorld['shownPlan'];
  let write: TerraformFolderWorld['write'];

  beforeAll(async () => {
    ({ world, folder, terraform, shownPlan, write } = await startTerraformFolder('estate', FILES));
  }, 120_000);
  afterAll(() => world.close());

  it('plans what terraform plans, applies into the state terraform reads, and reports drift by module address', async () => {
    const native = await run(world, ['plan', '--config', 'estate', '--format', 'json']);
    expect(native.stderr).toBe('');
    const nativePlan = JSON.parse(native.stdout) as PlanJson;
    expect(changes(nativePlan).map(([address]) => address)).toEqual(PLANNED);
    // Terraform's module_address, for the policy tools that read the JSON plan.
    expect((nativePlan.resource_changes as Array<{ address: string; module_address?: string }>).find((c) => c.address === PLANNED[0])?.module_address).toBe(
      'module.customer["contoso"].module.settings',
    );
    expect(changes(nativePlan)[1]).toEqual([
      'module.customer["contoso"].tenantform_tenant.this',
      ['create'],
      { name: 'Contoso', contact: expect.objectContaining({ email: 'it@contoso.example', first_name: 'CONTOSO', types: ['primary'] }) },
    ]);

    // terraform, through the provider, plans the same changes with the same values.
    expect((await terraform('plan', '-out=oracle.tfplan')).code).toBe(0);
    expect(changes(await shownPlan('oracle.tfplan'))).toEqual(changes(nativePlan));

    const applied = await run(world, ['-chdir=estate', 'apply', '--auto-approve']);
    expect(applied.stderr).not.toContain('Error');
    expect(applied.stdout).toContain('Apply complete! Resources: 7 added, 0 changed, 0 destroyed.');
    const outputs = JSON.parse((await run(world, ['-chdir=estate', 'output', '--json'])).stdout) as Record<string, { value: unknown }>;
    expect(Object.keys(outputs.customer_ids.value as object)).toEqual(['contoso', 'fabrikam']);
    expect(outputs.contoso_admin.value).toBe('contoso-admin');

    // The state holds Terraform's module key; terraform and tenantform both plan no change on it.
    const state = JSON.parse(readFileSync(join(folder, 'terraform.tfstate'), 'utf8')) as { resources: Array<{ module?: string; mode: string; type: string }> };
    expect(
      state.resources
        .filter((r) => r.mode === 'managed' && r.type === 'tenantform_tenant')
        .map((r) => r.module)
        .sort(),
    ).toEqual(['module.customer["contoso"]', 'module.customer["fabrikam"]']);
    expect((await run(world, ['-chdir=estate', 'plan', '--detailed-exitcode'])).code).toBe(0);
    const oracleAgain = await terraform('plan', '-detailed-exitcode');
    expect(oracleAgain.output).toContain('No changes.');
    expect(oracleAgain.code).toBe(0);

    const listed = await run(world, ['-chdir=estate', 'state', 'list', 'module.customer["fabrikam"]']);
    expect(listed.stdout.trim().split('\n')).toEqual([
      'module.customer["fabrikam"].module.settings.data.tenantform_application.backup',
      'module.customer["fabrikam"].module.settings.tenantform_tenant_setting.retention',
      'module.customer["fabrikam"].tenantform_tenant.this',
      'module.customer["fabrikam"].tenantform_user.admin',
    ]);

    // A module's address names everything recorded inside it.
    const forget = await run(world, ['-chdir=estate', 'state', 'rm', '--dry-run', 'module.customer["fabrikam"]']);
    expect(forget.stdout.trim().split('\n').sort()).toEqual(
      listed.stdout
        .trim()
        .split('\n')
        .map((a) => `Would remove ${a}`),
    );

    // Taken out of the state and imported again at its module address.
    const admin = JSON.parse(readFileSync(join(folder, 'terraform.tfstate'), 'utf8')) as {
      resources: Array<{ module?: string; type: string; instances: Array<{ attributes: { id: string } }> }>;
    };
    const adminId = admin.resources.find((r) => r.type === 'tenantform_user' && r.module === 'module.customer["contoso"]')!.instances[0].attributes.id;
    expect((await run(world, ['-chdir=estate', 'state', 'rm', 'module.customer["contoso"].tenantform_user.admin'])).code).toBe(0);
    const imported = await run(world, ['import', '--config', 'estate', 'module.customer["contoso"].tenantform_user.admin', adminId]);
    expect(imported.stdout + imported.stderr).toContain('Import successful');
    expect((await run(world, ['-chdir=estate', 'plan', '--detailed-exitcode'])).code).toBe(0);

    // A customer renamed by hand: the drift report names the object by its module address.
    const ids = outputs.customer_ids.value as Record<string, string>;
    const [contoso] = await world.client.getTenants({ uuids: [ids.contoso] });
    await world.client.updateTenant(ids.contoso, { name: 'Contoso (renamed)', version: contoso.version ?? 1 });
    const drift = await run(world, ['drift', '--config', 'estate']);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('module.customer["contoso"].tenantform_tenant.this');
  }, 300_000);

  it('names the call of a missing or unexpected argument, and refuses a registry source, before anything is sent', async () => {
    const before = world.requests.length;
    const main = FILES['main.tf'];
    write({ 'main.tf': main.replace('  login     = "${each.key}-admin"\n', '  logon     = "${each.key}-admin"\n') });
    const misspelled = await run(world, ['plan', '--config', 'estate']);
    expect(misspelled.code).toBe(1);
    expect(misspelled.stderr).toContain('The module module.customer has no variable "logon"');
    expect(misspelled.stderr).toContain('Did you mean "login"?');
    expect(misspelled.stderr).toContain('The module module.customer needs "login"');

    write({ 'main.tf': main.replace('source    = "./modules/settings"', 'source    = "example/settings/tenantform"') });
    const registry = await run(world, ['plan', '--config', 'estate']);
    expect(registry.code).toBe(1);
    expect(registry.stderr).toContain('module.partner_settings: source: Unsupported module source');
    write({ 'main.tf': main });

    // A bad argument inside the module names the object's module address, and the module's file and line.
    const module = FILES['modules/customer/main.tf'];
    write({ 'modules/customer/main.tf': module.replace('kind      = "customer"', 'kind      = "custmer"') });
    const inside = await run(world, ['plan', '--config', 'estate']);
    expect(inside.code).toBe(1);
    const line = module.split('\n').findIndex((l) => l.includes('kind      = "customer"')) + 1;
    expect(inside.stderr).toContain(`module.customer["contoso"].tenantform_tenant.this: kind: `);
    expect(inside.stderr).toContain(`on modules/customer/main.tf line ${line}`);
    write({ 'modules/customer/main.tf': module });
    expect(world.requests.slice(before)).toEqual([]);
    write({ 'main.tf': main });
  });

  it("checks a variable's validation when its argument becomes known during apply, naming the module's file", async () => {
    const validated = join(world.dir, 'validated');
    const files: Record<string, string> = {
      'main.tf': `${PROVIDER}
resource "tenantform_tenant" "partner" {
  parent_id = data.tenantform_tenant.northwind.id
  kind      = "partner"
  name      = "Validated Partner"
}

module "customer" {
  source    = "./modules/customer"
  parent_id = tenantform_tenant.partner.id
}
`,
      'modules/customer/main.tf': `
variable "parent_id" {
  validation {
    condition     = length(var.parent_id) == 5
    error_message = "The parent must be a five-letter code."
  }
}

resource "tenantform_tenant" "this" {
  parent_id = var.parent_id
  kind      = "customer"
  name      = "Validated Customer"
}
`,
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(validated, name)), { recursive: true });
      writeFileSync(join(validated, name), text);
    }
    const applied = await run(world, ['apply', '--config', 'validated', '--auto-approve']);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('The parent must be a five-letter code.');
    expect(applied.stderr).toContain('module.customer.tenantform_tenant.this');
    expect(applied.stderr).toContain('on modules/customer/main.tf line 9');
  }, 120_000);
});

/** The customers' tenants, first declared in the root module, then moved into a module, then the module renamed. */
const PROVIDER = FILES['main.tf'].slice(0, FILES['main.tf'].indexOf('variable "customers"'));
const TENANT_MODULE = `
terraform {
  required_providers {
    tenantform = { source = "tenantform/tenantform" }
  }
}

variable "parent_id" {}
variable "name" {}

resource "tenantform_tenant" "this" {
  parent_id = var.parent_id
  kind      = "customer"
  name      = var.name
}
`;
const moduleCall = (name: string) => `
module "${name}" {
  source    = "./modules/tenant"
  for_each  = toset(["contoso", "fabrikam"])
  parent_id = data.tenantform_tenant.northwind.id
  name      = title(each.key)
}
`;

describe('refactoring into modules with moved blocks', () => {
  let world: World;
  let terraform: TerraformFolderWorld['terraform'];
  let write: TerraformFolderWorld['write'];

  beforeAll(async () => {
    ({ world, terraform, write } = await startTerraformFolder('refactor', {
      'main.tf': `${PROVIDER}
resource "tenantform_tenant" "customer" {
  for_each  = toset(["contoso", "fabrikam"])
  parent_id = data.tenantform_tenant.northwind.id
  kind      = "customer"
  name      = title(each.key)
}
`,
      'modules/tenant/main.tf': TENANT_MODULE,
    }));
  }, 120_000);
  afterAll(() => world.close());

  /** The plan's changes: address, actions and the address it had before. */
  const planned = async () => {
    const plan = await run(world, ['plan', '--config', 'refactor', '--format', 'json']);
    expect(plan.stderr).not.toContain('Error');
    const changes = (JSON.parse(plan.stdout) as { resource_changes: Array<{ address: string; previous_address?: string; change: { actions: string[] } }> })
      .resource_changes;
    return changes.filter((c) => c.change.actions[0] !== 'read').map((c) => [c.address, c.change.actions.join(','), c.previous_address]);
  };
  const applyAndCheckBothPlanNothing = async () => {
    expect((await run(world, ['-chdir=refactor', 'apply', '--auto-approve'])).code).toBe(0);
    expect((await run(world, ['-chdir=refactor', 'plan', '--detailed-exitcode'])).code).toBe(0);
    const oracle = await terraform('plan', '-detailed-exitcode');
    expect(oracle.output).toContain('No changes.');
    expect(oracle.code).toBe(0);
  };

  it('moves root objects into a module, then the module to another name, without replacing anything', async () => {
    expect((await run(world, ['-chdir=refactor', 'apply', '--auto-approve'])).code).toBe(0);
    const from = world.requests.length;

    write({
      'main.tf': `${PROVIDER}${moduleCall('customer')}
moved {
  from = tenantform_tenant.customer["contoso"]
  to   = module.customer["contoso"].tenantform_tenant.this
}

moved {
  from = tenantform_tenant.customer["fabrikam"]
  to   = module.customer["fabrikam"].tenantform_tenant.this
}
`,
    });
    // terraform init again: the folder now calls a module.
    expect((await terraform('init')).code).toBe(0);
    expect(await planned()).toEqual([
      ['module.customer["contoso"].tenantform_tenant.this', 'no-op', 'tenantform_tenant.customer["contoso"]'],
      ['module.customer["fabrikam"].tenantform_tenant.this', 'no-op', 'tenantform_tenant.customer["fabrikam"]'],
    ]);
    await applyAndCheckBothPlanNothing();

    write({ 'main.tf': `${PROVIDER}${moduleCall('tenant')}\nmoved {\n  from = module.customer\n  to   = module.tenant\n}\n` });
    expect((await terraform('init')).code).toBe(0);
    expect(await planned()).toEqual([
      ['module.tenant["contoso"].tenantform_tenant.this', 'no-op', 'module.customer["contoso"].tenantform_tenant.this'],
      ['module.tenant["fabrikam"].tenantform_tenant.this', 'no-op', 'module.customer["fabrikam"].tenantform_tenant.this'],
    ]);
    await applyAndCheckBothPlanNothing();
    // Nothing was created, changed or deleted on the platform.
    expect(world.requests.slice(from).filter((l) => /^(POST|PUT|DELETE) \/api\/2\/tenants/.test(l))).toEqual([]);
  }, 300_000);
});
