import { containsSensitive, SensitiveValue, SetValue, toPlain, UNKNOWN } from './index';
import { problemOf, run } from './testing';

const roots = {
  var: { secret: new SensitiveValue('s3cret'), tenants: ['a', 'b'], settings: { name: 'n', token: new SensitiveValue('t') } },
  tenantform_tenant: { root: { id: UNKNOWN, name: 'root', tags: ['x', UNKNOWN] } },
  each: { key: 'k', value: { id: 'v' } },
  count: { index: 2 },
};

describe('evaluating expressions', () => {
  it('resolves roots, attributes, indexes and splats', () => {
    expect(run('each.value.id', roots)).toBe('v');
    expect(run('count.index + 1', roots)).toBe(3);
    expect(run('var.tenants[count.index - 1]', roots)).toBe('b');
    expect(toPlain(run('[{a = 1}, {a = 2}][*].a'))).toEqual([1, 2]);
    expect(run('toset(["b", "a"])[*]')).toEqual(['a', 'b']);
  });

  it('lets for-expression variables shadow roots only inside the expression', () => {
    expect(toPlain(run('[for var in [1, 2] : var * 10]', roots))).toEqual([10, 20]);
    expect(toPlain(run('{for k, v in {a = 1} : k => [for k in [v] : k + 1]}'))).toEqual({ a: [2] });
  });

  it('groups values with the same key when the value ends in ...', () => {
    expect(toPlain(run('{for s in ["ab", "ac", "b"] : substr(s, 0, 1) => s...}'))).toEqual({ a: ['ab', 'ac'], b: ['b'] });
    expect(problemOf('{for s in ["a", "a"] : s => s}')).toMatchObject({ code: 'invalid_operation', construct: 'for' });
  });

  describe('with values not known until apply', () => {
    it('makes results that depend on them unknown', () => {
      expect(run('tenantform_tenant.root.id', roots)).toBe(UNKNOWN);
      expect(run('tenantform_tenant.root.id == "x"', roots)).toBe(UNKNOWN);
      expect(run('"id=${tenantform_tenant.root.id}"', roots)).toBe(UNKNOWN);
      expect(run('tenantform_tenant.root.id != null ? 1 : 2', roots)).toBe(UNKNOWN);
      expect(run('[for t in tenantform_tenant.root.id : t]', roots)).toBe(UNKNOWN);
      expect(run('tenantform_tenant.root.id[0]', roots)).toBe(UNKNOWN);
      expect(run('jsonencode(tenantform_tenant.root)', roots)).toBe(UNKNOWN);
      expect(run('try(tenantform_tenant.root.id, "x")', roots)).toBe(UNKNOWN);
    });

    it('keeps what is known around them', () => {
      expect(run('tenantform_tenant.root.name', roots)).toBe('root');
      expect(run('length(tenantform_tenant.root.tags)', roots)).toBe(2);
      expect(run('merge({a = 1}, {id = tenantform_tenant.root.id})', roots)).toEqual({ a: 1, id: UNKNOWN });
      expect(run('[for t in tenantform_tenant.root.tags : t]', roots)).toEqual(['x', UNKNOWN]);
      expect(run('keys({a = tenantform_tenant.root.id})', roots)).toEqual(['a']);
      expect(run('true ? "known" : tenantform_tenant.root.id', roots)).toBe('known');
      expect(run('false && tenantform_tenant.root.id', roots)).toBe(false);
    });
  });

  describe('with sensitive values', () => {
    it('marks everything computed from them', () => {
      expect(run('var.secret', roots)).toEqual(new SensitiveValue('s3cret'));
      expect(run('"Bearer ${var.secret}"', roots)).toEqual(new SensitiveValue('Bearer s3cret'));
      expect(run('length(var.secret)', roots)).toEqual(new SensitiveValue(6));
      expect(run('var.secret == "x" ? "a" : "b"', roots)).toEqual(new SensitiveValue('b'));
      expect(run('[for c in [var.secret] : upper(c)]', roots)).toEqual([new SensitiveValue('S3CRET')]);
      expect(run('jsonencode(var.settings)', roots)).toEqual(new SensitiveValue('{"name":"n","token":"t"}'));
      expect(run('sensitive("x")', roots)).toEqual(new SensitiveValue('x'));
    });

    it('does not mark the parts of a collection that are not sensitive', () => {
      expect(run('var.settings.name', roots)).toBe('n');
      expect(run('var.settings.token', roots)).toEqual(new SensitiveValue('t'));
      expect(containsSensitive(run('[var.secret, "x"]', roots))).toBe(true);
      expect(run('[var.secret, "x"][1]', roots)).toBe('x');
      expect(run('nonsensitive(var.secret)', roots)).toBe('s3cret');
    });
  });

  it('never quotes a sensitive value in a problem', () => {
    for (const source of [
      'tonumber(var.secret)',
      '{a = 1}[var.secret]',
      'var.secret + 1',
      'regex("x", var.secret)',
      '"${var.secret}" == 1 ? 1 : tonumber(var.secret)',
    ])
      expect(JSON.stringify(problemOf(source, roots))).not.toContain('s3cret');
    expect(problemOf('tonumber(var.secret)', roots)).toMatchObject({ code: 'invalid_argument', construct: 'tonumber' });
  });

  it('returns problems naming what failed', () => {
    expect(problemOf('nope.x', roots)).toMatchObject({ code: 'unknown_reference', construct: 'nope' });
    expect(problemOf('each.value.missing', roots)).toMatchObject({ code: 'invalid_index', construct: '.missing' });
    expect(problemOf('var.tenants[5]', roots)).toMatchObject({ code: 'invalid_index' });
    expect(problemOf('toset([1])[0]')).toMatchObject({ code: 'invalid_index' });
    expect(problemOf('1 + "a"')).toMatchObject({ code: 'invalid_operation', construct: '+' });
    expect(problemOf('"x" ? 1 : 2')).toMatchObject({ code: 'invalid_type', construct: '?:' });
    expect(problemOf('timestamp()')).toMatchObject({ code: 'unsupported_function', construct: 'timestamp' });
    expect(problemOf('try(nope.x, 1)')).toMatchObject({ code: 'unknown_reference' });
    expect(problemOf('try(timestamp(), 1)')).toMatchObject({ code: 'unsupported_function' });
    expect(problemOf('upper("a", "b")')).toMatchObject({ code: 'invalid_argument', construct: 'upper' });
    expect(problemOf('concat([1]...)')).toMatchObject({ code: 'invalid_argument', construct: 'concat' });
  });

  it('expands the last argument over the parameters', () => {
    expect(run('max([3, 9, 2]...)')).toBe(9);
    expect(run('format("%s-%s", ["a", "b"]...)')).toBe('a-b');
    expect(run('max(tenantform_tenant.root.id...)', roots)).toBe(UNKNOWN);
  });

  it('makes sets with Terraform order and no duplicates', () => {
    expect(run('toset(["b", "a", "b"])')).toEqual(new SetValue(['a', 'b']));
  });
});
