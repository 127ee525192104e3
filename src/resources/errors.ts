import type { Diagnostic } from '../diagnostics';
import { TenantformError } from '../errors';

/** The failures of a kind's operations on the platform, raised by the operations layer and the kinds. */

export const resourceErrors = {
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
  changedSincePlan(address: string, attributes: readonly string[]) {
    return new TenantformError(
      'version_conflict',
      'The object was changed by someone else',
      `${address} changed on the platform after the plan was made (${attributes.join(', ')}), and it has no version to send with the change. ` +
        'Nothing was overwritten. Run `tenantform plan` (or `terraform plan -refresh=true`) to see the other change, then apply again.',
      false,
      address,
    );
  },
  deleteRefused(what: string, reason: string) {
    return new TenantformError(
      'delete_refused',
      'The platform refused the delete',
      `${what} is at the version the plan saw, but the platform refused to delete it: ${reason}. ` +
        'Nothing was deleted. For an infrastructure component that customers still use, set `force_delete = true` and apply, then destroy it.',
      false,
      undefined,
      ['force_delete'],
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
    return new TenantformError('invalid_import_id', 'Invalid import id', `"${id}" is not an import id of ${type}; expected ${format}.`, false);
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
  /** A rule of the platform that only the live objects show, found at apply before anything is written. */
  ruleRefused(address: string | undefined, refused: Diagnostic) {
    return new TenantformError(refused.code ?? 'rule_refused', refused.summary, `${refused.detail} Nothing was changed.`, false, address, refused.path);
  },
};

export const faultErrors = {
  /** A create's request lost its answer and its repetition was refused: the object may exist. */
  createOutcomeUnknown(address: string, refusal: string) {
    return new TenantformError(
      'create_outcome_unknown',
      'The create may have been applied',
      `A request made while creating ${address} lost its answer, and repeating it was refused (${refusal}): the platform may have applied it. ` +
        'tenantform looks for the object by its natural key and completes it; running apply again does the same.',
      true,
      address,
    );
  },
  nameTaken(address: string, what: string, existingId: string | undefined, importId: string | undefined) {
    const adopt =
      existingId === undefined || importId === undefined
        ? 'Choose another name, or delete the other object on the platform.'
        : `To manage the existing one with this configuration, import it: an \`import\` block (\`import { to = ${address}, id = "${importId}" }\`, cdktf's \`importFrom\`) or \`tenantform import ${address} ${importId}\`. Otherwise choose another name.`;
    return new TenantformError(
      'name_taken',
      'An object with this name already exists',
      `${address} cannot be created: ${what}${existingId !== undefined ? ` (id ${existingId})` : ''} already exists on the platform and is not recorded in this state. ${adopt}`,
      false,
      address,
    );
  },
  adoptionAmbiguous(address: string, ids: readonly string[], heldElsewhere: number) {
    const others = heldElsewhere > 0 ? ` (${heldElsewhere} more ${heldElsewhere === 1 ? 'is' : 'are'} recorded for other addresses and were left out)` : '';
    return new TenantformError(
      'adopt_ambiguous',
      'More than one object matches an interrupted create',
      `${address} was being created when its answer was lost, and ${ids.length} objects on the platform match its configuration without being recorded for another address${others}: ${ids.join(', ')}. ` +
        `Import the one that belongs to ${address} (\`tenantform import ${address} <id>\`), then import the others for their own addresses or delete them on the platform.`,
      false,
      address,
    );
  },
  invalidRequestsPerSecond(where: string, found: unknown) {
    return new TenantformError(
      'invalid_requests_per_second',
      'Invalid requests per second',
      `${where} must be a number of requests per second above 0 and at most 10000, found ${JSON.stringify(found)}.`,
      false,
      where.startsWith('provider.') ? where.split(' ')[0] : undefined,
      where.startsWith('provider.') ? ['requests_per_second'] : undefined,
    );
  },
  invalidRetryTimeout(where: string, found: unknown) {
    return new TenantformError(
      'invalid_retry_timeout',
      'Invalid retry timeout',
      `${where} must be a number of seconds from 0 to 86400, found ${JSON.stringify(found)}.`,
      false,
      where.startsWith('provider.') ? where.split(' ')[0] : undefined,
      where.startsWith('provider.') ? ['retry_timeout'] : undefined,
    );
  },
  credentialsRefused(baseUrl: string, clientId: string, answer: string) {
    return new TenantformError(
      'credentials_refused',
      'The platform refused the credentials',
      `${baseUrl} did not accept API client ${clientId} (${answer}). Nothing was read or planned. ` +
        'Check TENANTFORM_CLIENT_ID and TENANTFORM_CLIENT_SECRET (or the provider block), and that the client is enabled.',
      false,
    );
  },
  notThePlatform(baseUrl: string, answer: string) {
    return new TenantformError(
      'not_the_platform',
      'The base URL does not answer as the platform does',
      `${baseUrl} answered without the platform's error body or response shape (${answer}). Nothing was read or planned. ` +
        "Check TENANTFORM_BASE_URL (or base_url in the provider block): it is the data center's address, such as https://eu2-cloud.example.com.",
      false,
    );
  },
  platformUnreachable(baseUrl: string, answer: string) {
    return new TenantformError(
      'platform_unreachable',
      'Cannot reach the platform',
      `${baseUrl} could not be reached (${answer}). Nothing was read or planned. Check the address and the network, then run again.`,
      true,
    );
  },
};
