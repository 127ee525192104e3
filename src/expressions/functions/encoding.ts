import { createHash } from 'node:crypto';
import { MAX_DEPTH } from '../problems';
import { objectOf, toJson, type Value } from '../values';
import { callFailed, define, type Call } from './spec';

function digest(algorithm: string, encoding: 'hex' | 'base64') {
  return define({
    params: [['str', 'string']],
    body: ([s]) => createHash(algorithm).update(s, 'utf8').digest(encoding),
  });
}

/** Parsed JSON as a value; deeper than MAX_DEPTH is refused so later steps never recurse without bound. */
function fromJson(data: unknown, call: Call, depth = 0): Value {
  if (depth > MAX_DEPTH) callFailed(call, `the JSON is nested more than ${MAX_DEPTH} levels deep.`);
  if (Array.isArray(data)) return data.map((x) => fromJson(x, call, depth + 1));
  if (data !== null && typeof data === 'object') return objectOf(Object.entries(data).map(([k, x]) => [k, fromJson(x, call, depth + 1)]));
  return typeof data === 'string' ? data.normalize('NFC') : (data as Value);
}

const UUID_NAMESPACES: Record<string, string> = {
  dns: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  url: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  oid: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  x500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
};

function uuidv5(namespace: string, name: string, call: Call): string {
  const ns = (UUID_NAMESPACES[namespace] ?? namespace).replace(/^urn:uuid:|[{}]/g, '');
  if (!/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(ns))
    callFailed(call, `uuidv5() doesn't support namespace "${namespace}"; use dns, url, oid, x500 or a UUID.`);
  const hash = createHash('sha1')
    .update(Buffer.from(ns.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const encodingFunctions = {
  jsonencode: define({
    params: [['val', 'any']],
    body: ([v], _, call) => {
      try {
        return toJson(v);
      } catch (e) {
        return callFailed(call, (e as Error).message.replace(/^toJson: /, ''));
      }
    },
  }),
  jsondecode: define({
    params: [['str', 'string']],
    body: ([s], _, call) => {
      let data: unknown;
      try {
        data = JSON.parse(s);
      } catch (e) {
        return callFailed(call, `the string is not valid JSON: ${(e as Error).message}`);
      }
      return fromJson(data, call);
    },
  }),
  base64encode: define({
    params: [['str', 'string']],
    body: ([s]) => Buffer.from(s, 'utf8').toString('base64'),
  }),
  base64decode: define({
    params: [['str', 'string']],
    body: ([s], _, call) => {
      if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) callFailed(call, 'failed to decode base64 data.');
      const bytes = Buffer.from(s, 'base64');
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        return callFailed(call, 'the result of decoding the provided string is not valid UTF-8.');
      }
    },
  }),
  urlencode: define({
    params: [['str', 'string']],
    body: ([s]) =>
      encodeURIComponent(s)
        .replace(/%20/g, '+')
        .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  }),
  md5: digest('md5', 'hex'),
  sha1: digest('sha1', 'hex'),
  sha256: digest('sha256', 'hex'),
  sha512: digest('sha512', 'hex'),
  base64sha256: digest('sha256', 'base64'),
  base64sha512: digest('sha512', 'base64'),
  uuidv5: define({
    params: [
      ['namespace', 'string'],
      ['name', 'string'],
    ],
    body: ([ns, name], _, call) => uuidv5(ns, name, call),
  }),
};
