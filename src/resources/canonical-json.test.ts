import fc from 'fast-check';
import { canonicalJson } from './values';

/** What canonicalJson must write: JSON.stringify of a copy with sorted keys, without `omit`. */
function sortedCopy(value: unknown, omit?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => sortedCopy(v, omit));
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => k !== omit)
      .sort();
    return Object.fromEntries(keys.map((k) => [k, sortedCopy((value as Record<string, unknown>)[k], omit)]));
  }
  return value;
}

describe('canonicalJson', () => {
  it('writes the text of a sorted copy, for any JSON value (configuration hashes stay the same)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, '//', 'a'), (value, omit) => {
        expect(canonicalJson(value, omit)).toBe(JSON.stringify(sortedCopy(value, omit)));
      }),
      { numRuns: 1000 },
    );
  });

  it('sorts keys at every level and leaves out the omitted key everywhere', () => {
    const value = { b: [{ z: 1, '//': 'meta', a: null }], a: { '//': { x: 1 }, c: 'x' } };
    expect(canonicalJson(value, '//')).toBe('{"a":{"c":"x"},"b":[{"a":null,"z":1}]}');
  });

  it('writes array-index keys first, in numeric order, as JavaScript orders them', () => {
    expect(canonicalJson({ b: 1, '10': 2, a: 3, '9': 4, '4294967295': 5 })).toBe('{"9":4,"10":2,"4294967295":5,"a":3,"b":1}');
  });

  it('leaves out what JSON.stringify leaves out, and writes null for it in a list', () => {
    expect(canonicalJson({ b: undefined, a: [undefined, () => 1, 2] })).toBe('{"a":[null,null,2]}');
  });
});
