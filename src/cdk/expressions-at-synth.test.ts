import { TerraformIterator, TerraformStack, Testing } from 'cdktf';
import { Tenant, User } from './constructs.generated';
import { TenantformProvider } from './construct';

const PARTNER_ID = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';
const CUSTOMERS = { fabrikam: 'Fabrikam', contoso: 'Contoso' };

type Synthesized = { resource: { tenantform_user: Record<string, { tenant_id: string; login: string; for_each?: string }> } };

function stackNamed(name: string): TerraformStack {
  const stack = new TerraformStack(Testing.app(), name);
  new TenantformProvider(stack, 'tenantform');
  return stack;
}

/** The stack's synthesized document, after the constructs' synth-time validation (it throws on any problem). */
function synthesized(stack: TerraformStack): Synthesized {
  return JSON.parse(Testing.synth(stack, true)) as Synthesized;
}

describe('synth-time validation of values that hold Terraform expressions', () => {
  it('leaves a hand-written reference to plan time, as it does the same text from a token', () => {
    const stack = stackNamed('written');
    const customers = new Tenant(stack, 'customer', {
      forEach: TerraformIterator.fromMap(CUSTOMERS),
      parentId: PARTNER_ID,
      kind: 'customer',
      name: '${each.value}',
    });
    new User(stack, 'admin', {
      forEach: TerraformIterator.fromMap(CUSTOMERS),
      tenantId: '${tenantform_tenant.customer[each.key].id}',
      login: '${each.key}-admin',
      email: 'admin@example.com',
    });
    const user = synthesized(stack).resource.tenantform_user.admin;
    expect(user.tenant_id).toBe('${tenantform_tenant.customer[each.key].id}');
    expect(customers.node.id).toBe('customer');
  });

  it('validates an iterator over resources (fromResources) the same way', () => {
    const stack = stackNamed('iterated');
    const customers = new Tenant(stack, 'customer', {
      forEach: TerraformIterator.fromMap(CUSTOMERS),
      parentId: PARTNER_ID,
      kind: 'customer',
      name: '${each.value}',
    });
    const each = TerraformIterator.fromResources(customers);
    new User(stack, 'admin', { forEach: each, tenantId: each.getString('id'), login: 'admin', email: 'admin@example.com' });
    expect(synthesized(stack).resource.tenantform_user.admin.for_each).toContain('tenantform_tenant.customer');
  });

  it('still refuses a literal that is wrong, naming the address and the attribute', () => {
    const stack = stackNamed('literal');
    new User(stack, 'admin', { tenantId: 'Not-A-Uuid', login: 'admin', email: 'admin@example.com' });
    expect(() => synthesized(stack)).toThrow(/tenantform_user\.admin: tenant_id: .*uuid/);
  });
});
