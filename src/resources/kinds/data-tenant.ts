import type { Tenant } from '../../api';
import { isNotFound } from '../../api/errors';
import { invalidValue } from '../../diagnostics';
import { resourceErrors } from '../errors';
import { attr } from '../attributes';
import { defineDataSource, type OperationContext } from '../declaration';
import type { StateOf } from '../models';
import { exactlyOneOf } from '../validate';

const attributes = {
  id: attr.uuid({
    mode: 'optional_computed',
    identifying: true,
    description: 'The tenant id. Set exactly one of `id` and `name`.',
  }),
  name: attr.string({
    mode: 'optional_computed',
    identifying: true,
    description: 'The tenant name, matched exactly (case-sensitive). Set exactly one of `id` and `name`.',
  }),
  parent_id: attr.uuid({
    mode: 'optional_computed',
    description: 'With `name`: look only among the direct children of this tenant. Read back: the parent tenant (null for the root).',
  }),
  kind: attr.string({ mode: 'computed', description: 'The tenant kind: `root`, `partner`, `folder`, `customer` or `unit`.' }),
};

export const dataTenant = defineDataSource({
  type: 'tenantform_tenant',
  description:
    'Finds a tenant by its `id`, or by its exact `name` among the direct children of `parent_id`, or, without `parent_id`, ' +
    "in the subtree of the API client's own tenant (the platform has no listing of every tenant a client can see).",
  attributes,
  check(config) {
    const problems = exactlyOneOf(config, ['id', 'name']);
    if (problems.length === 0 && config.parent_id !== null && config.name === null) {
      problems.push(
        invalidValue({
          code: 'conflicting_attributes',
          path: ['parent_id'],
          expected: '`parent_id` only together with `name`',
          found: '`parent_id` together with `id`',
          message: '`parent_id` narrows a search by name; a tenant found by id needs no parent.',
        }),
      );
    }
    return problems;
  },
  notes: ['A name that matches several tenants is an error: add `parent_id` to say which one.'],
  example: { name: 'acme', config: { name: 'Acme Manufacturing', parent_id: '${data.tenantform_tenant.northwind.id}' } },
  async read(ctx, config) {
    if (config.id !== null) return toState(await byId(ctx, config.id));
    const parentId = config.parent_id ?? undefined;
    // The check sets exactly one of id and name.
    return toState(matchTenants(await candidates(ctx, parentId), config.name ?? '', parentId));
  },
});

/** The children of `parentId`; without a parent, the subtree of the API client's own tenant. */
async function candidates(ctx: OperationContext, parentId: string | undefined): Promise<Tenant[]> {
  // GAPS "Listing tenants without a filter" answers 400; "The API client's own tenant" gives the root to list under.
  if (!parentId) return ctx.client.getTenants({ subtreeRootId: await ctx.client.ownTenantId(), lod: 'basic' });
  try {
    return await ctx.client.getTenants({ parentId, lod: 'basic' });
  } catch (err) {
    // platform-interface "tenant lookup": an unknown tenant id answers 404.
    if (isNotFound(err)) throw resourceErrors.dataSourceNotFound(dataTenant.type, `parent_id "${parentId}" (no such tenant)`);
    throw err;
  }
}

async function byId(ctx: OperationContext, id: string): Promise<Tenant> {
  let found: Tenant[] = [];
  try {
    found = await ctx.client.getTenants({ uuids: [id], lod: 'basic' });
  } catch (err) {
    // platform-interface "tenant lookup": an unknown tenant id answers 404.
    if (!isNotFound(err)) throw err;
  }
  const tenant = found.find((t) => t.id === id);
  if (!tenant) throw resourceErrors.dataSourceNotFound(dataTenant.type, `id "${id}"`);
  return tenant;
}

/** The one tenant named exactly `name` (under `parentId` when given); not found or ambiguous otherwise. */
export function matchTenants(tenants: readonly Tenant[], name: string, parentId?: string): Tenant {
  const found = tenants.filter((t) => t.name === name && (parentId === undefined || t.parent_id === parentId));
  const what = `name ${JSON.stringify(name)}${parentId ? ` under parent ${parentId}` : ''}`;
  if (found.length === 0) throw resourceErrors.dataSourceNotFound(dataTenant.type, what);
  if (found.length > 1) throw resourceErrors.dataSourceAmbiguous(dataTenant.type, what, found.length);
  return found[0];
}

function toState(t: Tenant): StateOf<typeof attributes> {
  // The platform's root tenant is its own parent; read back, the root has none.
  return { id: t.id, name: t.name ?? null, kind: t.kind ?? null, parent_id: t.parent_id === t.id ? null : t.parent_id };
}

export default dataTenant;
