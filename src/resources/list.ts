/**
 * Listing the live objects of one kind (Terraform 1.14's list resources, `terraform query`):
 * the listing `tenantform export` makes, for one kind, one tenant or its subtree, found object
 * by object so that a caller that has enough stops the walk.
 */
import { z } from 'zod';
import type { PlatformClient } from '../api';
import { attr, type Attributes } from './attributes';
import type { ResourceKind, State } from './declaration';
import { subtreeScope, type ListedObject, type TenantInfo } from './discovery';

/** What every list resource is configured with (its `config` block). */
export const LIST_ATTRIBUTES = {
  tenant_id: attr.uuid({ mode: 'optional', description: "The tenant to list in; by default the API client's own tenant." }),
  include_subtree: attr.bool({
    mode: 'optional',
    description: 'Also list in every tenant below it. Without it, the objects of the tenant itself (for tenants: its children).',
  }),
  name_contains: attr.string({ mode: 'optional', description: 'Only the objects whose display name contains this text (letter case ignored).' }),
} as const;

/** Added for a kind that finds its objects by name only (the platform cannot list them). */
export const NAMES_ATTRIBUTES = {
  names: attr.list(z.string(), {
    mode: 'required',
    description: 'The names to look for: the platform lists none, so only these are read, in every application of each tenant.',
  }),
} as const;

/** The kinds served as list resources: those whose objects can be listed. */
export function listableKinds(kinds: readonly ResourceKind[]): ResourceKind[] {
  return kinds.filter((k) => k.discover !== undefined);
}

/** The attributes of a kind's list configuration. */
export function listAttributes(kind: ResourceKind): Attributes {
  return kind.discover?.byName ? { ...LIST_ATTRIBUTES, ...NAMES_ATTRIBUTES } : LIST_ATTRIBUTES;
}

export interface ListConfig {
  readonly tenantId: string | null;
  readonly includeSubtree: boolean;
  readonly nameContains: string | null;
  readonly names: readonly string[];
}

/** The list configuration from the values of its attributes. */
export function listConfig(config: State): ListConfig {
  return {
    tenantId: typeof config.tenant_id === 'string' ? config.tenant_id : null,
    includeSubtree: config.include_subtree === true,
    nameContains: typeof config.name_contains === 'string' && config.name_contains !== '' ? config.name_contains : null,
    names: Array.isArray(config.names) ? config.names.filter((n): n is string => typeof n === 'string') : [],
  };
}

/** One object a listing found. */
export interface FoundObject extends ListedObject {
  /** The id `tenantform import` takes. */
  readonly importId: string;
  /** The tenant it is listed under, then the words of its label: `Globex Retail / user alice`. */
  readonly displayName: string;
}

/**
 * The live objects of `kind`, tenant by tenant in tree order (parents first). Without
 * `includeSubtree`, only the objects the tenant itself manages: those listed under it, and the
 * children a tenant owns. Platform errors are thrown where they happen, after what was found.
 */
export async function* listObjects(client: PlatformClient, kind: ResourceKind, config: ListConfig): AsyncGenerator<FoundObject> {
  const discover = kind.discover;
  if (!discover) return;
  const rootId = config.tenantId ?? (await client.ownTenantId());
  const { root, tenants, scope } = await subtreeScope(client, rootId, { settingNames: config.names });
  // Without the subtree: the tenant itself, or its children for a kind whose objects there belong to the parent.
  const walked = config.includeSubtree ? tenants : tenants.filter((t) => (discover.ownedByParent ? t.parentId === root.id : t.id === root.id));
  const wanted = config.nameContains?.toLowerCase();
  for (const tenant of walked) {
    for (const listed of await discover.list(scope, tenant)) {
      if (!config.includeSubtree && (listed.ownerTenantId ?? tenant.id) !== root.id) continue;
      const displayName = displayNameOf(tenant, listed);
      if (wanted !== undefined && !displayName.toLowerCase().includes(wanted)) continue;
      yield { ...listed, importId: kind.identity(listed.identity), displayName };
    }
  }
}

function displayNameOf(tenant: TenantInfo, listed: ListedObject): string {
  return [tenant.name, listed.label.join(' ')].join(' / ');
}
