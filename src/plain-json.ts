/**
 * JSON documents as plain data: objects without a prototype, so that names every JavaScript
 * object has (`toString`, `constructor`, `__proto__`) are never mistaken for keys, and a bound
 * on nesting, checked without recursion, so that a document nested thousands of levels deep is
 * refused with the place where it gets too deep instead of exhausting the stack.
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

function plainTree(root: unknown, maxDepth: number, replace: ((object: object) => unknown) | undefined, inPlace: boolean): PlainTree {
  const holder = plainObject();
  // Each item links to its parent's instead of carrying its path: the path is only built for the refusal.
  interface Item {
    readonly source: unknown;
    readonly into: Record<string | number, unknown>;
    readonly key: string | number;
    readonly depth: number;
    readonly parent: Item | undefined;
  }
  const work: Item[] = [{ source: root, into: holder, key: 'root', depth: 0, parent: undefined }];
  while (work.length > 0) {
    const item = work.pop()!;
    const { source, into, key, depth } = item;
    const replacement = source !== null && typeof source === 'object' && replace ? replace(source) : undefined;
    if (replacement !== undefined || source === null || typeof source !== 'object') {
      into[key] = replacement ?? source;
      continue;
    }
    if (depth >= maxDepth) return { tooDeep: pathOf(item) };
    if (Array.isArray(source)) {
      const copy = inPlace ? (source as unknown[]) : new Array<unknown>(source.length);
      into[key] = copy;
      for (let i = source.length - 1; i >= 0; i--) work.push({ source: source[i] as unknown, into: copy as unknown as Record<number, unknown>, key: i, depth: depth + 1, parent: item });
    } else {
      const copy = inPlace ? (Object.setPrototypeOf(source, NOTHING_INHERITED) as Record<string, unknown>) : plainObject();
      into[key] = copy;
      // Pushed last to first so that keys are copied in their original order.
      const keys = Object.keys(source);
      for (let i = keys.length - 1; i >= 0; i--) work.push({ source: (source as Record<string, unknown>)[keys[i]], into: copy, key: keys[i], depth: depth + 1, parent: item });
    }
  }
  return { value: holder.root };
}

function pathOf(item: { readonly key: string | number; readonly parent: { readonly key: string | number; readonly parent: unknown } | undefined }): Array<string | number> {
  const path: Array<string | number> = [];
  for (let at: typeof item | undefined = item; at?.parent !== undefined; at = at.parent as typeof item | undefined) path.unshift(at.key);
  return path;
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
