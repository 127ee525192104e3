import type { TenantformError } from '../../errors';
import type { TerraformSettings } from '../model';
import { declaredProviderAddress } from '../provider-source';
import { requiredVersionProblems } from '../required-version';

/**
 * The `terraform` blocks: `required_version` checked against the language tenantform speaks, the
 * provider address `required_providers` names, and the backend as written (checked when it is opened).
 */
export function terraformSettings(
  settings: TerraformSettings,
  report: (problem: TenantformError) => void,
): { readonly providerAddress: string | undefined; readonly backend: unknown } {
  requiredVersionProblems(settings.requiredVersions).forEach(report);
  return { providerAddress: declaredProviderAddress(settings.requiredProviders, report), backend: settings.backend };
}
