import { z } from 'zod';
import type { User, UserUpdate } from '../../api';
import { isConflict, isNotFound } from '../../api/errors';
import { faultErrors, resourceErrors } from '../errors';
import { attr, oneOf } from '../attributes';
import { uuidImportId } from '../import-id';
import { defineResource, type OperationContext } from '../declaration';
import type { PlannedOf, StateOf } from '../models';
import { updateVersioned, type VersionedObject } from '../versioned';
import { DISCOVERY_CONCURRENCY, mapLimit, type DiscoveryScope, type TenantInfo } from '../discovery';

const NOTIFICATIONS = [
  'maintenance',
  'quota',
  'reports',
  'backup_error',
  'backup_warning',
  'backup_info',
  'backup_daily_report',
  'backup_critical',
  'device_control_warning',
] as const;

const attributes = {
  id: attr.string({ mode: 'computed', key: true, description: 'The identifier the platform gives the user.' }),
  tenant_id: attr.uuid({
    mode: 'required',
    forceNew: true,
    identifying: true,
    description: 'The tenant the user belongs to.',
  }),
  login: attr.string({
    mode: 'required',
    identifying: true,
    check: z.string().regex(/^[A-Za-z0-9._@+-]{1,255}$/),
    expects: 'a login of 1 to 255 letters, digits or . _ @ + -, unique on the platform',
    description: 'The login, unique on the whole platform.',
  }),
  email: attr.string({
    mode: 'required',
    check: z.string().regex(/^[^@\s]+@[^@\s]+$/),
    expects: 'an email address',
    description: "The user's email address (activation emails go there).",
  }),
  first_name: attr.string({ mode: 'optional', description: 'First name.' }),
  last_name: attr.string({ mode: 'optional', description: 'Last name.' }),
  language: attr.string({ mode: 'optional_computed', description: "The user's language; left out, the platform's value (`en`) is kept." }),
  enabled: attr.bool({ mode: 'optional', default: true, description: 'Whether the user can sign in.' }),
  notifications: attr.list(oneOf(NOTIFICATIONS), {
    mode: 'optional_computed',
    unique: true,
    expects: `notification kinds (${NOTIFICATIONS.join(', ')})`,
    description:
      "Which notifications the user gets by email; `[]` for none. Left out, the platform's choice is kept: a new user gets `quota`, `reports` and `backup_daily_report`, as one made in the console does.",
  }),
  send_activation_email: attr.bool({
    mode: 'optional',
    default: true,
    description: 'On create, send the activation email (the user sets a password from it). Has no effect afterwards.',
  }),
  version: attr.number({ mode: 'computed', version: true, description: "The platform's version of the user." }),
  activated: attr.bool({ mode: 'computed', description: 'True once the user has set a password from the activation email.' }),
};

