import { KINDS } from '../resources/registry';
import type { ResourceKind, State } from '../resources/declaration';
import { heldIdentities } from './adoption';

describe('objects held by other addresses', () => {
  const tenant = KINDS.at('module.customer["acme"].tenantform_tenant.this') as ResourceKind;

  it('finds the kind of an address inside a module', () => {
    expect(tenant.type).toBe('tenantform_tenant');
    expect(KINDS.at('module.a[0].module.b.data.tenantform_tenant.x["k"]')?.kind).toBe('data');
  });

  it('counts objects recorded inside modules, so that an interrupted create never adopts one of them', () => {
    const value = (id: string): State => ({ id, name: id });
    const held = heldIdentities(
      tenant,
      new Map<string, State | null>([
        ['module.customer["acme"].tenantform_tenant.this', value('11111111-1111-4111-8111-111111111111')],
        ['tenantform_tenant.root', value('22222222-2222-4222-8222-222222222222')],
        ['module.customer["acme"].tenantform_user.admin', value('33333333-3333-4333-8333-333333333333')],
      ]),
      'tenantform_tenant.pending',
    );
    expect(held.size).toBe(2);
  });
});
