import { TenantformError } from '../errors';

/** The failures of the state backends and their locks. */

export const backendErrors = {
  /** `what` is what tenantform would need to speak the backend itself for (reading another stack's state, listing workspaces). */
  unsupported(type: string, spoken: readonly string[], what: string, instead: string) {
    return new TenantformError(
      'backend_unsupported',
      'Unsupported backend',
      `${what} needs a "${type}" backend spoken by tenantform itself, and it speaks ${spoken.join(', ')}; ` +
        `it reads the state of any other backend through terraform for plan, drift and the state reads only. Nothing was read or sent. ${instead}`,
      false,
    );
  },
  /** A write, a lock or a saved plan's apply on a backend whose state tenantform reads through terraform. */
  writesThroughTerraform(type: string, location: string, what: string) {
    return new TenantformError(
      'backend_read_only',
      `tenantform does not ${what} a stack on the "${type}" backend`,
      `tenantform reads the state of ${location} through terraform (\`terraform state pull\`, which takes no lock) and never writes it or takes its lock. ` +
        'Deploy this stack with `cdktn deploy` (or `cdktf deploy`), or run `terraform apply` in its synthesized folder, with the tenantform provider ' +
        "(`tenantform provider install`): they hold the backend's lock. Nothing was read from or sent to the platform.",
      false,
    );
  },
  /** `terraform init` or `terraform state pull` failed: terraform's own message, for the backend it was reading. */
  terraformFailed(type: string, location: string, command: string, message: string) {
    return new TenantformError(
      'backend_terraform_failed',
      `terraform could not read the "${type}" backend`,
      `\`${command}\` failed while reading ${location} (tenantform reads this backend's state through terraform, in the stack's folder):\n\n${message}\n\n` +
        "Nothing was sent to the platform. Check the backend's settings and the credentials in the environment, then run again; " +
        'running again unchanged helps only when the backend was briefly unreachable.',
      true,
    );
  },
  terraformMissing(type: string, reason: string) {
    return new TenantformError(
      'terraform_missing',
      'terraform cannot be run',
      `tenantform reads the state of a "${type}" backend through terraform, which could not be started (${reason}). ` +
        'Install Terraform 1.x and put it on PATH, then run again. Nothing was sent to the platform.',
      false,
    );
  },
  noWorkspaces(type: string) {
    return new TenantformError(
      'workspaces_not_supported',
      'Workspaces not supported',
      `The ${type} backend keeps one state: it has no workspaces (terraform refuses them there too). Another state needs another address.`,
      false,
    );
  },
  invalidWorkspace(name: string) {
    return new TenantformError(
      'invalid_workspace',
      'Invalid workspace name set using TF_WORKSPACE',
      `TF_WORKSPACE=${JSON.stringify(name)} is not a workspace name: it may hold only letters, digits and the characters - . _ ~ $ & + , : ; = @ (no path separator), and be neither "." nor "..", as terraform requires. Nothing was read or written.`,
      false,
    );
  },
  invalidSetting(type: string, setting: string, reason: string) {
    return new TenantformError('backend_setting', 'Invalid backend setting', `backend "${type}", ${setting}: ${reason}`, false);
  },
  /** A file a pg TLS setting names (`sslrootcert`, `sslcert`, `sslkey` or their PG* variables) cannot be read. */
  tlsFileUnreadable(setting: string, path: string, reason: string) {
    return new TenantformError(
      'backend_tls_file',
      'Cannot read a TLS file of the state backend',
      `backend "pg", ${setting}: ${path} cannot be read (${reason}). Point ${setting} at the file, or give this user read access to it. Nothing was sent.`,
      false,
    );
  },
  tlsFileInvalid(setting: string, path: string, reason: string) {
    return new TenantformError(
      'backend_tls_file',
      'A TLS file of the state backend is not usable',
      `backend "pg", ${setting}: ${path} cannot be used (${reason}). ` +
        'sslrootcert takes the CA certificate (PEM); sslcert and sslkey take the client certificate and its private key, which must match. Nothing was sent.',
      false,
    );
  },
  tlsKeyExposed(setting: string, path: string, mode: string) {
    return new TenantformError(
      'backend_tls_key_exposed',
      'The private key of the state backend can be read by others',
      `backend "pg", ${setting}: ${path} has mode ${mode}, and a private key must be readable by its owner only (0600; 0640 when root owns it), ` +
        `as libpq and Terraform require. Run \`chmod 600 ${path}\`. Nothing was sent.`,
      false,
    );
  },
  /** The TLS handshake with the pg server failed, or the server refused the connection for want of a client certificate. */
  tlsFailed(location: string, host: string, reason: string, remedy: string) {
    return new TenantformError('backend_tls', 'Cannot connect securely to the state backend', `${location}: TLS with ${host}: ${reason}. ${remedy}`, false);
  },
  unreachable(location: string, reason: string) {
    return new TenantformError('backend_unreachable', 'Cannot reach the state backend', `${location}: ${reason}`, true);
  },
  stateKeptLocally(location: string, cause: string, file: string) {
    return new TenantformError(
      'state_not_persisted',
      'The state was not written to its backend',
      `${cause}\n\nWhat this run changed on the platform is recorded only in ${file}, written in the current directory. ` +
        `Once ${location} answers again, run \`tenantform state push ${file}\` (it continues the state's lineage), then plan. ` +
        'Applying again before that would create those objects a second time.',
      false,
    );
  },
  locked(location: string, holder: string, id: string | undefined) {
    return new TenantformError(
      'state_locked',
      'The state is locked',
      `${location} is locked by ${holder}. Wait for that run to finish (--lock-timeout=DURATION waits for it). ` +
        (id
          ? `If no run is active (it crashed), remove the lock with \`tenantform force-unlock ${id}\`.`
          : "This lock belongs to its holder's connection and goes when that process stops."),
      true,
    );
  },
  /** `why` says which lock Terraform takes and how to let tenantform take it too. */
  lockUnavailable(location: string, why: string, optIn: string) {
    return new TenantformError(
      'lock_unavailable',
      'The state cannot be locked against Terraform',
      `${location}: ${why} Nothing was sent to the platform. Where no \`terraform\` run uses this state, set ${optIn} ` +
        'to lock it with the lock-info file alone, which excludes other tenantform runs but not Terraform.',
      false,
    );
  },
  lockNotFound(location: string) {
    return new TenantformError('lock_not_found', 'The state is not locked', `There is no lock on ${location}; nothing to unlock.`, false);
  },
  lockIdMismatch(location: string, given: string, actual: string | undefined) {
    return new TenantformError(
      'lock_id_mismatch',
      'Lock id does not match',
      `The lock on ${location} has id ${actual ?? '(none)'}, not ${given}. Copy the id from the error that reported the lock.`,
      false,
    );
  },
  lockHeldByLiveProcess(location: string, holder: { Who?: string; Operation?: string }) {
    return new TenantformError(
      'lock_in_use',
      'The lock is held by a running process',
      `${location} is locked by a process that is still running (${holder.Operation ?? 'an operation'} of ${holder.Who ?? 'someone'}). ` +
        'Its lock goes when it stops; a lock of a running process cannot be forced.',
      false,
    );
  },
  forceUnlockUnsupported(location: string, reason: string) {
    return new TenantformError('force_unlock_unsupported', 'Cannot force the lock open', `${location}: ${reason}`, false);
  },
};
