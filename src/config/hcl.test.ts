import { parseConfiguration } from './config';
import { normalizeHcl } from './hcl';
import { hclConverter } from './hcl-converter';

/** HCL through the converter, then the normalization: what the configuration reads. */
async function terraformJson(hcl: string) {
  return normalizeHcl(await (await hclConverter()).parse('main.tf', hcl));
}

const TENANT = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';

describe('HCL as Terraform JSON', () => {
  it('makes each labelled block one body, and keeps expressions as templates', async () => {
    const { document, duplicates } = await terraformJson(`
      resource "tenantform_tenant" "customer" {
        for_each  = var.customers
        parent_id = "${TENANT}"
        kind      = "customer"
        name      = "\${upper(each.key)}-\${each.value.name}"
        contact   = { email = each.value.email, types = ["primary"] }
        depends_on = [tenantform_tenant.root]
        provider  = tenantform.us
        lifecycle {
          ignore_changes  = [name]
          prevent_destroy = true
          precondition {
            condition     = each.key != ""
            error_message = "A key."
          }
        }
      }
      data "tenantform_tenant" "northwind" { name = "Northwind" }
    `);
    expect(duplicates).toEqual([]);
    expect(document).toEqual({
      resource: {
        tenantform_tenant: {
          customer: {
            for_each: '${var.customers}',
            parent_id: TENANT,
            kind: 'customer',
            name: '${upper(each.key)}-${each.value.name}',
            contact: { email: '${each.value.email}', types: ['primary'] },
            depends_on: ['tenantform_tenant.root'],
            provider: 'tenantform.us',
            lifecycle: { ignore_changes: ['name'], prevent_destroy: true, precondition: [{ condition: '${each.key != ""}', error_message: 'A key.' }] },
          },
        },
      },
      data: { tenantform_tenant: { northwind: { name: 'Northwind' } } },
    });
  });

  it('writes variables with a bare type, outputs, several locals blocks and the terraform block as Terraform JSON does', async () => {
    const { document } = await terraformJson(`
      terraform {
        required_providers {
          tenantform = { source = "tenantform/tenantform" }
        }
        backend "local" { path = "state/main.tfstate" }
      }
      provider "tenantform" {}
      provider "tenantform" { alias = "us" }
      variable "customers" {
        type = map(object({ name = string }))
        validation {
          condition     = length(var.customers) > 0
          error_message = "At least one."
        }
      }
      locals { names = [for k, v in var.customers : v.name if k != "old"] }
      locals { ids = { for k, t in tenantform_tenant.customer : k => t.id } }
      output "ids" {
        value      = local.ids
        depends_on = [tenantform_tenant.customer]
      }
    `);
    expect(document).toEqual({
      terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } }, backend: { local: { path: 'state/main.tfstate' } } },
      provider: { tenantform: [{}, { alias: 'us' }] },
      variable: {
        customers: {
          type: 'map(object({ name = string }))',
          validation: [{ condition: '${length(var.customers) > 0}', error_message: 'At least one.' }],
        },
      },
      locals: { names: '${[for k, v in var.customers : v.name if k != "old"]}', ids: '${{ for k, t in tenantform_tenant.customer : k => t.id }}' },
      output: { ids: { value: '${local.ids}', depends_on: ['tenantform_tenant.customer'] } },
    });
  });

  it('takes heredocs, conditionals, splats, template directives and escapes as Terraform reads them', async () => {
    const { document } = await terraformJson(`
      locals {
        indented = <<-EOT
          Dear \${var.name},
            welcome.
        EOT
        chosen   = var.name == "" ? null : var.name
        names    = var.users[*].name
        greeting = "%{ if var.formal }Dear%{ else }Hi%{ endif } \${var.name}"
        literal  = "costs $\${5} and 100%%{x}"
      }
    `);
    expect(document.locals).toEqual({
      indented: 'Dear ${var.name},\n  welcome.\n',
      chosen: '${var.name == "" ? null : var.name}',
      names: '${var.users[*].name}',
      greeting: '%{if var.formal}Dear%{else}Hi%{endif} ${var.name}',
      literal: 'costs $${5} and 100%%{x}',
    });
  });

  it('gives moved, removed and import blocks their addresses bare', async () => {
    const { document } = await terraformJson(`
      moved {
        from = tenantform_tenant.old
        to   = tenantform_tenant.customer["contoso"]
      }
      removed {
        from = tenantform_tenant.gone
        lifecycle { destroy = false }
      }
      import {
        for_each = var.ids
        to       = tenantform_tenant.customer[each.key]
        id       = each.value
      }
    `);
    expect(document).toEqual({
      moved: [{ from: 'tenantform_tenant.old', to: 'tenantform_tenant.customer["contoso"]' }],
      removed: [{ from: 'tenantform_tenant.gone', lifecycle: { destroy: false } }],
      import: [{ for_each: '${var.ids}', to: 'tenantform_tenant.customer[each.key]', id: '${each.value}' }],
    });
  });

  it('names what the file declares twice', async () => {
    const { duplicates } = await terraformJson(`
      variable "region" {}
      variable "region" {}
      resource "tenantform_tenant" "a" {}
      resource "tenantform_tenant" "a" {}
      locals { x = 1 }
      locals { x = 2 }
    `);
    expect(duplicates).toEqual([
      { what: 'local value definition', address: 'local.x' },
      { what: 'resource', address: 'tenantform_tenant.a' },
      { what: 'variable declaration', address: 'var.region' },
    ]);
  });

  it('is read by the configuration: nested objects, for_each over a map, references and outputs', async () => {
    const { document } = await terraformJson(`
      variable "customers" {
        type    = map(string)
        default = { contoso = "Contoso", fabrikam = "Fabrikam" }
      }
      resource "tenantform_tenant" "customer" {
        for_each  = var.customers
        parent_id = "${TENANT}"
        kind      = "customer"
        name      = each.value
        contact   = { email = "it@\${each.key}.example", types = ["primary"] }
      }
      resource "tenantform_user" "admin" {
        for_each  = tenantform_tenant.customer
        tenant_id = each.value.id
        login     = "\${each.key}-admin"
        email     = "admin@\${each.key}.example"
      }
      output "admins" { value = [for u in tenantform_user.admin : u.login] }
    `);
    const { configuration, diagnostics } = parseConfiguration(document, { file: 'main.tf', stack: 'main' });
    expect(diagnostics).toEqual([]);
    expect([...configuration!.objects.keys()]).toEqual([
      'tenantform_tenant.customer["contoso"]',
      'tenantform_tenant.customer["fabrikam"]',
      'tenantform_user.admin["contoso"]',
      'tenantform_user.admin["fabrikam"]',
    ]);
    expect(configuration!.objects.get('tenantform_tenant.customer["fabrikam"]')!.config.contact).toEqual({
      email: 'it@${each.key}.example',
      types: ['primary'],
    });
    expect([...configuration!.outputs.keys()]).toEqual(['admins']);
  });
});
