import type { RuleViolation, State } from './declaration';
import { UUID_PATTERN } from './attributes';

/**
 * Splits a composite import id such as `<application_id>/<tenant_id>` into attributes.
 * Uuid-named parts (ending in `_id`) must be uuids; other parts must be non-empty.
 */
export function splitImportId(id: string, names: readonly string[]): State | RuleViolation {
  const parts = id.split('/');
  const wrong = parts.length !== names.length || parts.some((p, i) => (names[i].endsWith('_id') ? !UUID_PATTERN.test(p) : p === ''));
  if (wrong) {
    return {
      code: 'invalid_import_id',
      path: [],
      expected: names.map((n) => `<${n}>`).join('/'),
      found: JSON.stringify(id),
      message: 'The import id does not have the expected form.',
    };
  }
  return Object.fromEntries(names.map((n, i) => [n, parts[i]]));
}

export function isViolation(x: State | RuleViolation): x is RuleViolation {
  return typeof x.code === 'string' && Array.isArray(x.path) && typeof x.expected === 'string';
}

/** The import id of an object known by one uuid: `attributes(id)` are what the id tells (by default `{id}`). */
export function uuidImportId(what: string, attributes: (id: string) => State = (id) => ({ id })) {
  return {
    format: `the ${what} id (a uuid)`,
    parse: (id: string): State | RuleViolation =>
      UUID_PATTERN.test(id)
        ? attributes(id)
        : { code: 'invalid_import_id', path: [], expected: `a ${what} id (uuid)`, found: JSON.stringify(id), message: 'The import id is not a uuid.' },
  };
}
