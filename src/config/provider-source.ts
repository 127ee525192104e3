import type { TenantformError } from '../errors';
import { isRecord } from '../plain-json';
import { PROVIDER_TYPE, providerSourceAddress } from '../resources/provider-config';
import { settingsErrors } from './errors';

/**
 * The provider address the configuration names for tenantform's resources: the `source` of
 * `required_providers.tenantform` in its `terraform` blocks (a private registry's host, a mirror's
 * namespace, OpenTofu's registry), written out in full. Undefined when no block names one; the
 * state then keeps the address it records, as Terraform keeps a provider's address.
 */
export function declaredProviderAddress(requiredProviders: readonly unknown[], report: (problem: TenantformError) => void): string | undefined {
  let address: string | undefined;
  for (const providers of requiredProviders) {
    const requirement = isRecord(providers) ? providers[PROVIDER_TYPE] : undefined;
    // A bare string is the older version constraint, which names no source.
    if (!isRecord(requirement) || requirement.source === undefined) continue;
    const source = requirement.source;
    const normalized = typeof source === 'string' ? providerSourceAddress(source) : undefined;
    if (normalized === undefined) report(settingsErrors.invalidProviderSource(String(source)));
    else if (address !== undefined && address !== normalized) report(settingsErrors.conflictingProviderSources(address, normalized));
    else address = normalized;
  }
  return address;
}
