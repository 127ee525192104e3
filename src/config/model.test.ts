import { decodeDocument, documentShapeProblems } from './model';

describe('the configuration document decoded into its blocks', () => {
  it('lists resources and data sources, each once in document order, remote states apart too; metadata left out', () => {
    const doc = decodeDocument({
      '//': { metadata: { version: '0.20' } },
      resource: { tenantform_tenant: { b: { name: 'b' }, a: { name: 'a' }, '//': {} } },
      data: {
        tenantform_tenant: { parent: { id: 'x' } },
        terraform_remote_state: { network: { backend: 'local' } },
      },
    });
    expect(doc.resources.map((o) => o.address)).toEqual(['tenantform_tenant.b', 'tenantform_tenant.a']);
    expect(doc.dataSources.map((o) => o.address)).toEqual(['data.tenantform_tenant.parent', 'data.terraform_remote_state.network']);
    expect(doc.remoteStates).toEqual([['network', { backend: 'local' }]]);
  });

  it('names the blocks of module instances under their module path', () => {
    const doc = decodeDocument({ resource: { tenantform_tenant: { root: {} } } }, [
      { module: 'module.customer["acme"]', mode: 'managed', type: 'tenantform_tenant', name: 'this', body: {} },
    ]);
    expect(doc.moduleBlocks.map((o) => o.address)).toEqual(['module.customer["acme"].tenantform_tenant.this']);
    expect(doc.modules).toBeUndefined();
    expect(decodeDocument({ module: { customer: { source: './customer' } } }).modules).toEqual([['customer', { source: './customer' }]]);
  });

  it('reads the terraform settings from one block or a list of them; the backend from one block', () => {
    const listed = decodeDocument({
      terraform: [{ required_version: '>= 1.5' }, { required_version: ['< 2'], required_providers: { tenantform: { source: 'x/y' } } }],
    });
    expect(listed.terraform).toEqual({ requiredVersions: ['>= 1.5', '< 2'], requiredProviders: [{ tenantform: { source: 'x/y' } }], backend: undefined });
    const single = decodeDocument({ terraform: { backend: { local: { path: 's.tfstate' } }, required_providers: [{ tenantform: {} }] } });
    expect(single.terraform).toEqual({ requiredVersions: [], requiredProviders: [{ tenantform: {} }], backend: { local: { path: 's.tfstate' } } });
  });

  it("reads tenantform's provider blocks as cdktf writes them (a list) and as hand-written JSON may (one object)", () => {
    expect(decodeDocument({ provider: { tenantform: [{}, { alias: 'eu' }] } }).providers).toEqual([{}, { alias: 'eu' }]);
    expect(decodeDocument({ provider: { tenantform: { alias: 'eu' } } }).providers).toEqual([{ alias: 'eu' }]);
    expect(decodeDocument({}).providers).toEqual([]);
  });

  it('reports a block tenantform does not carry out, and a block kind that names no block', () => {
    const problems = documentShapeProblems({ ephemeral: {}, variable: {}, resource: { tenantform_tenant: {} } });
    expect(problems.map((p) => [p.code, p.address])).toEqual([
      ['unsupported_block', 'ephemeral'],
      ['missing_block_label', 'variable'],
      ['missing_block_label', 'resource.tenantform_tenant'],
    ]);
  });
});
