import fc from 'fast-check';
import { hasOwn, isBlank, ownValue, parsePlainJson, toPlainTree } from './plain-json';

describe('plain JSON', () => {
  it('keeps toString, constructor and __proto__ as ordinary keys, never inherited ones', () => {
    const v = parsePlainJson('{"__proto__": {"polluted": true}, "constructor": 1, "a": {"b": 2}}') as Record<string, unknown>;
    expect('toString' in v || 'hasOwnProperty' in v).toBe(false);
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor', 'a']);
    expect(ownValue(v, '__proto__')).toEqual({ polluted: true });
    expect(ownValue(v, 'toString')).toBeUndefined();
    expect(hasOwn(v, 'toString')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps the order of keys and items', () => {
    expect(JSON.stringify(parsePlainJson('{"z":1,"a":[3,2,{"y":1,"b":2}],"m":null}'))).toBe('{"z":1,"a":[3,2,{"y":1,"b":2}],"m":null}');
  });

  it('names the path where a document nests too deeply, without exhausting the stack', () => {
    const deep = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const tree = toPlainTree(JSON.parse(deep), 5);
    expect(tree).toEqual({ tooDeep: ['a', 0, 0, 0, 0] });
    expect(() => parsePlainJson(deep)).toThrow(/nested more than 64 levels deep at a\.0\.0/);
  });

  it('lets a caller stand in its own value for an object', () => {
    const marker = Symbol('m');
    const v = parsePlainJson('{"x":{"$mark":1},"y":[{"$mark":1}]}', 64, (o) => (ownValue(o, '$mark') === 1 ? marker : undefined));
    expect(v).toEqual({ x: marker, y: [marker] });
  });

  it('calls a text blank exactly when trimming it leaves nothing, whatever whitespace it holds', () => {
    // Every character String.prototype.trim removes, and a few it keeps.
    const characters = [...' \t\n\v\f\r\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff', 'x', '{', '\u200b', '\u0085'];
    const texts = fc.array(fc.constantFrom(...characters), { maxLength: 12 }).map((cs) => cs.join(''));
    fc.assert(fc.property(texts, (text) => isBlank(text) === (text.trim() === '')));
    expect(isBlank('')).toBe(true);
    expect(isBlank(' \n{"version": 4}\n')).toBe(false);
  });
});
