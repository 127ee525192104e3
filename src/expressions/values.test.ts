import { containsSensitive, formatNumber, fromPlain, SensitiveValue, SetValue, toJson, toPlain, UNKNOWN, unmarkDeep, valuesEqual } from './index';

describe('values', () => {
  it('writes numbers as Terraform does: no exponent, integers exact, -0 kept', () => {
    expect(formatNumber(1e21)).toBe('1000000000000000000000');
    expect(formatNumber(1.5e-7)).toBe('0.00000015');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
    expect(formatNumber(-0)).toBe('-0');
    expect(formatNumber(Infinity)).toBe('+Inf');
  });

  it('orders set elements as Terraform lists them and drops duplicates', () => {
    expect(new SetValue(['b', 'a', 'b']).elements).toEqual(['a', 'b']);
    expect(new SetValue([10, 9, -1]).elements).toEqual([-1, 9, 10]);
    expect(new SetValue([true, false]).elements).toEqual([false, true]);
  });

  it('compares deeply without converting types', () => {
    expect(valuesEqual({ a: [1, 'x'] }, { a: [1, 'x'] })).toBe(true);
    expect(valuesEqual(1, '1')).toBe(false);
    expect(valuesEqual(new SetValue([1, 2]), new SetValue([2, 1]))).toBe(true);
    expect(valuesEqual(new SensitiveValue('a'), 'a')).toBe(true);
  });

  it('converts to and from plain JSON data', () => {
    const value = fromPlain({ list: [1, { b: null }], set: new SetValue(['y', 'x']), missing: undefined });
    expect(toPlain(value)).toEqual({ list: [1, { b: null }], set: ['x', 'y'], missing: null });
    expect(toJson(fromPlain({ b: 1, a: '<' }))).toBe('{"a":"\\u003c","b":1}');
    expect(() => toJson(UNKNOWN)).toThrow(/not known/);
    expect(fromPlain({ __proto__: 1 })).toEqual({});
    expect(Object.keys(fromPlain(JSON.parse('{"__proto__": 1}')) as object)).toEqual(['__proto__']);
  });

  it('finds and removes sensitive marks anywhere inside a value', () => {
    const value = fromPlain({ a: [new SensitiveValue('s')] });
    expect(containsSensitive(value)).toBe(true);
    expect(unmarkDeep(value)).toEqual({ a: ['s'] });
    expect(toPlain(value)).toEqual({ a: ['s'] });
  });
});
