import { providerSourceAddress } from './provider-config';

test('a provider source is written out in full and in lower case, as Terraform records it; text that is not one is refused', () => {
  expect(providerSourceAddress('tenantform/tenantform')).toBe('registry.terraform.io/tenantform/tenantform');
  expect(providerSourceAddress('Registry.Example.com/Platform-Team/TenantForm')).toBe('registry.example.com/platform-team/tenantform');
  expect(providerSourceAddress('registry.opentofu.org/tenantform/tenantform')).toBe('registry.opentofu.org/tenantform/tenantform');
  expect(providerSourceAddress('mirror.internal:8443/acme/tenantform')).toBe('mirror.internal:8443/acme/tenantform');
  for (const bad of ['tenantform', 'a/b/c/d', 'has space/tenantform', '-acme/tenantform', 'acme/tenantform-', 'host_name/acme/tenantform', ''])
    expect(providerSourceAddress(bad)).toBeUndefined();
});
