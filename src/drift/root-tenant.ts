import type { PlatformClient } from '../api';
import { isNotFound } from '../api/errors';
import { TenantformError } from '../errors';

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
  for (let current: string | null = tenantId; current !== null && !chain.includes(current); ) {
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

/** The top of the subtree the client sees: the visible tenant whose parent is not visible. */
async function callerTenant(client: PlatformClient): Promise<string> {
  const tenants = await client.getTenants({ lod: 'stamps' });
  const ids = new Set(tenants.map((t) => t.id));
  const top = tenants.find((t) => t.parent_id === null || !ids.has(t.parent_id));
  if (!top) {
    throw new TenantformError('drift_alert_no_tenant', 'No tenant for the drift alert', 'The API client sees no tenant to raise the drift alert for.', false);
  }
  return top.id;
}
