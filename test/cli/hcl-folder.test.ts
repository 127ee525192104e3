import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, type World } from './helpers';
import { changes, startTerraformFolder, type PlanJson, type TerraformFolderWorld } from './terraform-folder';

/**
 * A team that writes Terraform, not cdktf: a folder of `.tf` files with its variables in
 * `terraform.tfvars`, planned, applied, planned empty and drift-checked by tenantform itself, and
 * planned the same by `terraform` with tenantform's provider on the same folder and state.
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
`,
  'variables.tf': `
variable "customers" {
  description = "The partner's customers, by key"
  type = map(object({
    name  = string
    email = string
  }))
}

variable "contact_types" {
  type    = list(string)
  default = ["primary"]
}
`,
  'customers.tf': `
locals {
  # Each customer's name, by key, read through a local.
  names = { for key, c in var.customers : key => c.name }
}

resource "tenantform_tenant" "customer" {
  for_each  = var.customers
  parent_id = data.tenantform_tenant.northwind.id
  kind      = "customer"
  name      = local.names[each.key]
  contact = {
    email      = each.value.email
    first_name = title(each.key)
    types      = var.contact_types
  }
}

resource "tenantform_user" "admin" {
  for_each  = tenantform_tenant.customer
  tenant_id = each.value.id
  login     = "\${each.key}-admin"
  email     = "admin@\${each.key}.example"
}
`,
  'outputs.tf': `
output "customer_ids" {
  description = "Each customer's tenant id"
  value       = { for key, t in tenantform_tenant.customer : key => t.id }
}
`,
  'terraform.tfvars': `
customers = {
  contoso  = { name = "Contoso", email = "it@contoso.example" }
  fabrikam = { name = "Fabrikam", email = "it@fabrikam.example" }
}
`,
};

const PLANNED = [
  'tenantform_tenant.customer["contoso"]',
  'tenantform_tenant.customer["fabrikam"]',
  'tenantform_user.admin["contoso"]',
  'tenantform_user.admin["fabrikam"]',
];

describe('a folder of Terraform files (HCL)', () => {
  let world: World;
  let folder: string;
  let terraform: TerraformFolderWorld['terraform'];
  let shownPlan: TerraformFolderWorld['shownPlan'];

  beforeAll(async () => {
    ({ world, folder, terraform, shownPlan } = await startTerraformFolder('customers', FILES));
  }, 120_000);
  afterAll(() => world.close());

  it('plans what terraform plans, applies, plans no change on both paths, imports again after state rm, and reports drift', async () => {
    // The native plan: the folder named with --config, its variables from terraform.tfvars.
    const native = await run(world, ['plan', '--config', 'customers', '--format', 'json']);
    expect(native.stderr).toBe('');
    const nativePlan = JSON.parse(native.stdout) as PlanJson;
    expect(changes(nativePlan).map(([address]) => address)).toEqual(PLANNED);

    // terraform, through the provider, on the same folder: the same changes with the same values.
    expect((await terraform('plan', '-out=oracle.tfplan')).code).toBe(0);
    expect(changes(await shownPlan('oracle.tfplan'))).toEqual(changes(nativePlan));
    expect(changes(nativePlan)[0]).toMatchObject([
      'tenantform_tenant.customer["contoso"]',
      ['create'],
      { name: 'Contoso', contact: { email: 'it@contoso.example', first_name: 'Contoso', types: ['primary'] } },
    ]);

    // The pull-request comment, from inside the folder (-chdir), as a CI job runs it.
    const comment = await run(world, ['-chdir=customers', 'plan', '--format', 'markdown']);
    expect(comment.code).toBe(0);
    expect(comment.stdout).toContain('tenantform_user.admin["fabrikam"]');
    expect(comment.stdout).toMatch(/4 to add, 0 to change, 0 to destroy/);

    const applied = await run(world, ['-chdir=customers', 'apply', '--auto-approve']);
    expect(applied.stderr).not.toContain('Error');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 4 added, 0 changed, 0 destroyed.');
    const ids = JSON.parse((await run(world, ['-chdir=customers', 'output', '--json', 'customer_ids'])).stdout) as Record<string, string>;
    expect(Object.keys(ids)).toEqual(['contoso', 'fabrikam']);

    // The state is terraform's, in the folder: both plan no change.
    expect((await run(world, ['-chdir=customers', 'plan', '--detailed-exitcode'])).code).toBe(0);
    const oracleAgain = await terraform('plan', '-detailed-exitcode');
    expect(oracleAgain.output).toContain('No changes.');
    expect(oracleAgain.code).toBe(0);

    // An object adopted again after it left the state: import reads the folder as plan does.
    const state = JSON.parse(readFileSync(join(folder, 'terraform.tfstate'), 'utf8')) as {
      resources: Array<{ type: string; instances: Array<{ index_key?: string; attributes: { id: string } }> }>;
    };
    const admin = state.resources.find((r) => r.type === 'tenantform_user')!.instances.find((i) => i.index_key === 'contoso')!.attributes.id;
    expect((await run(world, ['-chdir=customers', 'state', 'rm', 'tenantform_user.admin["contoso"]'])).code).toBe(0);
    const imported = await run(world, ['import', '--config', 'customers', 'tenantform_user.admin["contoso"]', admin]);
    expect(imported.stdout + imported.stderr).toContain('Import successful');
    expect((await run(world, ['-chdir=customers', 'plan', '--detailed-exitcode'])).code).toBe(0);

    // Someone renames a customer by hand: the nightly drift report names it.
    expect((await run(world, ['drift', '--config', 'customers'])).code).toBe(0);
    const [contoso] = await world.client.getTenants({ uuids: [ids.contoso] });
    await world.client.updateTenant(ids.contoso, { name: 'Contoso (renamed)', version: contoso.version ?? 1 });
    const drift = await run(world, ['drift', '--config', 'customers']);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('tenantform_tenant.customer["contoso"]');
    expect(drift.stdout).toContain('Contoso (renamed)');
  }, 300_000);

  it('names the file of a broken expression, and of a block declared twice, before anything is sent', async () => {
    const before = world.requests.length;
    writeFileSync(join(folder, 'extra.tf'), 'variable "customers" {}\n');
    const duplicate = await run(world, ['plan', '--config', 'customers']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toContain('var.customers is declared in extra.tf and again in variables.tf');

    writeFileSync(join(folder, 'extra.tf'), 'resource "tenantform_tenant" "extra" {\n  name = var.missing\n}\n');
    const undeclared = await run(world, ['plan', '--config', 'customers']);
    expect(undeclared.code).toBe(1);
    expect(undeclared.stderr).toContain('tenantform_tenant.extra: name: Reference to an undeclared name\n  on extra.tf');

    writeFileSync(join(folder, 'extra.tf'), 'module "network" {\n  source = "example/network/tenantform"\n}\n');
    const module = await run(world, ['plan', '--config', 'customers']);
    expect(module.code).toBe(1);
    expect(module.stderr).toContain('module.network: source: Unsupported module source');
    expect(module.stderr).toContain('terraform plan');
    expect(world.requests.slice(before)).toEqual([]);
  });
  it('reports the problems of every file in one run, and names the file and line of what is wrong in a block', async () => {
    const before = world.requests.length;
    writeFileSync(join(folder, 'extra.tf'), 'locals {\n  a =\n}\n');
    writeFileSync(join(folder, 'more.tf'), 'variable "contact_types" {}\n');
    const both = await run(world, ['plan', '--config', 'customers']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Error: Cannot read the configuration\n  on extra.tf line 2\n  extra.tf: line 2, column 6: Invalid expression;');
    expect(both.stderr).toContain(
      'Error: var.contact_types: Duplicate variable declaration\n  on variables.tf line 10\n  var.contact_types is declared in more.tf and again in variables.tf.',
    );
    expect(both.stderr).toContain('The configuration is invalid: nothing was sent to the platform.');
    rmSync(join(folder, 'more.tf'));
    rmSync(join(folder, 'extra.tf'));

    // A misspelt argument: its file, the line of the argument that holds it, the address and the attribute path.
    const customers = join(folder, 'customers.tf');
    writeFileSync(customers, FILES['customers.tf'].replace('email      = each.value.email', 'emal       = each.value.email'));
    const misspelt = await run(world, ['-chdir=customers', 'validate']);
    expect(misspelt.code).toBe(1);
    expect(misspelt.stderr).toContain('Error: tenantform_tenant.customer: contact.emal: Invalid value for contact.emal\n  on customers.tf line 12\n');
    expect(world.requests.slice(before)).toEqual([]);

    // A problem found while planning, once the platform is read, names its file too.
    writeFileSync(customers, FILES['customers.tf']);
    writeFileSync(
      join(folder, 'extra.tf'),
      'resource "tenantform_tenant" "extra" {\n  parent_id = data.tenantform_tenant.northwind.id\n  kind      = "customer"\n  name      = "Extra"\n' +
        '  lifecycle {\n    precondition {\n      condition     = data.tenantform_tenant.northwind.name == "Southwind"\n' +
        '      error_message = "Extra customers belong to Southwind."\n    }\n  }\n}\n',
    );
    const planned = await run(world, ['plan', '--config', 'customers']);
    rmSync(join(folder, 'extra.tf'));
    expect(planned.code).toBe(1);
    expect(planned.stdout + planned.stderr).toContain('Error: tenantform_tenant.extra: lifecycle.precondition');
    expect(planned.stdout + planned.stderr).toMatch(/Resource precondition failed\n +on extra\.tf line 5\n/);
  });
});
