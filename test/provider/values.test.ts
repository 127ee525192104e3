import { encode, ExtData } from '@msgpack/msgpack';
import { attr, type Attributes } from '../../src/resources/attributes';
import { Unknown } from '../../src/resources/values';
import { decodeMsgpack, decodeState, encodeState, unknownsAsNull } from '../../src/provider/values';
import { z } from 'zod';

const attributes = {
  id: attr.string({ mode: 'computed', description: 'id' }),
  name: attr.string({ mode: 'required', description: 'name' }),
  size: attr.number({ mode: 'optional', description: 'size' }),
  enabled: attr.bool({ mode: 'optional', description: 'enabled' }),
  value: attr.json({ mode: 'optional', description: 'value' }),
  tags: attr.list(z.string(), { mode: 'optional', description: 'tags' }),
  window: attr.object(
    {
      from: attr.string({ mode: 'required', description: 'from' }),
      days: attr.list(z.string(), { mode: 'required', description: 'days' }),
    },
    { mode: 'optional', description: 'window' },
  ),
} satisfies Attributes;

const msgpack = (v: unknown) => ({ msgpack: Buffer.from(encode(v)) });

describe('DynamicValue decoding', () => {
  test('fills every attribute of the schema, null where absent or nil', () => {
    expect(decodeState(attributes, msgpack({ name: 'a', size: null }))).toEqual({
      id: null,
      name: 'a',
      size: null,
      enabled: null,
      value: null,
      tags: null,
      window: null,
    });
  });

  test('nil at the top is null (gone, or destroyed); an empty value too', () => {
    expect(decodeState(attributes, { msgpack: Buffer.from([0xc0]) })).toBeNull();
    expect(decodeState(attributes, {})).toBeNull();
    expect(decodeState(attributes, undefined)).toBeNull();
  });

  test('extension type 0 and any other extension (12: refined unknown) are Unknown, at any depth', () => {
    const unknown = new ExtData(0, new Uint8Array([0]));
    const refined = new ExtData(12, new Uint8Array([0x81, 0x02, 0xa3, 0x61, 0x62, 0x63]));
    const decoded = decodeState(attributes, msgpack({ id: unknown, name: refined, tags: ['x', unknown], window: { from: refined, days: unknown } }));
    expect(decoded).toMatchObject({ id: Unknown, name: Unknown, tags: ['x', Unknown], window: { from: Unknown, days: Unknown } });
    expect(decodeMsgpack(Buffer.from([0xd4, 0x00, 0x00]))).toBe(Unknown);
  });

  test('numbers as integers, float64 and decimal strings', () => {
    expect(decodeState(attributes, msgpack({ name: 'a', size: 42 }))?.size).toBe(42);
    expect(decodeState(attributes, msgpack({ name: 'a', size: 1.5 }))?.size).toBe(1.5);
    // The number a 20-digit string becomes, rounded as JavaScript rounds it.
    // eslint-disable-next-line no-loss-of-precision
    expect(decodeState(attributes, msgpack({ name: 'a', size: '12345678901234567890' }))?.size).toBe(12345678901234567890);
    expect(decodeState(attributes, msgpack({ name: 'a', size: -7 }))?.size).toBe(-7);
  });

  test('nested objects are completed with every attribute', () => {
    expect(decodeState(attributes, msgpack({ name: 'a', window: { from: '01:00' } }))?.window).toEqual({ from: '01:00', days: null });
  });

  test('a json DynamicValue is accepted (for example RawState)', () => {
    const json = Buffer.from(JSON.stringify({ name: 'a', size: 3, tags: ['t'], obsolete: true }));
    expect(decodeState(attributes, { json })).toEqual({ id: null, name: 'a', size: 3, enabled: null, value: null, tags: ['t'], window: null });
  });

  test('a value of the wrong type is refused with its path', () => {
    expect(() => decodeState(attributes, msgpack({ name: 'a', window: { from: '1', days: 'MONDAY' } }))).toThrow(/days/);
    expect(() => decodeState(attributes, msgpack({ name: 'a', size: 'many' }))).toThrow(/size/);
  });
});

describe('DynamicValue encoding', () => {
  test('Unknown is the three bytes d4 00 00; null is nil; every attribute is present', () => {
    const { msgpack: bytes } = encodeState(attributes, { name: 'a', id: Unknown });
    const hex = bytes.toString('hex');
    expect(hex).toContain(Buffer.from('id').toString('hex') + 'd40000');
    const back = decodeMsgpack(bytes) as Record<string, unknown>;
    expect(Object.keys(back).sort()).toEqual(Object.keys(attributes).sort());
    expect(back).toMatchObject({ id: Unknown, name: 'a', size: null, window: null });
  });

  test('a null state encodes as nil', () => {
    expect(encodeState(attributes, null).msgpack).toEqual(Buffer.from([0xc0]));
  });

  test('round trip of known values, including nested objects and lists with unknowns', () => {
    const state = {
      id: 'x',
      name: 'a',
      size: 2.25,
      enabled: false,
      value: '{"b":1,"a":[2]}',
      tags: ['p', Unknown],
      window: { from: '01:00', days: ['MONDAY'] },
    };
    expect(decodeState(attributes, encodeState(attributes, state))).toEqual(state);
  });

  test('unknownsAsNull gives operations plain values', () => {
    expect(unknownsAsNull({ id: Unknown, tags: ['a', Unknown], window: { from: Unknown, days: [] } })).toEqual({
      id: null,
      tags: ['a', null],
      window: { from: null, days: [] },
    });
  });
});
