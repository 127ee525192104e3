import { blockOf, instanceAddress, parseInstanceAddress } from './addresses';

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
