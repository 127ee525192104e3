import { parseConfiguration } from './config';

const at = { file: 'main.tf.json', stack: 'main' };
const PARTNER = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';
const CUSTOMERS = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`customer-${i}`, `Customer ${i}`]));

function customers(body: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    provider: { tenantform: [{}] },
    variable: { customers: { default: CUSTOMERS } },
    resource: {
      tenantform_tenant: { customer: { for_each: '${var.customers}', parent_id: PARTNER, kind: 'customer', name: '${each.value}', ...body } },
      ...extra,
    },
  };
}

const errorsOf = (doc: Record<string, unknown>) => parseConfiguration(doc, at).diagnostics.filter((d) => d.severity === 'error');

describe('a problem of a repeated block', () => {
  it('is one error at the block when every instance has it, as terraform validate says it once', () => {
    const errors = errorsOf(customers({ kind: 'custmer', nmae: 'x' }));
    expect(errors.map((d) => [d.address, d.path?.join('.')])).toEqual([
      ['tenantform_tenant.customer', 'nmae'],
      ['tenantform_tenant.customer', 'kind'],
    ]);
    expect(errors[1].detail).toContain('Did you mean "customer"?');
  });

  it('names the instances when only some have it', () => {
    const errors = errorsOf(customers({ kind: '${each.key == "customer-7" || each.key == "customer-9" ? "custmer" : "customer"}' }));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ address: 'tenantform_tenant.customer', path: ['kind'] });
    expect(errors[0].detail).toContain('(Instances ["customer-7"], ["customer-9"].)');
  });
});

describe('a misspelled name', () => {
  it('of a resource type suggests the type', () => {
    const doc = { provider: { tenantform: [{}] }, resource: { tenantform_tennant: { x: { name: 'a' } } } };
    expect(errorsOf(doc)[0].detail).toMatch(/^This version of tenantform has no tenantform_tennant\. Did you mean tenantform_tenant\?/);
  });

  it('of a referenced block, or of an instance key, suggests the declared one', () => {
    const refs = (value: string) => ({ ...customers({}), output: { o: { value } } });
    expect(errorsOf(refs('${tenantform_tenant.custmer["customer-1"].id}'))[0].detail).toContain('Did you mean tenantform_tenant.customer?');
    expect(errorsOf(refs('${tenantform_tenant.customer["customer-1x"].id}'))[0].detail).toContain('Did you mean tenantform_tenant.customer["customer-1"]?');
  });
});
