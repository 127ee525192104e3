import { TenantformError } from '../errors';

/** The failures of ordering objects by their dependencies. */

export const graphErrors = {
  dependencyCycle(cycle: readonly string[]) {
    return new TenantformError(
      'dependency_cycle',
      'Dependency cycle',
      `${[...cycle, cycle[0]].join(' -> ')}. Remove one of these references or depends_on entries.`,
      false,
    );
  },
};
