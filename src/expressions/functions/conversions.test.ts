import { SensitiveValue, SetValue, toPlain, UNKNOWN } from '../index';
import { problemOf, run } from '../testing';

describe('type conversion functions', () => {
  it.each([
    ['tostring(1.5)', '1.5'],
    ['tostring(false)', 'false'],
    ['tostring(null)', null],
    ['tonumber("-2.5e1")', -25],
    ['tonumber(null)', null],
    ['tobool("false")', false],
  ])('%s is %j', (source, expected) => {
    expect(run(source)).toBe(expected);
  });

  it('builds lists, sets and maps with one element type', () => {
    expect(run('tolist([1, "a"])')).toEqual(['1', 'a']);
    expect(run('toset([2, 1, 2])')).toEqual(new SetValue([1, 2]));
    expect(toPlain(run('toset(["b", 1])'))).toEqual(['1', 'b']);
    expect(toPlain(run('tomap({a = true, b = "x"})'))).toEqual({ a: 'true', b: 'x' });
    expect(run('tolist(toset(["b", "a"]))')).toEqual(['a', 'b']);
    expect(run('tolist([x])', { x: UNKNOWN })).toEqual([UNKNOWN]);
  });

  it('refuses conversions Terraform refuses', () => {
    for (const source of [
      'tostring([])',
      'tonumber("0x1")',
      'tonumber(true)',
      'tobool("yes")',
      'tobool(1)',
      'tolist({})',
      'toset("a")',
      'tomap([])',
      'tolist([[1], "a"])',
    ])
      expect([source, problemOf(source).code]).toEqual([source, 'invalid_argument']);
  });

  it('marks and unmarks values as sensitive', () => {
    expect(run('sensitive(1)')).toEqual(new SensitiveValue(1));
    expect(run('nonsensitive(sensitive([1]))')).toEqual([1]);
    expect(run('issensitive(sensitive(1))')).toBe(true);
    expect(run('issensitive([sensitive(1)])')).toBe(false);
  });
});
