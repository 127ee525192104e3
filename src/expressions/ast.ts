import type { SourceRange } from './problems';
import type { Value } from './values';

/** The syntax tree of an expression or template. Every node knows where it came from. */
export type Expr =
  | { readonly kind: 'literal'; readonly value: Value; readonly range: SourceRange }
  | { readonly kind: 'template'; readonly parts: readonly TemplatePart[]; readonly range: SourceRange }
  /** A template that is exactly one interpolation: its value is not converted to a string. */
  | { readonly kind: 'wrap'; readonly expr: Expr; readonly range: SourceRange }
  | { readonly kind: 'tuple'; readonly items: readonly Expr[]; readonly range: SourceRange }
  | { readonly kind: 'object'; readonly items: readonly ObjectItem[]; readonly range: SourceRange }
  | { readonly kind: 'variable'; readonly name: string; readonly range: SourceRange }
  | { readonly kind: 'getattr'; readonly target: Expr; readonly name: string; readonly range: SourceRange }
  | { readonly kind: 'index'; readonly target: Expr; readonly key: Expr; readonly range: SourceRange }
  /** `source[*].each` / `source.*.each`: `each` is evaluated with `splatItem` standing for every element. */
  | { readonly kind: 'splat'; readonly source: Expr; readonly each: Expr; readonly range: SourceRange }
  | { readonly kind: 'splatItem'; readonly range: SourceRange }
  | {
      readonly kind: 'call';
      readonly name: string;
      readonly args: readonly Expr[];
      readonly expandLast: boolean;
      readonly range: SourceRange;
    }
  | { readonly kind: 'unary'; readonly op: '!' | '-'; readonly operand: Expr; readonly range: SourceRange }
  | { readonly kind: 'binary'; readonly op: BinaryOperator; readonly left: Expr; readonly right: Expr; readonly range: SourceRange }
  | { readonly kind: 'conditional'; readonly condition: Expr; readonly then: Expr; readonly otherwise: Expr; readonly range: SourceRange }
  | ForExpr
  | { readonly kind: 'paren'; readonly expr: Expr; readonly range: SourceRange };

export type BinaryOperator = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*' | '/' | '%';

export interface ObjectItem {
  readonly key: Expr;
  readonly value: Expr;
}

export interface ForExpr {
  readonly kind: 'for';
  readonly keyVar?: string;
  readonly valueVar: string;
  readonly collection: Expr;
  /** Set for `{for ...}`, which builds an object. */
  readonly keyExpr?: Expr;
  readonly valueExpr: Expr;
  readonly condition?: Expr;
  /** `...` after the value: values with the same key are grouped into a tuple. */
  readonly group: boolean;
  readonly range: SourceRange;
}

export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'interpolation'; readonly expr: Expr; readonly range: SourceRange }
  | {
      readonly kind: 'if';
      readonly condition: Expr;
      readonly then: readonly TemplatePart[];
      readonly otherwise: readonly TemplatePart[];
      readonly range: SourceRange;
    }
  | {
      readonly kind: 'for';
      readonly keyVar?: string;
      readonly valueVar: string;
      readonly collection: Expr;
      readonly body: readonly TemplatePart[];
      readonly range: SourceRange;
    };

/**
 * What an expression's names mean: `var`, `local`, `each`, `count`, `self`, `data`, `path`,
 * `terraform` and the resource types map to objects of their values. A function gets the
 * root name and returns undefined when the name is not declared.
 */
export interface EvalContext {
  readonly variables: Readonly<Record<string, Value>> | ((root: string) => Value | undefined);
}

/** Names in scope while evaluating: for-expression variables above the context's roots. */
export interface Scope {
  readonly context: EvalContext;
  readonly locals: ReadonlyMap<string, Value>;
  readonly splatItem?: Value;
}
