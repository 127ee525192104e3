import type { AccessPolicy, AccessPolicyWrite, Tenant } from '../../api';
import { isNotFound } from '../../api/errors';
import { ROLE_IDS as ROLES, ROLE_TENANT_KINDS } from '../../api/roles';
import { attr, oneOf } from '../attributes';
import { uuidImportId } from '../import-id';
import { refusedChange, type Diagnostic } from '../../diagnostics';
import { defineResource, type OperationContext } from '../declaration';
import type { StateOf } from '../models';
import { containsUnknown, normalize, parseJson } from '../values';
import { tenantUsers } from './user';

const roleAttributes = {
  tenant_id: attr.uuid({ mode: 'required', description: 'The tenant the role is on.' }),
  role_id: attr.string({
    mode: 'required',
    check: oneOf(ROLES),
    expects: `one of ${ROLES.join(', ')}`,
    description: `The role: ${ROLES.map((r) => `\`${r}\``).join(', ')}.`,
  }),
};
type Role = { readonly tenant_id: string; readonly role_id: (typeof ROLES)[number] };
const NIL = '00000000-0000-0000-0000-000000000000';

const attributes = {
  id: attr.string({ mode: 'computed', key: true, description: 'The user id.' }),
  user_id: attr.uuid({ mode: 'required', forceNew: true, identifying: true, key: true, description: 'The user.' }),
  roles: attr.setNested(roleAttributes, { mode: 'required', description: 'The roles: which role the user has on which tenant, a set.' }),
};

type Roles = StateOf<typeof attributes>['roles'];

export const userRoles = defineResource({
  type: 'tenantform_user_roles',
  description:
    "The whole role set of one user: which role the user has on which tenant. Applying replaces the user's roles with exactly these; destroying removes them all.",
  // Version 1: `roles` is a set of objects; version 0 held it as a string of JSON.
  schemaVersion: 1,
  attributes,
  notes: [
    '`partner_admin` goes on partner or folder tenants, `company_admin` on customers, `unit_admin` on units, `readonly_admin` on partners, customers or units, the service roles on customers and units: the platform refuses a role on the wrong kind of tenant, naming it.',
    'Roles are compared as a set: their order never makes a difference.',
  ],
  // The tenants' kinds are known only to the platform: read them so that a role on the wrong
  // kind of tenant is refused by the plan rather than by the write.
  async modifyPlan(ctx, { planned }) {
    if (!ctx || !planned || containsUnknown(planned.roles)) return {};
    const roles = rolesOf(planned.roles as Roles);
    if (roles.length === 0) return {};
    let tenants: Tenant[];
    try {
      tenants = await ctx.client.getTenants({ uuids: roles.map((r) => r.tenant_id), lod: 'basic' });
    } catch (err) {
      // A tenant out of reach: the write names it.
      if (isNotFound(err)) return {};
      throw err;
    }
    const kindById = new Map(tenants.map((t) => [t.id, t.kind]));
    const diagnostics = roles.flatMap((r, i): Diagnostic[] => {
      const kind = kindById.get(r.tenant_id);
      const allowed: readonly string[] = ROLE_TENANT_KINDS[r.role_id];
      if (kind === undefined || kind === null || allowed.includes(kind)) return [];
      return [
        refusedChange({
          code: 'role_not_for_tenant_kind',
          path: ['roles', i, 'role_id'],
          expected: `a tenant of kind ${allowed.join(' or ')} for ${r.role_id}`,
          found: `tenant ${r.tenant_id}, a ${kind}`,
          message: `${r.role_id} cannot be granted on a ${kind} tenant`,
        }),
      ];
    });
    return { diagnostics };
  },
  importId: uuidImportId('user', (id) => ({ id, user_id: id })),
  identity: (s) => s.user_id,
  discover: {
    // Beside the users: each user's roles come right after the user.
    rank: 80,
    async list(scope, tenant) {
      const found = [];
      for (const u of await tenantUsers(scope, tenant)) {
        if ((await scope.client.getAccessPolicies(u.id)).length > 0) found.push({ identity: { user_id: u.id }, label: ['user', u.login, 'roles'] });
      }
      return found;
    },
  },
  example: {
    name: 'contoso_admin',
    config: {
      user_id: '${tenantform_user.contoso_admin.id}',
      roles: [{ tenant_id: '${tenantform_tenant.contoso.id}', role_id: 'company_admin' }],
    },
  },
  async read(ctx, state) {
    const live = await livePolicies(ctx, state.user_id);
    if (live === null) return null;
    return toState(
      state.user_id,
      inOrderOf(
        rolesOf(state.roles),
        live.map((p) => ({ tenant_id: p.tenant_id, role_id: p.role_id as Role['role_id'] })),
      ),
    );
  },
  async create(ctx, planned) {
    return toState(planned.user_id, await put(ctx, planned.user_id, rolesOf(planned.roles)));
  },
  async update(ctx, _prior, planned) {
    return toState(planned.user_id, await put(ctx, planned.user_id, rolesOf(planned.roles)));
  },
  async delete(ctx, prior) {
    try {
      await put(ctx, prior.user_id, []);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
  upgradeState(fromVersion, raw) {
    // Version 0 held the roles as a string of JSON, as the configuration wrote them.
    if (fromVersion === 0 && typeof raw.roles === 'string')
      return normalize(attributes, { ...raw, roles: parseJson(raw.roles) ?? null }) as StateOf<typeof attributes>;
    return raw as StateOf<typeof attributes>;
  },
});

const roleKey = (r: { tenant_id: string; role_id: string }) => `${r.tenant_id}/${r.role_id}`;

/** The roles of a state or a plan (all known); none where an import knows none yet. */
function rolesOf(roles: Roles | null): Role[] {
  return (roles ?? []).map((r) => ({ tenant_id: r.tenant_id, role_id: r.role_id as Role['role_id'] }));
}

/** The live set in the recorded order (then the others), so that order never shows as drift. */
function inOrderOf(recorded: Role[], live: Role[]): Role[] {
  const liveKeys = new Set(live.map(roleKey));
  const kept = recorded.filter((r) => liveKeys.has(roleKey(r)));
  const keptKeys = new Set(kept.map(roleKey));
  return [...kept, ...live.filter((r) => !keptKeys.has(roleKey(r)))];
}

function toState(userId: string, roles: Role[]): StateOf<typeof attributes> {
  return { id: userId, user_id: userId, roles: roles.map((r) => ({ tenant_id: r.tenant_id, role_id: r.role_id })) };
}

async function livePolicies(ctx: OperationContext, userId: string): Promise<AccessPolicy[] | null> {
  try {
    return await ctx.client.getAccessPolicies(userId);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** GAPS "User roles": the PUT replaces the set; entries kept carry their id and version, new ones the nil id. */
async function put(ctx: OperationContext, userId: string, roles: Role[]): Promise<Role[]> {
  const current = (await livePolicies(ctx, userId)) ?? [];
  const items: AccessPolicyWrite[] = roles.map((r) => {
    const known = current.find((p) => roleKey(p) === roleKey(r));
    return known
      ? {
          id: known.id,
          issuer_id: known.issuer_id ?? NIL,
          trustee_id: userId,
          trustee_type: 'user',
          tenant_id: r.tenant_id,
          role_id: r.role_id,
          version: known.version,
        }
      : { id: NIL, issuer_id: NIL, trustee_id: userId, trustee_type: 'user', tenant_id: r.tenant_id, role_id: r.role_id, version: 0 };
  });
  const after = await ctx.client.putAccessPolicies(userId, items);
  return inOrderOf(
    roles,
    after.map((p) => ({ tenant_id: p.tenant_id, role_id: p.role_id as Role['role_id'] })),
  );
}

export default userRoles;
