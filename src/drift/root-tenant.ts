import type { PlatformClient } from '../api';
import { isNotFound } from '../api/errors';

/**
 * The tenant a stack's drift alert is raised for: the nearest tenant that contains every
 * tenant the stack's objects belong to (the topmost of them when one contains the others).
 * Without any tenant id among the objects, the API client's own tenant (the top of the
 * subtree it sees).
 */
export async function stackRootTenant(client: PlatformClient, tenantIds: readonly string[]): Promise<string> {
  if (tenantIds.length === 0) return callerTenant(client);
  const chains = await Promise.all(tenantIds.map((id) => ancestry(client, id)));
  const [first, ...rest] = chains;
  const common = first.find((id) => rest.every((chain) => chain.includes(id)));
  // Separate visible subtrees have no common tenant: the shallowest one then.
  return common ?? [...chains].sort((a, b) => a.length - b.length)[0][0];
}

/** The tenant and its ancestors as far as the client can see, nearest first. */
async function ancestry(client: PlatformClient, tenantId: string): Promise<string[]> {
  const chain: string[] = [];
  for (let current: string | null = tenantId; current !== null && !chain.includes(current);) {
    let tenant: { id: string; parent_id: string | null } | undefined;
    try {
      [tenant] = await client.getTenants({ uuids: [current] });
    } catch (err) {
      // Above the client's subtree: the chain stops at the last visible tenant.
      if (!isNotFound(err)) throw err;
    }
    if (!tenant) break;
    chain.push(tenant.id);
    current = tenant.parent_id;
  }
  return chain.length > 0 ? chain : [tenantId];
}

/**
 * The API client's own tenant: the top of the subtree it sees. The platform has no listing of
 * every visible tenant (GAPS: listing tenants without a filter), so ask for the client itself.
 */
async function callerTenant(client: PlatformClient): Promise<string> {
  return client.ownTenantId();
}
