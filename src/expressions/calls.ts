import type { Expr, TemplatePart } from './ast';

/** The first function call in an expression, for where Terraform takes only constant values (`.tfvars` files). */
export function firstCall(expr: Expr): string | undefined {
  switch (expr.kind) {
    case 'call':
      return expr.name;
    case 'literal':
    case 'variable':
    case 'splatItem':
      return undefined;
    case 'template':
      return firstCallInParts(expr.parts);
    case 'wrap':
    case 'paren':
      return firstCall(expr.expr);
    case 'tuple':
      return firstOf(expr.items);
    case 'object':
      return firstOf(expr.items.flatMap((i) => [i.key, i.value]));
    case 'getattr':
      return firstCall(expr.target);
    case 'index':
      return firstOf([expr.target, expr.key]);
    case 'splat':
      return firstOf([expr.source, expr.each]);
    case 'unary':
      return firstCall(expr.operand);
    case 'binary':
      return firstOf([expr.left, expr.right]);
    case 'conditional':
      return firstOf([expr.condition, expr.then, expr.otherwise]);
    case 'for':
      return firstOf([expr.collection, ...(expr.keyExpr ? [expr.keyExpr] : []), expr.valueExpr, ...(expr.condition ? [expr.condition] : [])]);
  }
}

function firstOf(exprs: readonly Expr[]): string | undefined {
  for (const e of exprs) {
    const found = firstCall(e);
    if (found !== undefined) return found;
  }
  return undefined;
}

function firstCallInParts(parts: readonly TemplatePart[]): string | undefined {
  for (const p of parts) {
    const found =
      p.kind === 'text'
        ? undefined
        : p.kind === 'interpolation'
          ? firstCall(p.expr)
          : p.kind === 'if'
            ? (firstCall(p.condition) ?? firstCallInParts(p.then) ?? firstCallInParts(p.otherwise))
            : (firstCall(p.collection) ?? firstCallInParts(p.body));
    if (found !== undefined) return found;
  }
  return undefined;
}
