import type { State } from './declaration';
import { UUID_PATTERN } from './attributes';

/**
 * Splits a composite import id such as `<application_id>/<tenant_id>` into attributes; undefined
 * when the id does not have that form. Uuid-named parts (ending in `_id`) must be uuids; other
 * parts must be non-empty.
 */
export function splitImportId(id: string, names: readonly string[]): State | undefined {
  const parts = id.split('/');
  const wrong = parts.length !== names.length || parts.some((p, i) => (names[i].endsWith('_id') ? !UUID_PATTERN.test(p) : p === ''));
  return wrong ? undefined : Object.fromEntries(names.map((n, i) => [n, parts[i]]));
}

/** The import id of an object known by one uuid: `attributes(id)` are what the id tells (by default `{id}`). */
export function uuidImportId(what: string, attributes: (id: string) => State = (id) => ({ id })) {
  return {
    format: `the ${what} id (a uuid)`,
    parse: (id: string): State | undefined => (UUID_PATTERN.test(id) ? attributes(id) : undefined),
  };
}
