/**
 * JSON documents as plain data: objects without a prototype, so that names every JavaScript
 * object has (`toString`, `constructor`, `__proto__`) are never mistaken for keys, and a bound
 * on nesting, so that a document nested thousands of levels deep is refused with the place where
 * it gets too deep instead of exhausting the stack.
 */

/**
 * The prototype of plain-data objects: empty and frozen, so that no name is ever inherited.
 * An object with no prototype at all would do the same, but V8 keeps such objects as hash
 * tables, twice the memory and slower to read; objects over an empty prototype keep the
 * compact layout.
 */
const NOTHING_INHERITED: object = Object.freeze(Object.create(null) as object);

/** An empty object of plain data: its own keys only, never an inherited name. */
export function plainObject<T = unknown>(): Record<string, T> {
  return Object.create(NOTHING_INHERITED) as Record<string, T>;
}

/** The one empty list that many objects share instead of each holding its own (never changed: frozen). */
export const NO_ITEMS: readonly never[] = Object.freeze([]);

/** An empty list shared, or the list itself when it has items. */
export function sharedIfEmpty<T>(items: readonly T[]): readonly T[] {
  return items.length === 0 ? NO_ITEMS : items;
}

/** Deeper than any argument of any kind by far; the bound only stops pathological documents. */
export const MAX_DEPTH = 64;

export type PlainTree = { readonly value: unknown } | { readonly tooDeep: ReadonlyArray<string | number> };

/**
 * A copy of a parsed JSON value with objects that inherit nothing, or the path where it exceeds
 * `maxDepth`. `replace` may stand in a value of its own for an object (undefined: keep it).
 */
export function toPlainTree(root: unknown, maxDepth = MAX_DEPTH, replace?: (object: object) => unknown): PlainTree {
  return plainTree(root, maxDepth, replace, false);
}

/**
 * Like toPlainTree, but the value, which nothing else holds (fresh from JSON.parse), is
 * converted where it is instead of copied: half the memory and time for a large document.
 */
export function adoptPlainTree(root: unknown, maxDepth = MAX_DEPTH, replace?: (object: object) => unknown): PlainTree {
  return plainTree(root, maxDepth, replace, true);
}

/** Stands for "too deep here" while the walk unwinds, collecting the path. */
const TOO_DEEP: unique symbol = Symbol('too deep');

function plainTree(root: unknown, maxDepth: number, replace: ((object: object) => unknown) | undefined, inPlace: boolean): PlainTree {
  const tooDeep: Array<string | number> = [];
  // Recursion stops at maxDepth, so the stack stays shallow whatever the document's nesting.
  const convert = (source: object, depth: number): unknown => {
    const replacement = replace ? replace(source) : undefined;
    if (replacement !== undefined) return replacement;
    if (depth >= maxDepth) return TOO_DEEP;
    if (Array.isArray(source)) {
      const copy: unknown[] = inPlace ? source : new Array<unknown>(source.length);
      for (let i = 0; i < source.length; i++) if (!convertInto(copy, i, source[i], depth + 1)) return TOO_DEEP;
      return copy;
    }
    const copy = inPlace ? (Object.setPrototypeOf(source, NOTHING_INHERITED) as Record<string, unknown>) : plainObject();
    const keys = Object.keys(source);
    // By index, as in normalize (resources/values.ts): every object of a large document passes here.
    for (let i = 0; i < keys.length; i++) if (!convertInto(copy, keys[i], (source as Record<string, unknown>)[keys[i]], depth + 1)) return TOO_DEEP;
    return copy;
  };
  /** Converts one member into the copy; false when it nests too deeply (its key is then on the path). */
  const convertInto = (copy: Record<string | number, unknown> | unknown[], key: string | number, item: unknown, depth: number): boolean => {
    const value = item !== null && typeof item === 'object' ? convert(item, depth) : item;
    if (value === TOO_DEEP) {
      tooDeep.unshift(key);
      return false;
    }
    if (!inPlace || value !== item) (copy as Record<string | number, unknown>)[key] = value;
    return true;
  };
  const value = root !== null && typeof root === 'object' ? convert(root, 0) : root;
  return value === TOO_DEEP ? { tooDeep } : { value };
}

/** Nothing but whitespace: an empty document. Looks for one other character instead of trimming a copy of a large text. */
export function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

/** The value of an own key only: never something inherited from Object.prototype. */
export function ownValue(object: unknown, key: string | number): unknown {
  if (object === null || typeof object !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(object, key) ? (object as Record<string | number, unknown>)[key] : undefined;
}

/** A JSON object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function hasOwn(object: object, key: string | number): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** Parses JSON text into prototype-less plain data; throws a SyntaxError, or an Error naming where it nests too deeply. */
export function parsePlainJson(text: string, maxDepth = MAX_DEPTH, replace?: (object: object) => unknown): unknown {
  const tree = adoptPlainTree(JSON.parse(text), maxDepth, replace);
  if ('tooDeep' in tree) throw new Error(`nested more than ${maxDepth} levels deep at ${tree.tooDeep.join('.')}`);
  return tree.value;
}
