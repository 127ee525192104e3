import { contextOf, evaluateConfigValue, referencesInConfigValue, toPlain, UNKNOWN } from './index';

const context = contextOf({ var: { name: 'web', n: 2 }, tenantform_tenant: { root: { id: UNKNOWN } } });

describe('configuration values with templates inside', () => {
  it('evaluates every string at any depth and keeps other values literal', () => {
    const result = evaluateConfigValue({ name: 'tenant-${var.name}', size: '${var.n * 2}', tags: ['a', '${upper(var.name)}'], on: true, none: null }, context);
    if ('problem' in result) throw new Error(result.problem.message);
    expect(toPlain(result.value)).toEqual({ name: 'tenant-web', size: 4, tags: ['a', 'WEB'], on: true, none: null });
  });

  it('keeps unknown values where they are', () => {
    const result = evaluateConfigValue({ parent: { id: '${tenantform_tenant.root.id}' }, name: 'x' }, context);
    expect(result).toEqual({ value: { parent: { id: UNKNOWN }, name: 'x' } });
  });

  it('reports a problem with the path of the string that failed', () => {
    expect(evaluateConfigValue({ a: [{ b: '${nope(1)}' }] }, context)).toMatchObject({
      problem: { code: 'unsupported_function', construct: 'nope', path: ['a', 0, 'b'] },
    });
    expect(evaluateConfigValue({ a: { b: '${' } }, context)).toMatchObject({ problem: { code: 'syntax_error', path: ['a', 'b'] } });
  });

  it('lists the references of every string with its path', () => {
    const result = referencesInConfigValue({ a: '${var.name}', b: [{ c: 'x-${tenantform_tenant.root.id}' }] });
    if ('problem' in result) throw new Error(result.problem.message);
    expect(result.value.map((r) => [[r.root, ...r.steps].join('.'), r.path])).toEqual([
      ['var.name', ['a']],
      ['tenantform_tenant.root.id', ['b', 0, 'c']],
    ]);
  });

  it('refuses values nested past the limit instead of overflowing the stack', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10000; i++) deep = [deep];
    expect(evaluateConfigValue(deep, context)).toMatchObject({ problem: { code: 'too_deep' } });
    expect(referencesInConfigValue(deep)).toMatchObject({ problem: { code: 'too_deep' } });
  });
});
