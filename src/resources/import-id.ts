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
