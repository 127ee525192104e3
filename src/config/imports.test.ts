import { parseConfiguration } from './config';

const at = { file: 'main.tf.json', stack: 'main' };
const ID = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';
const component = (name: string, extra: Record<string, unknown> = {}) => ({
  owner_tenant_id: ID,
  name,
  url: 'https://s.example.com',
  capabilities: ['backup'],
  ...extra,
});
const doc = (imports: unknown, extra: Record<string, unknown> = {}) => ({
  provider: { tenantform: [{ base_url: 'http://localhost:1' }] },
  variable: { sites: { default: { eu: ID, us: '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f' } } },
  resource: {
    tenantform_infra_component: {
      primary: component('Primary'),
      site: component('${each.key}', { for_each: '${var.sites}' }),
      other: component('Other'),
    },
  },
  import: imports,
  ...extra,
});

describe('import blocks', () => {
  it('takes one target per block, and one per instance of a for_each, with ids known when planning', () => {
    const { configuration, diagnostics } = parseConfiguration(
      doc([
        { to: 'tenantform_infra_component.primary', id: ID, provider: 'tenantform' },
        { for_each: '${var.sites}', to: 'tenantform_infra_component.site[each.key]', id: '${each.value}' },
      ]),
      at,
    );
    expect(diagnostics).toEqual([]);
    expect(configuration!.imports).toEqual([
      { to: 'tenantform_infra_component.primary', id: ID, at: 'import[0]' },
      { to: 'tenantform_infra_component.site["eu"]', id: ID, at: 'import[1]["eu"]' },
      { to: 'tenantform_infra_component.site["us"]', id: '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f', at: 'import[1]["us"]' },
    ]);
  });

  it('refuses what Terraform refuses, each problem named by its block', () => {
    const { configuration, diagnostics } = parseConfiguration(
      doc([
        { to: 'tenantform_infra_component.missing', id: ID },
        { to: 'tenantform_infra_component.site[each.key]', id: ID },
        { to: 'tenantform_infra_component.other', id: '${tenantform_infra_component.primary.id}' },
        { to: 'tenantform_infra_component.primary', id: ID },
        { to: 'tenantform_infra_component.primary', id: ID },
        { to: 'data.tenantform_tenant.acme', id: ID },
        { to: 'tenantform_infra_component.primary', id: ID, lifecycle: {} },
      ]),
      at,
    );
    expect(configuration).toBeUndefined();
    expect(diagnostics.map((d) => d.detail)).toEqual([
      'import[0]: there is no configuration for tenantform_infra_component.missing: declare the resource it imports into.',
      'import[1]: `to` uses each, which only an import block with for_each has.',
      'import[2]: `id` is a string known when planning (variables, locals and each only).',
      'import[4]: tenantform_infra_component.primary is imported by import[3] already.',
      'import[5]: `to` is a managed resource address; with for_each its index is `[each.key]` or `[each.value]`.',
      'import[6]: an import block takes only `to`, `id`, `identity`, `for_each` and `provider`, not `lifecycle`.',
    ]);
  });

  it('takes an identity in place of the id, as Terraform 1.12 does, and refuses one that names no object', () => {
    const PRIMARY = 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f';
    const { configuration, diagnostics } = parseConfiguration(
      doc([
        { to: 'tenantform_infra_component.primary', identity: { component_id: PRIMARY } },
        { for_each: '${var.sites}', to: 'tenantform_infra_component.site[each.key]', identity: { component_id: '${each.value}' } },
      ]),
      at,
    );
    expect(diagnostics).toEqual([]);
    expect(configuration!.imports.map((i) => [i.to, i.id])).toEqual([
      ['tenantform_infra_component.primary', PRIMARY],
      ['tenantform_infra_component.site["eu"]', ID],
      ['tenantform_infra_component.site["us"]', '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f'],
    ]);

    const refused = parseConfiguration(
      doc([
        { to: 'tenantform_infra_component.primary', identity: { id: ID } },
        { to: 'tenantform_infra_component.other', id: ID, identity: { component_id: ID } },
        { to: 'tenantform_infra_component.other', identity: 'x' },
      ]),
      at,
    );
    expect(refused.diagnostics.map((d) => d.detail)).toEqual([
      'import[0]: The identity of tenantform_infra_component needs `component_id`.',
      'import[1]: give `id` or `identity`, not both.',
      'import[2]: `identity` is an object known when planning: { component_id }.',
    ]);
  });
});
