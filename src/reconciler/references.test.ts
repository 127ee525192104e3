import { TenantformError } from '../errors';
import { Unknown } from '../resources/values';
import { findReferences, parseReference, resolveReferences, splitTemplate } from './references';

const values: Record<string, Record<string, unknown>> = {
  'data.tenantform_tenant.acme': { id: 'tenant-1', name: 'Acme' },
  'tenantform_infra_component.primary': { id: Unknown, version: 3, capabilities: ['backup'] },
};
const lookup = (target: string, path: ReadonlyArray<string | number>) => {
  let v: unknown = values[target];
  for (const step of path) v = v === undefined || v === Unknown ? v : (v as Record<string | number, unknown>)[step];
  return v;
};

describe('references', () => {
  it('parses resource and data source references, with attribute paths', () => {
    expect(parseReference('${tenantform_infra_component.primary.id}')).toEqual({ target: 'tenantform_infra_component.primary', attribute: ['id'] });
    expect(parseReference('${data.tenantform_tenant.acme.id}')).toEqual({ target: 'data.tenantform_tenant.acme', attribute: ['id'] });
    expect(parseReference('${tenantform_usage_report.r.parameters.tenant_id}')?.attribute).toEqual(['parameters', 'tenant_id']);
    expect(parseReference('${tenantform_infra_component.primary.capabilities[0]}')?.attribute).toEqual(['capabilities', 0]);
    expect(parseReference('${var.region}')).toBeUndefined();
    expect(parseReference('${local.name.x}')).toBeUndefined();
    expect(parseReference('${upper(data.tenantform_tenant.acme.name)}')).toBeUndefined();
  });

  it('keeps Terraform escapes literal', () => {
    expect(splitTemplate('cost $${5} and %%{x}')).toEqual([{ literal: 'cost ${5} and %{x}' }]);
    expect(resolveReferences('a $${b}', lookup)).toBe('a ${b}');
  });

  it('resolves whole strings to the value itself, and embedded references as text', () => {
    expect(resolveReferences('${tenantform_infra_component.primary.version}', lookup)).toBe(3);
    expect(resolveReferences('${tenantform_infra_component.primary.capabilities}', lookup)).toEqual(['backup']);
    expect(resolveReferences('tenant ${data.tenantform_tenant.acme.name} (${data.tenantform_tenant.acme.id})', lookup)).toBe('tenant Acme (tenant-1)');
    expect(resolveReferences({ list: ['${data.tenantform_tenant.acme.id}'], nested: { n: 1 } }, lookup)).toEqual({ list: ['tenant-1'], nested: { n: 1 } });
  });

  it('is unknown until the referenced object exists', () => {
    expect(resolveReferences('${tenantform_infra_component.primary.id}', lookup)).toBe(Unknown);
    expect(resolveReferences('https://x/${tenantform_infra_component.primary.id}', lookup)).toBe(Unknown);
    expect(resolveReferences('${tenantform_infra_component.other.id}', lookup)).toBe(Unknown);
  });

  it('lists references with where they sit', () => {
    const refs = findReferences({ a: ['x', '${data.tenantform_tenant.acme.id}'], b: { c: 'p ${tenantform_infra_component.primary.id}' } }, 'tenantform_x.y');
    expect(refs).toEqual([
      { target: 'data.tenantform_tenant.acme', attribute: ['id'], at: ['a', 1] },
      { target: 'tenantform_infra_component.primary', attribute: ['id'], at: ['b', 'c'] },
    ]);
  });

  it('refuses any other expression, naming the address and path and pointing at cdktf deploy', () => {
    let error: unknown;
    try {
      findReferences({ window: { days: ['${var.days}'] } }, 'tenantform_agent_update_settings.acme');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TenantformError);
    const d = (error as TenantformError).toDiagnostic();
    expect(d).toMatchObject({ code: 'unsupported_expression', address: 'tenantform_agent_update_settings.acme', path: ['window', 'days', 0] });
    expect(d.detail).toContain('${var.days}');
    expect(d.detail).toContain('cdktf deploy');
    expect(() => findReferences('${jsonencode({a = 1})}', 'a.b')).toThrow('Unsupported expression');
    expect(() => findReferences('%{ if true }x%{ endif }', 'a.b')).toThrow('Unsupported expression');
  });
});
