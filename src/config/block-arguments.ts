/** The arguments a block of the language takes, as Terraform reads them (`//` is cdktf's metadata). */
export const BLOCK_ARGUMENTS = {
  variable: ['type', 'default', 'description', 'sensitive', 'nullable', 'validation', 'ephemeral'],
  output: ['value', 'description', 'sensitive', 'depends_on', 'precondition', 'ephemeral'],
  lifecycle: ['create_before_destroy', 'prevent_destroy', 'ignore_changes', 'replace_triggered_by', 'precondition', 'postcondition'],
} as const;

/** The names in a block that it does not take, in the order written. */
export function extraneousArguments(body: Record<string, unknown>, block: keyof typeof BLOCK_ARGUMENTS): string[] {
  const allowed: readonly string[] = BLOCK_ARGUMENTS[block];
  return Object.keys(body).filter((k) => k !== '//' && !allowed.includes(k));
}

/** Arguments Terraform takes that tenantform's own plan does not carry out: refused by name, never ignored. */
export const NOT_CARRIED_OUT = {
  variable: ['ephemeral'],
  output: ['precondition', 'ephemeral'],
  lifecycle: ['create_before_destroy', 'replace_triggered_by'],
} as const satisfies Record<keyof typeof BLOCK_ARGUMENTS, readonly string[]>;

/** The arguments of a block that tenantform does not carry out, in the order written. */
export function notCarriedOut(body: Record<string, unknown>, block: keyof typeof BLOCK_ARGUMENTS): string[] {
  const refused: readonly string[] = NOT_CARRIED_OUT[block];
  return Object.keys(body).filter((k) => refused.includes(k));
}

/**
 * A bool argument of a block as Terraform converts it: true, false, or the strings "true" and
 * "false"; `unset` when absent; undefined when it is anything else (null included).
 */
export function boolArgument(body: Record<string, unknown>, name: string, unset: boolean): boolean | undefined {
  if (!Object.hasOwn(body, name)) return unset;
  const value = body[name];
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

/** A string argument as Terraform converts it (a number or a bool becomes its text); undefined for null, lists and objects. */
export function stringArgument(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}
