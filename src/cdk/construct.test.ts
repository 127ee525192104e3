import { TerraformStack, Testing } from 'cdktf';
import { InfraComponent } from './constructs.generated';
import { TenantformProvider } from './construct';

describe('provider construct', () => {
  it('keeps the alias, and a resource given that provider names it', () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'two-data-centers');
    new TenantformProvider(stack, 'eu');
    const us = new TenantformProvider(stack, 'us', { alias: 'us', baseUrl: 'https://us.example.com' });
    const common = { ownerTenantId: '91bd10dc-703c-44b6-b7a0-2aa91d1446fb', url: 'https://s.example.com', capabilities: ['backup'] };
    new InfraComponent(stack, 'eu_site', { ...common, name: 'EU' });
    new InfraComponent(stack, 'us_site', { ...common, name: 'US', provider: us });
    const json = JSON.parse(Testing.synth(stack)) as {
      provider: { tenantform: unknown[] };
      resource: { tenantform_infra_component: Record<string, { provider?: string }> };
    };
    expect(json.provider.tenantform).toEqual([{}, { alias: 'us', base_url: 'https://us.example.com' }]);
    expect(json.resource.tenantform_infra_component.us_site.provider).toBe('tenantform.us');
    expect(json.resource.tenantform_infra_component.eu_site.provider).toBeUndefined();
  });
});