export const user = defineResource({
  type: 'tenantform_user',
  description:
    "A user account in a tenant, such as a customer's administrator (give it roles with `tenantform_user_roles`). Updates carry the version tenantform last saw; destroying it disables it, then deletes it.",
  schemaVersion: 0,
  attributes,
  notes: [
    'An update sends the version of the last plan; a concurrent change is a version conflict naming both versions.',
    'Destroying a user disables it first (the platform deletes only disabled users), then deletes it.',
    '`activated` changes when the user follows the activation email: it is shown, never planned.',
  ],
  importId: uuidImportId('user', (id) => ({ id, send_activation_email: true })),
  identity: (s) => s.id,
  discover: {
    rank: 80,
    list: async (scope, tenant) => (await tenantUsers(scope, tenant)).map((u) => ({ identity: { id: u.id }, label: ['user', u.login] })),
  },
  example: {
    name: 'contoso_admin',
    config: {
      tenant_id: '${tenantform_tenant.contoso.id}',
      login: 'contoso-admin',
      email: 'admin@contoso.example',
      first_name: 'Dana',
      last_name: 'Reyes',
      notifications: ['quota', 'backup_error'],
    },
  },
  async read(ctx, state) {
    const live = await fetchOne(ctx, state.id);
    return live ? fromUser(live, state.send_activation_email) : null;
  },
  // POST /users makes a new user each time (a repeat then meets "login taken").
  nonIdempotentCreate: true,
  async create(ctx, planned) {
    const created = await ctx.client.createUser({ tenant_id: planned.tenant_id, ...writable(planned) }).catch(async (err: unknown) => {
      if (!isConflict(err)) throw err;
      // GAPS "Create a user": a login taken, by a user this state does not record (it may be in another tenant).
      const taken = (await candidates(ctx, planned.tenant_id, planned.login))[0];
      throw faultErrors.nameTaken(ctx.address ?? 'the user', `a user with login "${planned.login}"`, taken?.id, taken?.id);
    });
    if (planned.send_activation_email) await ctx.client.sendActivationEmail(created.id);
    return fromUser(await ctx.client.getUser(created.id), planned.send_activation_email);
  },
  async update(ctx, prior, planned) {
    const changes = writable(planned);
    const updated = await updateVersioned(ctx, prior, users, (version) => ctx.client.updateUser(prior.id, { ...changes, version }));
    return fromUser(updated, planned.send_activation_email);
  },
  async delete(ctx, prior) {
    const { id } = prior;
    const live = await fetchOne(ctx, id);
    if (!live) return;
    const expected = Number(prior.version);
    if (live.version !== expected) throw resourceErrors.versionConflict(describe(prior), expected, live.version);
    // GAPS "Delete a user": disable first, then delete with the version the disable returned.
    const disabled = live.enabled ? await ctx.client.updateUser(id, { version: expected, enabled: false }) : live;
    try {
      await ctx.client.deleteUser(id, disabled.version);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
  async adoptionCandidates(ctx, pending) {
    // A login is unique on the platform: the user a lost create made has the pending login.
    return (await candidates(ctx, pending.tenant_id, pending.login)).map((u) => fromUser(u, pending.send_activation_email));
  },
});

/** The users of a tenant with a login. */
async function candidates(ctx: OperationContext, tenantId: string, login: string): Promise<User[]> {
  const users = await Promise.all((await ctx.client.listTenantUsers(tenantId)).map((id) => ctx.client.getUser(id)));
  return users.filter((u) => u.login === login);
}

function writable(s: PlannedOf<typeof attributes>): Omit<UserUpdate, 'version'> {
  const out: Omit<UserUpdate, 'version'> = {
    login: s.login,
    contact: { email: s.email, firstname: s.first_name, lastname: s.last_name },
    enabled: s.enabled,
  };
  // Left out of the configuration, the platform's own (its defaults on create) are kept.
  if (Array.isArray(s.notifications)) out.notifications = [...s.notifications];
  if (typeof s.language === 'string') out.language = s.language;
  return out;
}

function fromUser(u: User, sendActivation: boolean): StateOf<typeof attributes> {
  const c = u.contact ?? {};
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    id: u.id,
    tenant_id: u.tenant_id,
    login: u.login,
    // Required on the platform too: an answer without one is a change to plan, as any other.
    email: text(c.email) ?? '',
    first_name: text(c.firstname),
    last_name: text(c.lastname),
    language: u.language ?? null,
    enabled: u.enabled,
    notifications: [...(u.notifications ?? [])],
    send_activation_email: sendActivation,
    version: u.version,
    activated: u.activated ?? false,
  };
}

async function fetchOne(ctx: OperationContext, id: string): Promise<User | null> {
  try {
    return await ctx.client.getUser(id);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

function describe(s: StateOf<typeof attributes>): string {
  return `user ${s.id} ("${s.login}")`;
}

const users: VersionedObject<User> = { fetch: fetchOne, describe };

/** A tenant's users by login, read once for the users and their roles. */
export function tenantUsers(scope: DiscoveryScope, tenant: TenantInfo): Promise<User[]> {
  return scope.once(`users ${tenant.id}`, async () => {
    const users = await mapLimit(await scope.client.listTenantUsers(tenant.id), DISCOVERY_CONCURRENCY, (id) => scope.client.getUser(id));
    return users.sort((a, b) => a.login.localeCompare(b.login));
  });
}

export default user;
