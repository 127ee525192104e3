/**
 * DynamicValue ↔ State. Terraform sends and expects msgpack objects holding every attribute
 * of the schema (nil for null); an unknown value is a msgpack extension (type 0, or type 12 for
 * a "refined" unknown carrying a known prefix), and every extension is read as Unknown.
 * Values are conformed to the declared types on the way in and on the way out, so a kind
 * never sees a decimal string where it declared a number, and Terraform never sees a
 * missing attribute.
 */
import { decode, encode, ExtData } from '@msgpack/msgpack';
import { attributeList, type Attribute, type Attributes } from '../resources/attributes';
import type { State } from '../resources/declaration';
import { Unknown } from '../resources/values';
import type { DynamicValue } from './messages';

export type { DynamicValue } from './messages';

/** The three bytes Terraform reads as an unknown value. */
const UNKNOWN_EXT = new ExtData(0, new Uint8Array([0]));
const NIL = Buffer.from([0xc0]);

/** Decodes raw msgpack, with every extension value as Unknown. */
export function decodeMsgpack(bytes: Uint8Array): unknown {
  return extensionsAsUnknown(decode(bytes));
}

function extensionsAsUnknown(v: unknown): unknown {
  // The library turns extension -1 into a Date; Terraform never sends one, so it is unknown too.
  if (v instanceof ExtData || v instanceof Date) return Unknown;
  if (Array.isArray(v)) return v.map(extensionsAsUnknown);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), extensionsAsUnknown(x)]));
  if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, extensionsAsUnknown(x)]));
  }
  return v;
}

/** The untyped value a DynamicValue carries; undefined when it carries nothing. */
export function decodeRaw(value: DynamicValue | null | undefined): unknown {
  if (!value) return undefined;
  if (value.msgpack && value.msgpack.length > 0) return decodeMsgpack(value.msgpack);
  if (value.json && value.json.length > 0) return JSON.parse(Buffer.from(value.json).toString('utf8'));
  return undefined;
}

/**
 * A resource or data source object from a DynamicValue: every attribute present, nested
 * objects complete, numbers as numbers. Null when Terraform sent null (gone, or destroyed).
 */
export function decodeState(attributes: Attributes, value: DynamicValue | null | undefined): State | null {
  const raw = decodeRaw(value);
  if (raw === undefined || raw === null) return null;
  if (raw === Unknown) return Object.fromEntries(Object.keys(attributes).map((name) => [name, Unknown]));
  return conformObject(attributes, raw as Record<string, unknown>);
}

/** Same conformance for a plain object (for example JSON state read from a file). */
export function conformObject(attributes: Attributes, input: Record<string, unknown>): State {
  const out: State = {};
  for (const { name, attribute: a } of attributeList(attributes)) out[name] = conformValue(a, input[name], name);
  return out;
}

function conformValue(a: Attribute, v: unknown, path: string): unknown {
  if (v === undefined || v === null) return null;
  if (v === Unknown) return Unknown;
  switch (a.type) {
    case 'string':
    case 'json':
      if (typeof v === 'string') return v;
      if (typeof v === 'number' || typeof v === 'boolean') return String(v);
      break;
    case 'number':
      if (typeof v === 'number') return v;
      if (typeof v === 'bigint') return Number(v);
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
      break;
    case 'bool':
      if (typeof v === 'boolean') return v;
      if (v === 'true' || v === 'false') return v === 'true';
      break;
    case 'list':
      if (Array.isArray(v)) return v.map((item, i) => conformElement(item, `${path}[${i}]`));
      break;
    case 'object':
      if (typeof v === 'object') return conformObject(a.attributes, v as Record<string, unknown>);
      break;
    case 'nested': {
      const one = (item: unknown, at: string): unknown => {
        if (item === Unknown || item === null || item === undefined) return item ?? null;
        if (typeof item === 'object' && !Array.isArray(item)) return conformObject(a.attributes, item as Record<string, unknown>);
        throw new TypeError(`${at}: expected an object, found ${typeof item}`);
      };
      if (a.nesting !== 'map' && Array.isArray(v)) return v.map((item, i) => one(item, `${path}[${i}]`));
      if (a.nesting === 'map' && typeof v === 'object' && !Array.isArray(v)) {
        return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, item]) => [k, one(item, `${path}[${JSON.stringify(k)}]`)]));
      }
      break;
    }
  }
  throw new TypeError(`${path}: expected ${a.type}, found ${typeof v === 'object' ? 'an object' : typeof v}`);
}

/** List elements are strings in every declared list. */
function conformElement(v: unknown, path: string): unknown {
  if (v === null || v === undefined) return null;
  if (v === Unknown || typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new TypeError(`${path}: expected a string, found ${typeof v === 'object' ? 'an object' : typeof v}`);
}

/** A State as the msgpack DynamicValue Terraform expects; null encodes as nil. */
export function encodeState(attributes: Attributes, state: State | null | undefined): { msgpack: Buffer } {
  if (state === null || state === undefined) return { msgpack: NIL };
  return { msgpack: encodeMsgpack(toWire(attributes, state)) };
}

/** A value not known yet, as a whole (an object of any schema). */
export function encodeUnknown(): { msgpack: Buffer } {
  return { msgpack: encodeMsgpack(UNKNOWN_EXT) };
}

export function encodeMsgpack(value: unknown): Buffer {
  const bytes = encode(value);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function toWire(attributes: Attributes, state: State): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, attribute: a } of attributeList(attributes)) out[name] = wireValue(a, state[name], name);
  return out;
}

function wireValue(a: Attribute, v: unknown, path: string): unknown {
  if (v === undefined || v === null) return null;
  if (v === Unknown) return UNKNOWN_EXT;
  const conformed = conformValue(a, v, path);
  if (a.type === 'list') return (conformed as unknown[]).map((item) => (item === Unknown ? UNKNOWN_EXT : item));
  if (a.type === 'object') return toWire(a.attributes, conformed as State);
  if (a.type === 'nested') {
    const one = (item: unknown) => (item === Unknown ? UNKNOWN_EXT : item === null ? null : toWire(a.attributes, item as State));
    return a.nesting === 'map'
      ? Object.fromEntries(Object.entries(conformed as Record<string, unknown>).map(([k, item]) => [k, one(item)]))
      : (conformed as unknown[]).map(one);
  }
  return conformed;
}

/** Replaces Unknown with null: what an operation receives for values decided by the platform. */
export function unknownsAsNull(state: State): State {
  const out: State = {};
  for (const [k, v] of Object.entries(state)) out[k] = stripUnknown(v);
  return out;
}

function stripUnknown(v: unknown): unknown {
  if (v === Unknown) return null;
  if (Array.isArray(v)) return v.map(stripUnknown);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stripUnknown(x)]));
  return v;
}
