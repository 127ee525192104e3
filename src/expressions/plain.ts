import { MAX_DEPTH } from './problems';
import { objectOf, SensitiveValue, SetValue, UNKNOWN, type Value } from './values';

/**
 * Plain data as a value: arrays become tuples, plain objects objects; values that already are
 * expression values (UNKNOWN, SetValue, SensitiveValue) pass through. `undefined` becomes null.
 */
export function fromPlain(data: unknown, depth = 0): Value {
  if (depth > MAX_DEPTH) throw new RangeError(`fromPlain: data nested more than ${MAX_DEPTH} levels deep`);
  if (data === undefined || data === null) return null;
  if (data === UNKNOWN || data instanceof SetValue || data instanceof SensitiveValue) return data;
  if (typeof data === 'string') return data.normalize('NFC');
  if (typeof data === 'number' || typeof data === 'boolean') return data;
  if (Array.isArray(data)) return data.map((x) => fromPlain(x, depth + 1));
  if (typeof data === 'object') return objectOf(Object.entries(data).map(([k, x]) => [k, fromPlain(x, depth + 1)]));
  throw new TypeError(`fromPlain: cannot represent a ${typeof data}`);
}
