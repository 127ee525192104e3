import { TenantformError } from '../errors';

/** The failures of reading a saved plan. */

export const planErrors = {
  planfileUnreadable(file: string, reason: string) {
    return new TenantformError(
      'planfile_unreadable',
      'Cannot read the plan file',
      `${file}: ${reason}. Create it with \`tenantform plan --out ${file}\`.`,
      false,
    );
  },
};
