/**
 * The estate of a service provider as Terraform users write it: a map of customers in a
 * variable and `for_each` over it, each customer with its tenant, its offering items, an
 * administrator, the administrator's roles and a setting, each referring to its own tenant
 * (`tenantform_tenant.customer[each.key].id`).
 */
import type { RunningEmulator } from '../src/emulator';

/** Objects per customer. */
export const PER_CUSTOMER = 5;

/**
 * The estate of `customers` customers, as cdktf writes it (`cdk.tf.json`). `label` keeps the
 * names and logins of two estates on one platform apart (both are unique there).
 */
export function estateStack(emulator: RunningEmulator, customers: number, label = 'e'): Record<string, unknown> {
  const world = emulator.world();
  const partner = world.tenants['Northwind Partner'].id;
  const map: Record<string, { name: string; quota: number }> = {};
  for (let i = 0; i < customers; i++) map[`${label}${String(i).padStart(6, '0')}`] = { name: `Estate ${label} customer ${i}`, quota: (i % 50) + 1 };
  const each = { for_each: '${var.customers}' };
  const tenantOf = '${tenantform_tenant.customer[each.key].id}';
  return {
    '//': { metadata: { backend: 'local' } },
    terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } }, backend: { local: { path: 'terraform.tfstate' } } },
    provider: { tenantform: [{}] },
    variable: { customers: { type: 'map(object({ name = string, quota = number }))', default: map } },
    data: { tenantform_application: { backup: { type: 'backup' } } },
    resource: {
      tenantform_tenant: { customer: { ...each, parent_id: partner, kind: 'customer', name: '${each.value.name}' } },
      tenantform_offering_items: {
        customer: {
          ...each,
          tenant_id: tenantOf,
          application_id: '${data.tenantform_application.backup.id}',
          items: [{ name: 'workstations', quota: { value: '${each.value.quota}' } }],
        },
      },
      tenantform_user: { admin: { ...each, tenant_id: tenantOf, login: '${each.key}-admin', email: '${each.key}@customers.example' } },
      tenantform_user_roles: {
        admin: {
          ...each,
          user_id: '${tenantform_user.admin[each.key].id}',
          roles: [{ tenant_id: tenantOf, role_id: 'company_admin' }],
        },
      },
      tenantform_tenant_setting: {
        retention: { ...each, application_id: '${data.tenantform_application.backup.id}', tenant_id: tenantOf, name: 'retention_days', value: '"30"' },
      },
    },
  };
}
