import { TenantformError } from '../errors';

/** The failures of reading and writing a state and its journal. */

export const stateErrors = {
  stateUnreadable(file: string, reason: string) {
    return new TenantformError(
      'state_unreadable',
      'Cannot read the state',
      `${file}: ${reason}. Restore it from ${file}.backup, or point --state at a valid state file.`,
      false,
    );
  },
  notARegularFile(path: string, kind: string) {
    return new TenantformError(
      'not_a_regular_file',
      'Not a regular file',
      `${path} is ${kind}. tenantform writes its state and plan files by replacing them, and would replace or remove it. ` +
        'Nothing was read or changed. Name a regular file (or a path where none exists yet), the target itself rather than a link to it.',
      false,
    );
  },
  journalDamaged(file: string, line: number, reason: string) {
    return new TenantformError(
      'journal_damaged',
      'The apply journal cannot be trusted',
      `${file}, line ${line}: ${reason}. The journal holds what an unfinished apply did after the state was last written; ` +
        'read past the damage, objects it made would be created again. Nothing was read or changed. Restore the journal, ' +
        'or, if every object it names is in the state (check with the platform), remove it.',
      false,
    );
  },
  stateWriteInterrupted(file: string, found: string, serial: number | undefined) {
    return new TenantformError(
      'state_write_interrupted',
      'The last write of the state was interrupted',
      `${file}.writing holds the complete state that was being written${serial === undefined ? '' : ` (serial ${serial})`}, ` +
        `while ${file} ${found}. Objects recorded only in the newer state would otherwise be created again. Nothing was ` +
        `read or changed. Check it, then put it in place and run again: mv '${file}.writing' '${file}'`,
      false,
    );
  },
};
