/**
 * JSON documents as plain data: objects without a prototype, so that names every JavaScript
 * object has (`toString`, `constructor`, `__proto__`) are never mistaken for keys, and a bound
 * on nesting, checked without recursion, so that a document nested thousands of levels deep is
 * refused with the place where it gets too deep instead of exhausting the stack.
 */

/** Deeper than any argument of any kind by far; the bound only stops pathological documents. */
export const MAX_DEPTH = 64;

export type PlainTree = { readonly value: unknown } | { readonly tooDeep: ReadonlyArray<string | number> };

/**
 * A copy of a parsed JSON value with prototype-less objects, or the path where it exceeds
 * `maxDepth`. `replace` may stand in a value of its own for an object (undefined: keep it).
 */
export function toPlainTree(root: unknown, maxDepth = MAX_DEPTH, replace?: (object: object) => unknown): PlainTree {
  const holder: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const work: Array<{ source: unknown; into: Record<string | number, unknown>; key: string | number; path: Array<string | number> }> = [
    { source: root, into: holder, key: 'root', path: [] },
  ];
  while (work.length > 0) {
    const { source, into, key, path } = work.pop()!;
    const replacement = source !== null && typeof source === 'object' && replace ? replace(source) : undefined;
    if (replacement !== undefined || source === null || typeof source !== 'object') {
      into[key] = replacement ?? source;
      continue;
    }
    if (path.length >= maxDepth) return { tooDeep: path };
    if (Array.isArray(source)) {
      const copy: unknown[] = new Array<unknown>(source.length);
      into[key] = copy;
      for (let i = source.length - 1; i >= 0; i--) work.push({ source: source[i] as unknown, into: copy as unknown as Record<number, unknown>, key: i, path: [...path, i] });
    } else {
      const copy = Object.create(null) as Record<string, unknown>;
      into[key] = copy;
      // Pushed last to first so that keys are copied in their original order.
      const keys = Object.keys(source);
      for (let i = keys.length - 1; i >= 0; i--) work.push({ source: (source as Record<string, unknown>)[keys[i]], into: copy, key: keys[i], path: [...path, keys[i]] });
    }
  }
  return { value: holder.root };
}

/** The value of an own key only: never something inherited from Object.prototype. */
export function ownValue(object: unknown, key: string | number): unknown {
  if (object === null || typeof object !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(object, key) ? (object as Record<string | number, unknown>)[key] : undefined;
}

export function hasOwn(object: object, key: string | number): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** Parses JSON text into prototype-less plain data; throws a SyntaxError, or an Error naming where it nests too deeply. */
export function parsePlainJson(text: string, maxDepth = MAX_DEPTH, replace?: (object: object) => unknown): unknown {
  const tree = toPlainTree(JSON.parse(text), maxDepth, replace);
  if ('tooDeep' in tree) throw new Error(`nested more than ${maxDepth} levels deep at ${tree.tooDeep.join('.')}`);
  return tree.value;
}
