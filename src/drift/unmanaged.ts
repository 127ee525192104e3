/**
 * Unmanaged objects, as driftctl reports them: objects on the platform, in the tenants the stack
 * manages, that no configuration declares; and the coverage, the share of those objects that
 * the stack manages.
 */
import type { PlatformClient } from '../api';
import { discover, type Discovered, type TenantInfo } from '../export/discover';
import type { ResourceKind, State } from '../resources/declaration';
import type { IgnoreRules } from './ignore';
import { stackRootTenant } from './root-tenant';
import type { Coverage, UnmanagedObject } from './model';

export interface UnmanagedOptions {
  /** The tenants the stack's objects belong to. */
  readonly tenantIds: readonly string[];
  /** The objects recorded in the state. */
  readonly recorded: ReadonlyArray<{ type: string; attributes: State }>;
  readonly kindOf: (type: string) => ResourceKind | undefined;
  readonly ignore: IgnoreRules;
  /** Setting names to look for besides those the stack manages. */
  readonly settingNames?: readonly string[];
}

export async function findUnmanaged(client: PlatformClient, opts: UnmanagedOptions): Promise<{ unmanaged: UnmanagedObject[]; coverage: Coverage }> {
  const managedIds = new Set(
    opts.recorded.flatMap((o) => {
      const kind = opts.kindOf(o.type);
      return kind ? [`${o.type} ${kind.identity(o.attributes)}`] : [];
    }),
  );
  const tenants = new Set(opts.tenantIds);
  const discovery =
    tenants.size === 0
      ? null
      : await discover(client, await stackRootTenant(client, opts.tenantIds), { settingNames: opts.settingNames, recorded: opts.recorded });
  const tenantById = new Map((discovery?.tenants ?? []).map((t) => [t.id, t]));
  let managed = 0;
  const unmanaged: UnmanagedObject[] = [];
  for (const o of discovery?.objects ?? []) {
    const { owner, label } = placeOf(o, tenantById);
    if (!owner || !tenants.has(owner.id)) continue;
    const isManaged = managedIds.has(`${o.kind.type} ${o.importId}`);
    if (opts.ignore.ignoresObject(o.kind.type, o.importId, !isManaged)) continue;
    if (isManaged) managed++;
    else unmanaged.push({ type: o.kind.type, id: o.importId, tenantId: owner.id, tenantName: owner.name, label });
  }
  return { unmanaged, coverage: coverageOf(managed, unmanaged.length) };
}

/** The unmanaged objects of several data centers, as one report. */
export function mergeUnmanaged(parts: ReadonlyArray<{ unmanaged: UnmanagedObject[]; coverage: Coverage }>): {
  unmanaged: UnmanagedObject[];
  coverage: Coverage;
} {
  const managed = parts.reduce((n, p) => n + p.coverage.managed, 0);
  const unmanaged = parts.flatMap((p) => p.unmanaged);
  return { unmanaged, coverage: coverageOf(managed, unmanaged.length) };
}

function coverageOf(managed: number, unmanaged: number): Coverage {
  const total = managed + unmanaged;
  return { managed, unmanaged, percent: total === 0 ? null : Math.round((managed / total) * 1000) / 10 };
}

/**
 * The tenant an object belongs to and the words naming it there. An object listed under another
 * tenant than its owner (a sub-tenant, which belongs to its parent) is named by that tenant too.
 */
function placeOf(o: Discovered, tenantById: ReadonlyMap<string, TenantInfo>): { owner: TenantInfo | undefined; label: string } {
  if (o.ownerTenantId === undefined) return { owner: o.tenant, label: o.label.join(' ') };
  return { owner: tenantById.get(o.ownerTenantId), label: `${o.label.join(' ')} ${o.tenant.name}` };
}
