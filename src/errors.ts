import type { AttributePath, Diagnostic } from './diagnostics';

/**
 * tenantform's own failures. Each factory returns an error whose message says what
 * happened and what to run next; `retryable` says whether running again can help.
 */
export class TenantformError extends Error {
  constructor(
    readonly code: string,
    readonly summary: string,
    readonly detail: string,
    readonly retryable: boolean,
    readonly address?: string,
    readonly path?: AttributePath,
  ) {
    super(`${summary}: ${detail}`);
    this.name = 'TenantformError';
  }

  toDiagnostic(): Diagnostic {
    return {
      severity: 'error',
      summary: this.summary,
      detail: this.detail,
      address: this.address,
      path: this.path,
      code: this.code,
      retryable: this.retryable,
    };
  }
}

export const errors = {
  versionConflict(address: string, expected: unknown, live: unknown) {
    return new TenantformError(
      'version_conflict',
      'The object was changed by someone else',
      `${address} is at version ${String(live)} on the platform, but this change was planned against version ${String(expected)}. ` +
        'Nothing was overwritten. Run `tenantform plan` (or `terraform plan -refresh=true`) to see the other change, then apply again.',
      false,
      address,
    );
  },
  goneDuringApply(address: string) {
    return new TenantformError(
      'object_gone',
      'The object no longer exists',
      `${address} was deleted outside tenantform after the plan was made. Run \`tenantform plan\` again to recreate it.`,
      false,
      address,
    );
  },
  notFoundForImport(type: string, id: string) {
    return new TenantformError(
      'import_not_found',
      'Cannot import a non-existent object',
      `No ${type} with id "${id}" exists on the platform. Check the id (see the import format in docs/resources/${type.replace(/^tenantform_/, '')}.md).`,
      false,
    );
  },
  invalidImportId(type: string, id: string, format: string) {
    return new TenantformError(
      'invalid_import_id',
      'Invalid import id',
      `"${id}" is not an import id of ${type}; expected ${format}.`,
      false,
    );
  },
  dataSourceNotFound(type: string, what: string) {
    return new TenantformError(
      'data_source_not_found',
      'No matching object',
      `${type} found no object with ${what}. Check the filter, or list what exists with \`tenantform export\`.`,
      false,
    );
  },
  dataSourceAmbiguous(type: string, what: string, count: number) {
    return new TenantformError(
      'data_source_ambiguous',
      'More than one matching object',
      `${type} found ${count} objects with ${what}; narrow the filter (for tenants, add parent_id).`,
      false,
    );
  },
  platformRefused(address: string, what: string) {
    return new TenantformError('platform_refused', 'The platform refused the change', `${address}: ${what}`, false, address);
  },
};
