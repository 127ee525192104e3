import { asString } from './convert';
import { isObject, objectOf, SensitiveValue, SetValue, UNKNOWN, type Value } from './values';

/**
 * The common type Terraform gives the two results of a conditional, read off the values:
 * a string opposite a number or bool makes both strings; tuples of different lengths become a
 * list of one element type; objects with different attributes become a map of one type.
 */
type Shape =
  | { readonly kind: 'any' }
  | { readonly kind: 'string' | 'number' | 'bool' }
  | { readonly kind: 'tuple'; readonly items: readonly Shape[] }
  | { readonly kind: 'list' | 'set' | 'map'; readonly element: Shape }
  | { readonly kind: 'object'; readonly attributes: ReadonlyMap<string, Shape> };

const ANY: Shape = { kind: 'any' };

function shapeOf(v: Value): Shape {
  if (v instanceof SensitiveValue) return shapeOf(v.value);
  if (v === null || v === UNKNOWN) return ANY;
  if (typeof v === 'string' || typeof v === 'number') return { kind: typeof v as 'string' | 'number' };
  if (typeof v === 'boolean') return { kind: 'bool' };
  if (Array.isArray(v)) return { kind: 'tuple', items: v.map(shapeOf) };
  if (v instanceof SetValue) return { kind: 'set', element: commonOf(v.elements.map(shapeOf)) ?? ANY };
  if (isObject(v)) return { kind: 'object', attributes: new Map(Object.entries(v).map(([k, x]) => [k, shapeOf(x)])) };
  return ANY;
}

function commonOf(shapes: readonly Shape[]): Shape | undefined {
  let result: Shape | undefined = ANY;
  for (const s of shapes) result = result && unify(result, s);
  return result;
}

/** The shape both values convert to, or undefined when Terraform finds no common type. */
function unify(a: Shape, b: Shape): Shape | undefined {
  if (a.kind === 'any') return b;
  if (b.kind === 'any') return a;
  const primitive = (s: Shape) => s.kind === 'string' || s.kind === 'number' || s.kind === 'bool';
  if (primitive(a) && primitive(b)) return a.kind === b.kind ? a : a.kind === 'string' || b.kind === 'string' ? { kind: 'string' } : undefined;
  const elements = (s: Shape): readonly Shape[] | undefined =>
    s.kind === 'tuple'
      ? s.items
      : s.kind === 'list'
        ? [s.element]
        : s.kind === 'object'
          ? [...s.attributes.values()]
          : s.kind === 'map'
            ? [s.element]
            : undefined;
  if (a.kind === 'tuple' && b.kind === 'tuple' && a.items.length === b.items.length) {
    const items = a.items.map((x, i) => unify(x, b.items[i]));
    return items.every(Boolean) ? { kind: 'tuple', items: items as Shape[] } : undefined;
  }
  if ((a.kind === 'tuple' || a.kind === 'list') && (b.kind === 'tuple' || b.kind === 'list')) {
    const element = commonOf([...elements(a)!, ...elements(b)!]);
    return element && { kind: 'list', element };
  }
  if (a.kind === 'set' && b.kind === 'set') {
    const element = unify(a.element, b.element);
    return element && { kind: 'set', element };
  }
  if (a.kind === 'object' && b.kind === 'object' && sameKeys(a.attributes, b.attributes)) {
    const attributes = new Map<string, Shape>();
    for (const [k, s] of a.attributes) {
      const u = unify(s, b.attributes.get(k)!);
      if (!u) return undefined;
      attributes.set(k, u);
    }
    return { kind: 'object', attributes };
  }
  if ((a.kind === 'object' || a.kind === 'map') && (b.kind === 'object' || b.kind === 'map')) {
    const element = commonOf([...elements(a)!, ...elements(b)!]);
    return element && { kind: 'map', element };
  }
  return undefined;
}

function sameKeys(a: ReadonlyMap<string, Shape>, b: ReadonlyMap<string, Shape>): boolean {
  return a.size === b.size && [...a.keys()].every((k) => b.has(k));
}

function convert(v: Value, shape: Shape): Value {
  if (v instanceof SensitiveValue) return new SensitiveValue(convert(v.value, shape));
  if (v === null || v === UNKNOWN) return v;
  switch (shape.kind) {
    case 'string':
      return asString(v) ?? v;
    case 'tuple':
      return Array.isArray(v) ? v.map((x, i) => convert(x, shape.items[i] ?? ANY)) : v;
    case 'list':
      return Array.isArray(v) ? v.map((x) => convert(x, shape.element)) : v;
    case 'set':
      return v instanceof SetValue ? new SetValue(v.elements.map((x) => convert(x, shape.element))) : v;
    case 'object':
      return isObject(v) ? objectOf(Object.entries(v).map(([k, x]) => [k, convert(x, shape.attributes.get(k) ?? ANY)])) : v;
    case 'map':
      return isObject(v) ? objectOf(Object.entries(v).map(([k, x]) => [k, convert(x, shape.element)])) : v;
    default:
      return v;
  }
}

/** The chosen result converted to the type it shares with the other result; undefined when they share none. */
export function unifyResults(chosen: Value, other: Value): Value | undefined {
  const shape = unify(shapeOf(chosen), shapeOf(other));
  return shape && convert(chosen, shape);
}
