import type { Diagnostic } from '../diagnostics';
import { TenantformError } from '../errors';

/** The failures of refresh, plan and apply, and of the session that opens a stack. */

export const engineErrors = {
  /** An import of an object the state already manages at another address; `remedy` says what to remove. */
  importedElsewhere(address: string, other: string, identity: string, remedy: string) {
    return new TenantformError(
      'import_already_managed',
      'Object already managed',
      `${identity} is already managed by tenantform as ${other}; nothing was imported. One object is managed at one address only: ${remedy}.`,
      false,
      address,
    );
  },
  invalidReplaceAddress(address: string) {
    return new TenantformError(
      'invalid_replace_address',
      'Invalid -replace address',
      `"${address}" is not a resource address (such as \`tenantform_tenant.acme\` or \`tenantform_tenant.all["acme"]\`).`,
      false,
    );
  },
  /** Terraform plans no replacement for an address that holds no object, and says so. */
  nothingToReplace(address: string): Diagnostic {
    return {
      severity: 'warning',
      summary: 'No object to replace',
      detail: `-replace names ${address}, which the configuration does not declare or the state does not record: nothing is replaced for it.`,
      address,
    };
  },
  preventDestroy(address: string, action: string) {
    return new TenantformError(
      'prevent_destroy',
      'The object is protected from destruction',
      `The plan would ${action} ${address}, but its lifecycle sets prevent_destroy. Remove prevent_destroy first (and apply), or change the configuration so that it is kept.`,
      false,
      address,
    );
  },
  stalePlan(reason: string) {
    return new TenantformError(
      'stale_plan',
      'Saved plan is stale',
      `${reason} Nothing was applied. Run \`tenantform plan --out PLANFILE\` again and apply the new plan.`,
      false,
    );
  },
  invalidBaseUrl(where: string, problem: string) {
    return new TenantformError('invalid_base_url', 'Invalid base URL', `${where}: ${problem}. Nothing was sent.`, false);
  },
  missingCredentials(missing: ReadonlyArray<{ argument: string; variable: string }>) {
    const variables = missing.map((m) => m.variable).join(', ');
    const argumentsInBlock = missing.map((m) => `\`${m.argument}\``).join(', ');
    return new TenantformError(
      'missing_credential',
      missing.length === 1 ? 'Missing provider setting' : 'Missing provider settings',
      `Set ${variables} (or ${argumentsInBlock} in the tenantform provider block). \`tenantform emulator\` prints values for a local stand-in.`,
      false,
    );
  },
  importKeyMissing(block: string, key: string | number, repetition: 'for_each' | 'count', keys: ReadonlyArray<string | number>, closest?: string) {
    const shown = JSON.stringify(key);
    const missing =
      repetition === 'for_each'
        ? `the key ${shown} is not in its for_each map. Its keys: ${keys.length > 0 ? keys.map((k) => JSON.stringify(k)).join(', ') : 'none (the map is empty)'}.`
        : `count makes ${keys.length} instance${keys.length === 1 ? '' : 's'}${keys.length > 0 ? `, [0] to [${keys.length - 1}]` : ''}.`;
    return new TenantformError(
      'import_not_declared',
      'No such instance in the configuration',
      `${block} has no instance [${shown}]: ${missing}${closest ? ` Did you mean ${closest}?` : ''} ` +
        `Import into one of its instances, or add the key to ${repetition} (then \`cdktf synth\` in a cdktf app) and import again.`,
      false,
      block,
    );
  },
  importNeedsInstance(block: string, repetition: 'for_each' | 'count', instances: readonly string[]) {
    return new TenantformError(
      'import_not_declared',
      'Import needs an instance',
      `${block} has ${repetition}: import one of its instances (${instances.length > 0 ? instances.join(', ') : `none: its ${repetition} makes no instance`}).`,
      false,
      block,
    );
  },
  importOfUnrepeated(address: string, block: string) {
    return new TenantformError(
      'import_not_declared',
      'No such instance in the configuration',
      `${block} has neither count nor for_each, so ${address} does not exist: import into ${block}.`,
      false,
      address,
    );
  },
  pendingCreateUnresolved(address: string, detail: string) {
    return new TenantformError(
      'pending_create',
      'An interrupted create could not be resolved',
      `${address} was being created when an earlier run stopped. ${detail} Until it is resolved, tenantform does not create it again, so that nothing is created twice.`,
      false,
      address,
    );
  },
};
