import { expressionDiagnostic } from './diagnostic';
import { contextOf, evaluateTemplate, SensitiveValue } from './index';

function diagnosticFor(source: string, roots: Record<string, unknown> = {}) {
  const result = evaluateTemplate(source, contextOf(roots));
  if (!('problem' in result)) throw new Error('expected a problem');
  return expressionDiagnostic(result.problem, 'tenantform_tenant.a', ['name'], source);
}

describe('diagnostics of expression problems', () => {
  it('names the address, the attribute path and the function, with the cdktf deploy way out', () => {
    const d = diagnosticFor('${timestamp()}');
    expect(d).toMatchObject({ severity: 'error', address: 'tenantform_tenant.a', path: ['name'], code: 'unsupported_function' });
    expect(d.summary).toBe('Unsupported function: timestamp');
    expect(d.detail).toContain('(in `timestamp()`)');
    expect(d.detail).toContain('cdktf deploy');
  });

  it('explains a failing value without pointing at Terraform', () => {
    const d = diagnosticFor('${upper(null)}');
    expect(d.summary).toBe('Invalid function argument: upper');
    expect(d.detail).not.toContain('cdktf deploy');
  });

  it('never quotes a sensitive value', () => {
    const d = diagnosticFor('${tonumber(var.secret)}', { var: { secret: new SensitiveValue('hunter2') } });
    expect(JSON.stringify(d)).not.toContain('hunter2');
  });
});
