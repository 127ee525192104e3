/**
 * The meta-arguments a construct takes (`dependsOn`, `count`, `forEach`, `provider`,
 * `lifecycle`), typed here by their shape rather than by the CDK library's declarations: in a
 * project with only one of cdktn and cdktf installed and `skipLibCheck` on, a type imported
 * from the other would be `any` and would take every prop with it. The library's own objects
 * (resources, providers, iterators, counts) have these shapes.
 */

/** Something a resource can depend on: a resource, a data source, a module (by its fully qualified name). */
export interface Dependable {
  readonly fqn: string;
}

/** What `TerraformIterator.fromList(...)` and its kin return. */
export interface ForEachIterator {
  _getForEachExpression(): unknown;
}

export interface Condition {
  readonly condition: unknown;
  readonly errorMessage: string;
}

export interface Lifecycle {
  readonly createBeforeDestroy?: boolean;
  readonly preventDestroy?: boolean;
  /** Attribute names in snake_case, or "all". */
  readonly ignoreChanges?: string[] | 'all';
  readonly replaceTriggeredBy?: Array<Dependable | string>;
  readonly precondition?: Condition[];
  readonly postcondition?: Condition[];
}

export interface MetaArguments {
  readonly dependsOn?: Dependable[];
  /** A number, or `TerraformCount.of(...)`. */
  readonly count?: number | { toString(): string };
  readonly provider?: Dependable;
  readonly lifecycle?: Lifecycle;
  readonly forEach?: ForEachIterator;
}
