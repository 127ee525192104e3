import { contextOf, evaluateTemplate, parseTemplate, referencesOf, SensitiveValue, toPlain, UNKNOWN, type EvalContext, type Value } from './index';

const context = contextOf({
  var: { name: 'web', tenants: ['a', 'b'], secret: new SensitiveValue('s3cret') },
  local: { window: { start: '22:00', end: '04:00' } },
  tenantform_tenant: { root: { id: UNKNOWN, name: 'root' } },
});

function valueOf(source: string, ctx: EvalContext = context): Value {
  const result = evaluateTemplate(source, ctx);
  if ('problem' in result) throw new Error(`${source}: ${result.problem.message}`);
  return result.value;
}

describe('the public API', () => {
  it('keeps a string without interpolations literal and processes its escapes', () => {
    expect(valueOf('plain ${"$"}{text}')).toBe('plain ${text}');
    expect(valueOf('a $${b} %%{c}')).toBe('a ${b} %{c}');
  });

  it('keeps the type of a string that is exactly one interpolation', () => {
    expect(valueOf('${length(var.tenants)}')).toBe(2);
    expect(toPlain(valueOf('${toset(var.tenants)}'))).toEqual(['a', 'b']);
  });

  it('evaluates what a cdktf app synthesizes', () => {
    expect(valueOf('${jsonencode(local.window)}')).toBe('{"end":"04:00","start":"22:00"}');
    expect(valueOf('tenant-${var.name}')).toBe('tenant-web');
  });

  it('lists the references an expression uses, without for-expression variables', () => {
    const parsed = parseTemplate(
      '${[for t in var.tenants : "${t}-${tenantform_tenant.root.id}" if t != local.skip[0]]} ${data.x.y.attr} ${each.value} ${count.index}',
    );
    if ('problem' in parsed) throw new Error(parsed.problem.message);
    expect(referencesOf(parsed.expr).map((r) => [r.root, ...r.steps].join('.'))).toEqual([
      'var.tenants',
      'tenantform_tenant.root.id',
      'local.skip.0',
      'data.x.y.attr',
      'each.value',
      'count.index',
    ]);
  });

  it('stops a reference at a dynamic index', () => {
    const parsed = parseTemplate('${tenantform_tenant.a[count.index].id}');
    if ('problem' in parsed) throw new Error(parsed.problem.message);
    expect(referencesOf(parsed.expr).map((r) => [r.root, ...r.steps].join('.'))).toEqual(['tenantform_tenant.a', 'count.index']);
  });

  it('propagates unknown values', () => {
    expect(valueOf('${tenantform_tenant.root.id}')).toBe(UNKNOWN);
    expect(valueOf('id-${tenantform_tenant.root.id}')).toBe(UNKNOWN);
    expect(valueOf('${upper(tenantform_tenant.root.id)}')).toBe(UNKNOWN);
    expect(valueOf('${length([tenantform_tenant.root.id, 1])}')).toBe(2);
  });

  it('keeps a sensitive mark on everything computed from a sensitive value', () => {
    expect(valueOf('${var.secret}')).toBeInstanceOf(SensitiveValue);
    expect(valueOf('Bearer ${var.secret}')).toEqual(new SensitiveValue('Bearer s3cret'));
    expect(valueOf('${upper(var.secret)}')).toEqual(new SensitiveValue('S3CRET'));
    expect(valueOf('${nonsensitive(var.secret)}')).toBe('s3cret');
  });

  it('returns problems as data', () => {
    expect(parseTemplate('${1 +}')).toMatchObject({ problem: { code: 'syntax_error' } });
    expect(evaluateTemplate('${foo(1)}', context)).toMatchObject({ problem: { code: 'unsupported_function', construct: 'foo' } });
    expect(evaluateTemplate('${var.missing}', context)).toMatchObject({ problem: { code: 'invalid_index' } });
    expect(evaluateTemplate('${nothing.here}', context)).toMatchObject({ problem: { code: 'unknown_reference', construct: 'nothing' } });
  });

  it('refuses an expression nested 10,000 levels deep without crashing', () => {
    for (const source of [
      '${' + '('.repeat(10000) + '1' + ')'.repeat(10000) + '}',
      '${' + '['.repeat(10000) + ']'.repeat(10000) + '}',
      '${' + '-'.repeat(10000) + '1}',
      '${' + Array(10000).fill('1').join('+') + '}',
      '${a' + '.b'.repeat(10000) + '}',
    ]) {
      expect(parseTemplate(source)).toMatchObject({ problem: { code: 'too_deep' } });
    }
    expect(evaluateTemplate('${jsondecode("' + '['.repeat(10000) + ']'.repeat(10000) + '")}', context)).toMatchObject({
      problem: { code: 'invalid_argument' },
    });
  });
});
