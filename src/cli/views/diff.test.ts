import { Unknown } from '../../resources/values';
import { driftLines, formatValue, jsonStructure, leafChanges, scrubSecrets, semanticallyEqual } from './diff';

describe('attribute diff', () => {
  it('compares JSON text by meaning', () => {
    expect(semanticallyEqual('{"a":1,"b":{"c":[1,2]}}', '{ "b": { "c": [1, 2] }, "a": 1 }')).toBe(true);
    expect(semanticallyEqual('{"a":1}', '{"a":2}')).toBe(false);
    expect(leafChanges('{"a":1,"b":2}', '{"b":2,"a":1}')).toEqual([]);
  });

  it('opens objects down to their leaves', () => {
    expect(leafChanges({ a: { b: 1, c: 2 } }, { a: { b: 1, c: 3 }, d: { e: true } })).toEqual([
      { path: ['a', 'c'], kind: 'change', before: 2, after: 3, forcesReplacement: false },
      { path: ['d', 'e'], kind: 'add', before: null, after: true, forcesReplacement: false },
    ]);
  });

  it('shows a changed list of scalars whole', () => {
    expect(leafChanges({ tags: ['a'] }, { tags: ['a', 'b'] })).toEqual([
      { path: ['tags'], kind: 'change', before: ['a'], after: ['a', 'b'], forcesReplacement: false },
    ]);
  });

  it('only treats strings holding objects or lists as JSON', () => {
    expect(jsonStructure('{"a":1}')).toEqual({ a: 1 });
    expect(jsonStructure('[1]')).toEqual([1]);
    expect(jsonStructure('42')).toBeUndefined();
    expect(jsonStructure('{not json')).toBeUndefined();
  });

  it('formats unknown values', () => {
    expect(formatValue(Unknown)).toBe('(known after apply)');
    expect(formatValue(['a', Unknown])).toBe('["a", (known after apply)]');
  });

  it('masks sensitive drift and secrets inside free text', () => {
    expect(driftLines([{ path: ['secret'], state: 'x', live: 'y' }], new Set(['secret']))).toEqual([
      { path: ['secret'], state: 'x', live: 'y', sensitive: true },
    ]);
    expect(scrubSecrets('token abcd-1234 leaked', ['abcd-1234'])).toBe('token (sensitive value) leaked');
  });
});
