import type { z } from 'zod';

/** A place inside a JSON document, as a reader would write it: `resources[2].instances[0].attributes.id`. */
export function documentPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out === '' ? '(the whole document)' : out;
}

/** What is wrong with a parsed document (or the part of one at `at`): the first problem, at its path; undefined when it fits. */
export function documentProblem(schema: z.ZodType, doc: unknown, at: readonly PropertyKey[] = []): string | undefined {
  const r = schema.safeParse(doc);
  if (r.success) return undefined;
  const issue = r.error.issues[0];
  return `at ${documentPath([...at, ...issue.path])}: ${issue.message}`;
}

/** A value as a problem message quotes it: short, and never a whole object. */
export function quoted(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return Array.isArray(value) ? 'a list' : 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
