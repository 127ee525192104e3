import { blockOf, instanceAddress, isModulePath, parseInstanceAddress } from './addresses';

describe('instance addresses', () => {
  it('writes and reads Terraform instance addresses', () => {
    expect(instanceAddress('tenantform_tenant.a', 0)).toBe('tenantform_tenant.a[0]');
    expect(instanceAddress('data.tenantform_tenant.a', 'eu.west "1"')).toBe('data.tenantform_tenant.a["eu.west \\"1\\""]');
    expect(parseInstanceAddress('data.tenantform_tenant.a["eu.west \\"1\\""]')).toEqual({
      mode: 'data',
      type: 'tenantform_tenant',
      name: 'a',
      block: 'data.tenantform_tenant.a',
      key: 'eu.west "1"',
    });
    expect(parseInstanceAddress('tenantform_tenant.a[3]')).toMatchObject({ mode: 'managed', block: 'tenantform_tenant.a', key: 3 });
    expect(parseInstanceAddress('tenantform_tenant.a')).toEqual({ mode: 'managed', type: 'tenantform_tenant', name: 'a', block: 'tenantform_tenant.a' });
    expect(parseInstanceAddress('tenantform_tenant')).toBeUndefined();
    expect(blockOf('tenantform_tenant.a["x"]')).toBe('tenantform_tenant.a');
  });
});

describe('addresses inside modules', () => {
  it('reads the module instance in front of the resource', () => {
    expect(parseInstanceAddress('module.customer["acme"].tenantform_tenant.this')).toEqual({
      mode: 'managed',
      type: 'tenantform_tenant',
      name: 'this',
      block: 'module.customer["acme"].tenantform_tenant.this',
      module: 'module.customer["acme"]',
    });
    expect(parseInstanceAddress('module.a[0].module.b.data.tenantform_tenant.x["k"]')).toEqual({
      mode: 'data',
      type: 'tenantform_tenant',
      name: 'x',
      block: 'module.a[0].module.b.data.tenantform_tenant.x',
      key: 'k',
      module: 'module.a[0].module.b',
    });
    expect(blockOf('module.m.tenantform_tenant.a[2]')).toBe('module.m.tenantform_tenant.a');
  });

  it('takes a module call for no resource', () => {
    expect(parseInstanceAddress('module.customer')).toBeUndefined();
    expect(parseInstanceAddress('module.customer["acme"]')).toBeUndefined();
    expect(isModulePath('module.customer["acme"]')).toBe(true);
    expect(isModulePath('module.customer.tenantform_tenant.this')).toBe(false);
  });
});
