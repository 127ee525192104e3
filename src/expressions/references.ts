import type { Expr, TemplatePart } from './ast';
import type { SourceRange } from './problems';

/**
 * A name the expression reads, with the static steps after it: `var.name` is
 * `{ root: 'var', steps: ['name'] }`, `tenantform_tenant.a[0].id` is
 * `{ root: 'tenantform_tenant', steps: ['a', 0, 'id'] }`. Steps stop at the first index that is
 * not a literal or at a splat (the rest is not known before evaluation).
 */
export interface Traversal {
  readonly root: string;
  readonly steps: ReadonlyArray<string | number>;
  readonly range: SourceRange;
  /**
   * The steps are followed by an index with the referring instance's own key (`[each.key]`,
   * `[count.index]`): the reference names one instance, known once the referring one is.
   */
  readonly ownKey?: true;
}

/** Every traversal the expression uses, once each, in source order; for-expression variables are left out. */
export function referencesOf(expr: Expr): Traversal[] {
  const found = new Map<string, Traversal>();
  walk(expr, new Set(), (t) => {
    const key = JSON.stringify([t.root, ...t.steps, t.ownKey === true]);
    if (!found.has(key)) found.set(key, t);
  });
  return [...found.values()];
}

/** Every traversal where it is written, repeats included (to rewrite the source); for-expression variables are left out. */
export function traversalsOf(expr: Expr): Traversal[] {
  const found: Traversal[] = [];
  walk(expr, new Set(), (t) => found.push(t));
  return found;
}

type Visit = (t: Traversal) => void;

function staticTraversal(e: Expr): Traversal | undefined {
  if (e.kind === 'variable') return { root: e.name, steps: [], range: e.range };
  if (e.kind === 'getattr' || e.kind === 'index') {
    const base = staticTraversal(e.target);
    if (!base) return undefined;
    let step: string | number | undefined;
    if (e.kind === 'getattr') step = e.name;
    else if (e.key.kind === 'literal' && (typeof e.key.value === 'string' || typeof e.key.value === 'number')) step = e.key.value;
    return step === undefined ? undefined : { root: base.root, steps: [...base.steps, step], range: e.range };
  }
  return undefined;
}

function walk(e: Expr, bound: ReadonlySet<string>, visit: Visit): void {
  const traversal = staticTraversal(e);
  if (traversal) {
    if (!bound.has(traversal.root)) visit(traversal);
    return;
  }
  const recurse = (x: Expr) => walk(x, bound, visit);
  switch (e.kind) {
    case 'literal':
    case 'splatItem':
    case 'variable':
      return;
    case 'paren':
    case 'wrap':
      return recurse(e.expr);
    case 'template':
      return walkParts(e.parts, bound, visit);
    case 'tuple':
      return e.items.forEach(recurse);
    case 'object':
      return e.items.forEach((item) => (recurse(item.key), recurse(item.value)));
    case 'getattr':
      return recurse(e.target);
    case 'index': {
      // `tenantform_tenant.customer[each.key]`: the instance with the referring instance's key.
      const target = ownKeyed(e.key) ? staticTraversal(e.target) : undefined;
      if (target && !bound.has(target.root)) visit({ ...target, ownKey: true });
      else recurse(e.target);
      return recurse(e.key);
    }
    case 'splat':
      return (recurse(e.source), recurse(e.each));
    case 'call':
      return e.args.forEach(recurse);
    case 'unary':
      return recurse(e.operand);
    case 'binary':
      return (recurse(e.left), recurse(e.right));
    case 'conditional':
      return (recurse(e.condition), recurse(e.then), recurse(e.otherwise));
    case 'for': {
      recurse(e.collection);
      const inner = withBound(bound, e.keyVar, e.valueVar);
      for (const x of [e.keyExpr, e.valueExpr, e.condition]) if (x) walk(x, inner, visit);
      return;
    }
  }
}

/** `each.key` or `count.index`: the key of the instance the expression is evaluated for. */
function ownKeyed(e: Expr): boolean {
  const t = staticTraversal(e);
  return t !== undefined && t.steps.length === 1 && ((t.root === 'each' && t.steps[0] === 'key') || (t.root === 'count' && t.steps[0] === 'index'));
}

function withBound(bound: ReadonlySet<string>, keyVar: string | undefined, valueVar: string): ReadonlySet<string> {
  return new Set([...bound, valueVar, ...(keyVar ? [keyVar] : [])]);
}

function walkParts(parts: readonly TemplatePart[], bound: ReadonlySet<string>, visit: Visit): void {
  for (const part of parts) {
    if (part.kind === 'interpolation') walk(part.expr, bound, visit);
    else if (part.kind === 'if') {
      walk(part.condition, bound, visit);
      walkParts(part.then, bound, visit);
      walkParts(part.otherwise, bound, visit);
    } else if (part.kind === 'for') {
      walk(part.collection, bound, visit);
      walkParts(part.body, withBound(bound, part.keyVar, part.valueVar), visit);
    }
  }
}
