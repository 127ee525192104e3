/**
 * An action: one imperative verb of the platform that a configuration runs beside its
 * declarations (Terraform 1.14's `action` blocks, run by `terraform apply -invoke` or by a
 * resource's `lifecycle.action_trigger`). One declaration per action: its schema, its
 * validation and its docs all derive from it, as a resource kind's do.
 */
import type { PlatformClient } from '../../api';
import type { Diagnostic } from '../../diagnostics';
import type { Attributes } from '../../resources/attributes';
import type { State } from '../../resources/declaration';

export interface ActionContext {
  readonly client: PlatformClient;
  /** Aborted when Terraform asks the provider to stop. */
  readonly signal: AbortSignal;
}

export interface ActionDeclaration {
  /** The Terraform type name, `tenantform_<verb>`. */
  readonly type: string;
  /** What the action does, in the user's words (Markdown): the schema's and the docs' description. */
  readonly description: string;
  /** The platform operation it performs and where it is documented. */
  readonly operation: string;
  readonly attributes: Attributes;
  /** Rules across arguments, run once every argument is known and valid on its own. */
  readonly check?: (config: State) => Diagnostic[];
  /** A configuration for the docs, with references written `${type.name.attribute}`. */
  readonly example: { readonly name: string; readonly config: Readonly<Record<string, unknown>> };
  /**
   * Performs the verb, yielding a line of progress after each step. A failure is thrown (wrap each
   * request in `step` so that its diagnostic says which step failed); what was yielded before it
   * has been done.
   */
  invoke(config: State, ctx: ActionContext): AsyncIterable<string>;
}

export function defineAction(declaration: ActionDeclaration): ActionDeclaration {
  return Object.freeze(declaration);
}

/** A failed step of an action: what it was doing, and why it failed. */
export class ActionStepFailure extends Error {
  constructor(
    readonly doing: string,
    override readonly cause: unknown,
  ) {
    super(`${doing} failed`);
  }
}

/** Runs one request of an action; its failure names the step (`doing`: "sending ... to user X"). */
export async function step<T>(doing: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    throw new ActionStepFailure(doing, err);
  }
}

/** "1 alert", "2 alerts". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** The list argument's values as given (validation has checked they are strings). */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
