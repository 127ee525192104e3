/**
 * Request bodies: the schema pieces the routes declare their bodies with, and the field and
 * problem a refused body is answered with. Every piece says its problem the way the platform's
 * validation errors do (`name: must be a string`); a member left out `is required`.
 */
import { z } from 'zod';

export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The problem of a member: `is required` when it is missing, else `problem`. */
export function problem(text: string): { error: z.core.$ZodErrorMap } {
  return { error: (issue) => (issue.input === undefined ? 'is required' : text) };
}

export const text = (what = 'must be a string') => z.string(problem(what));
export const nonEmpty = (what = 'must not be empty') => z.string(problem(what)).refine((s) => s.trim() !== '', what);
export const uuid = (what = 'must be a uuid') => z.string(problem(what)).regex(UUID_RE, what);
export const bool = () => z.boolean(problem('must be a boolean'));
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, what = `must be one of ${values.join(', ')}`) => z.enum(values, problem(what));
export const list = <T extends z.ZodType>(item: T, what = 'must be an array') => z.array(item, problem(what));
export const record = (what = 'must be an object') => z.record(z.string(), z.unknown(), problem(what));

/** An object that names its members: one it does not know is refused, naming it. */
export function closed<S extends z.core.$ZodLooseShape>(shape: S, what: string, notObject = 'must be an object') {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `is not a field of ${what}` : issue.input === undefined ? 'is required' : notObject),
  });
}

/** A list whose items are each other's duplicates nowhere. */
export const distinct = (values: readonly unknown[]): boolean => new Set(values).size === values.length;

/** An object's current `version`: an integer from 1, or its decimal text (some clients send it quoted). */
export const version = z
  .union([z.number().int().min(1), z.string().regex(/^\d+$/).transform(Number)], problem('must be the current version (an integer >= 1)'))
  .refine((n) => n >= 1, 'must be the current version (an integer >= 1)');

/** The field a refused body names (`items[0].name`; `body` for the body itself) and its problem. */
export function refusal(error: z.ZodError): { field: string; problem: string } {
  // An unknown member is named before a bad one, as a closed schema's reader meets it first.
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  const path: PropertyKey[] = [...(issue?.path ?? []), ...(issue?.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])];
  return { field: fieldName(path), problem: issue?.message ?? 'is not valid' };
}

function fieldName(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'body';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('');
}
