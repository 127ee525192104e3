import { z } from 'zod';
import type { Tenant, TenantCreate, TenantUpdate } from '../../api';
import { isConflict, isNotFound } from '../../api/errors';
import { invalidValue, refusedChange, type Diagnostic } from '../../diagnostics';
import { faultErrors, resourceErrors } from '../errors';
import { attr, oneOf } from '../attributes';
import { uuidImportId } from '../import-id';
import { defineResource, type OperationContext } from '../declaration';
import type { PlannedOf, StateOf } from '../models';
import { Unknown } from '../values';
import { updateVersioned, type VersionedObject } from '../versioned';

const KINDS = ['partner', 'folder', 'customer', 'unit'] as const;
const CUSTOMER_TYPES = ['default', 'enterprise', 'consumer', 'small_office', 'ti_unified'] as const;
const CONTACT_TYPES = ['legal', 'primary', 'billing', 'technical', 'management'] as const;
const PRICING_MODES = ['trial', 'production'] as const;

/** Contact members: Terraform name -> the platform's ContactPut name (the one place they are converted). */
const CONTACT_NAMES = {
  email: 'email',
  first_name: 'firstname',
  last_name: 'lastname',
  phone: 'phone',
  address1: 'address1',
  address2: 'address2',
  city: 'city',
  state: 'state',
  zipcode: 'zipcode',
  country: 'country',
} as const;

const contactText = (what: string) => attr.string({ mode: 'optional', description: what });

const attributes = {
  id: attr.string({ mode: 'computed', key: true, description: 'The identifier the platform gives the tenant.' }),
  parent_id: attr.uuid({
    mode: 'required',
    forceNew: true,
    identifying: true,
    description: 'The parent tenant (see the `tenantform_tenant` data source).',
  }),
  kind: attr.string({
    mode: 'required',
    forceNew: true,
    check: oneOf(KINDS),
    expects: `one of ${KINDS.join(', ')}`,
    description: 'What the tenant is: `partner` or `folder` (under the root, a partner or a folder), `customer`, or `unit` (under a customer or a unit).',
  }),
  name: attr.string({
    mode: 'required',
    identifying: true,
    check: z.string().trim().min(1),
    expects: 'a non-empty name, unique among its siblings',
    description: "The tenant name, unique among the parent's children.",
  }),
  customer_type: attr.string({
    mode: 'optional_computed',
    check: oneOf(CUSTOMER_TYPES),
    expects: `one of ${CUSTOMER_TYPES.join(', ')}`,
    description: "The customer type; left out, the platform's value is kept.",
  }),
  customer_id: attr.string({ mode: 'optional', description: 'Your own identifier of the customer, for example from billing.' }),
  internal_tag: attr.string({ mode: 'optional', description: 'A free tag for your own use.' }),
  language: attr.string({
    mode: 'optional_computed',
    check: z.string().regex(/^[a-z]{2}(-[A-Za-z]{2,4})?$/),
    expects: 'a language code such as `en` or `pt-BR`',
    description: "The tenant's default language; left out, the platform's value (`en`) is kept.",
  }),
  enabled: attr.bool({ mode: 'optional', default: true, description: 'Whether the tenant is enabled.' }),
  contact: attr.object(
    {
      email: contactText('Email address.'),
      first_name: contactText('First name.'),
      last_name: contactText('Last name.'),
      phone: contactText('Phone number.'),
      address1: contactText('Address, first line.'),
      address2: contactText('Address, second line.'),
      city: contactText('City.'),
      state: contactText('State or region.'),
      zipcode: contactText('Postal code.'),
      country: contactText('Country.'),
      types: attr.list(oneOf(CONTACT_TYPES), {
        mode: 'optional',
        unique: true,
        expects: `contact types (${CONTACT_TYPES.join(', ')})`,
        description: `What the contact is for: any of ${CONTACT_TYPES.map((t) => `\`${t}\``).join(', ')}. Once set, at least one must stay: the platform cannot clear them.`,
      }),
    },
    { mode: 'optional', description: "The tenant's contact. Members left out are cleared, except `types` (see there)." },
  ),
  update_lock: attr.bool({
    mode: 'optional',
    default: false,
    description: "When true, only callers of the tenant that set the lock (this API client's tenant) can change the tenant.",
  }),
  ancestral_access: attr.bool({
    mode: 'optional_computed',
    description: "Whether administrators of the ancestors can manage the tenant; left out, the platform's value is kept.",
  }),
  pricing_mode: attr.string({
    mode: 'optional_computed',
    check: oneOf(PRICING_MODES),
    expects: 'trial or production',
    description: 'Customers only: `trial` or `production`. A customer moves from trial to production once and never back.',
  }),
  version: attr.number({ mode: 'computed', version: true, description: "The platform's version of the tenant." }),
  has_children: attr.bool({ mode: 'computed', description: 'True when the tenant has sub-tenants.' }),
  production_start_date: attr.string({
    mode: 'computed',
    changesWith: ['pricing_mode'],
    description: 'When the customer moved to production (null while in trial).',
  }),
};

export const tenant = defineResource({
  type: 'tenantform_tenant',
  description:
    'A partner, folder, customer or unit tenant. Updates carry the version tenantform last saw. Destroying it disables it first and then deletes it, with its sub-tenants, users and data.',
  schemaVersion: 0,
  attributes,
  notes: [
    'An update sends the version of the last plan; when someone changed the tenant in between, tenantform refuses with a version conflict that names both versions.',
    'Destroying a tenant disables it (the platform deletes only disabled tenants) and deletes it with the version the disable returned. Its sub-tenants, users and data go with it: the plan warns.',
    'A plan that would turn a production customer back into trial is refused before any request is sent.',
    'The pricing mode has its own version on the platform; tenantform reads it right before changing it.',
  ],
  importId: uuidImportId('tenant'),
  identity: (s) => s.id,
  discover: {
    rank: 10,
    ownedByParent: true,
    // The tenant an export starts from is a given, not one of its objects; a sub-tenant belongs to its parent's configuration.
    list: async (scope, tenant) =>
      tenant.parentId === null || tenant.id === scope.rootTenantId ? [] : [{ identity: { id: tenant.id }, label: ['tenant'], ownerTenantId: tenant.parentId }],
  },
  example: {
    name: 'contoso',
    config: {
      parent_id: '${data.tenantform_tenant.northwind.id}',
      kind: 'customer',
      name: 'Contoso',
      language: 'en',
      contact: { email: 'it@contoso.example', first_name: 'Dana', last_name: 'Reyes', types: ['primary', 'technical'] },
      pricing_mode: 'production',
    },
  },
  check(config) {
    const problems: Diagnostic[] = [];
    if (config.pricing_mode !== null && config.pricing_mode !== Unknown && config.kind !== Unknown && config.kind !== 'customer') {
      problems.push(
        invalidValue({
          code: 'not_for_kind',
          path: ['pricing_mode'],
          expected: 'no pricing_mode on a tenant that is not a customer',
          found: `pricing_mode on a ${config.kind} tenant`,
          message: 'Only customer tenants have a pricing mode.',
        }),
      );
    }
    return problems;
  },
  async modifyPlan(ctx, { prior, planned }) {
    if (!prior) return ctx && planned ? { diagnostics: await nameTakenAtPlan(ctx, planned) } : {};
    if (!planned) {
      const what = prior.has_children === true ? 'its sub-tenants, their users and data' : 'its users and data';
      const detail = `Destroying ${describe(prior)} disables it, then deletes it with ${what}. The platform keeps nothing that can be restored through its interface.`;
      return { diagnostics: [{ severity: 'warning', code: 'delete_takes_more', summary: 'Deleting this object deletes more', detail }] };
    }
    const problems: Diagnostic[] = [];
    // GAPS "Pricing mode": trial to production once, never back.
    if (planned.pricing_mode === 'trial' && prior.pricing_mode !== null && prior.pricing_mode !== 'trial') {
      problems.push(
        refusedChange({
          code: 'pricing_mode_irreversible',
          path: ['pricing_mode'],
          expected: `"${prior.pricing_mode}" (a customer never returns to trial)`,
          found: '"trial"',
          message: 'A customer in production cannot return to trial',
        }),
      );
    }
    // The reference's contact takes `types` with at least one item: a contact's types, once set,
    // cannot be cleared.
    const plannedTypes = planned.contact === Unknown ? null : (planned.contact?.types ?? null);
    if ((prior.contact?.types ?? []).length > 0 && plannedTypes !== Unknown && (plannedTypes ?? []).length === 0) {
      problems.push(
        refusedChange({
          code: 'cannot_clear',
          path: ['contact', 'types'],
          expected: 'at least one contact type (the platform cannot clear them once set)',
          found: 'none',
          message: "The platform has no way to clear a contact's types: keep at least one.",
        }),
      );
    }
    return { diagnostics: problems };
  },
  // A lost answer or a kill leaves the create recorded as pending; the tenant it made is found by its name.
  nonIdempotentCreate: true,
  async adoptionCandidates(ctx, pending) {
    // Names are unique among a parent's children: the tenant a lost create made has the pending name.
    const children = await ctx.client.getTenants({ parentId: pending.parent_id, lod: 'full' });
    return children.filter((t) => t.name === pending.name && t.kind === pending.kind).map(fromTenant);
  },
  async read(ctx, state) {
    const live = await fetchOne(ctx, state.id);
    return live ? fromTenant(live) : null;
  },
  // One `GET /tenants?uuids=` (full level) for up to 100 tenants; a gone tenant is left out.
  async readMany(ctx, states) {
    const byId = new Map((await ctx.client.getTenants({ uuids: states.map((s) => s.id), lod: 'full' })).map((t) => [t.id, t]));
    return states.map((s) => {
      const live = byId.get(s.id);
      return live ? fromTenant(live) : null;
    });
  },
  async create(ctx, planned) {
    const body: TenantCreate = {
      name: planned.name,
      parent_id: planned.parent_id,
      kind: planned.kind,
      ...writable(planned, 'create'),
    };
    const created = await ctx.client.createTenant(body).catch(async (err: unknown) => {
      if (!isConflict(err)) throw err;
      // GAPS "Tenant name taken": a sibling of that name that this state does not record.
      const taken = (await ctx.client.getTenants({ parentId: planned.parent_id, lod: 'full' })).find((t) => t.name === planned.name);
      throw faultErrors.nameTaken(ctx.address ?? 'the tenant', `a tenant named "${planned.name}" under parent ${planned.parent_id}`, taken?.id, taken?.id);
    });
    if (typeof planned.customer_type === 'string' && planned.customer_type !== created.customer_type) {
      await ctx.client.updateTenant(created.id, { version: created.version ?? 1, customer_type: planned.customer_type });
    }
    await setPricing(ctx, created.id, planned.pricing_mode);
    return fromTenant(await ctx.client.getTenant(created.id));
  },
  async update(ctx, prior, planned) {
    const { id } = prior;
    const changes: Omit<TenantUpdate, 'version'> = { name: planned.name, ...writable(planned, 'update') };
    if (typeof planned.customer_type === 'string') changes.customer_type = planned.customer_type;
    await updateVersioned(ctx, prior, tenants, async (version) => withVersion(await ctx.client.updateTenant(id, { ...changes, version })), changes);
    if (planned.pricing_mode !== prior.pricing_mode) await setPricing(ctx, id, planned.pricing_mode);
    return fromTenant(await ctx.client.getTenant(id));
  },
  async delete(ctx, prior) {
    const { id } = prior;
    const live = await fetchOne(ctx, id);
    if (!live) return;
    const expected = Number(prior.version);
    if (live.version !== expected) throw resourceErrors.versionConflict(describe(prior), expected, live.version);
    // GAPS "Delete a tenant": disabled first; the delete carries the version the disable returned.
    const disabled = live.enabled === false ? live : await ctx.client.updateTenant(id, { version: expected, enabled: false });
    try {
      await ctx.client.deleteTenant(id, disabled.version ?? expected + 1);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
});

/**
 * The members a create and an update both send. Unset members are left out where the platform's
 * schema has no `null` for them (a create's `customer_id`, a contact's `email` and `types`).
 */
function writable(s: PlannedOf<typeof attributes>, on: 'create' | 'update'): Omit<TenantCreate, 'name' | 'parent_id' | 'kind'> {
  const out: Omit<TenantCreate, 'name' | 'parent_id' | 'kind'> = {
    enabled: s.enabled,
    internal_tag: s.internal_tag,
    update_lock: { enabled: s.update_lock },
    contact: toContact(s.contact),
  };
  // `tenantPut` takes a null `customer_id` (which clears it); `tenantPost` only a string.
  if (s.customer_id !== null) out.customer_id = s.customer_id;
  else if (on === 'update') out.customer_id = null;
  if (typeof s.language === 'string') out.language = s.language;
  if (typeof s.ancestral_access === 'boolean') out.ancestral_access = s.ancestral_access;
  return out;
}

/**
 * Every member is sent: the platform merges a contact, so a member left out would stay. A member
 * left unset is cleared with `null`, the email with `""` (its schema has no null), and `types`,
 * which has at least one item, is left out: the platform keeps the types it has.
 */
function toContact(contact: PlannedOf<typeof attributes>['contact']): Record<string, unknown> {
  const c: Readonly<Record<string, unknown>> = contact ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, platform] of Object.entries(CONTACT_NAMES)) out[platform] = typeof c[name] === 'string' ? c[name] : platform === 'email' ? '' : null;
  if (contact?.types && contact.types.length > 0) out.types = contact.types;
  return out;
}

type Contact = StateOf<typeof attributes>['contact'];

function fromContact(c: Record<string, unknown> | null | undefined): Contact {
  if (!c) return null;
  const text = (name: keyof typeof CONTACT_NAMES) => {
    const v = c[CONTACT_NAMES[name]];
    return typeof v === 'string' && v !== '' ? v : null;
  };
  const out = {
    email: text('email'),
    first_name: text('first_name'),
    last_name: text('last_name'),
    phone: text('phone'),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    state: text('state'),
    zipcode: text('zipcode'),
    country: text('country'),
    types: Array.isArray(c.types) && c.types.length > 0 ? c.types.map(String) : null,
  };
  return Object.values(out).every((v) => v === null) ? null : out;
}

/** GAPS "Pricing mode": its own version, read right before the PUT. */
async function setPricing(ctx: OperationContext, tenantId: string, mode: PlannedOf<typeof attributes>['pricing_mode']): Promise<void> {
  if (typeof mode !== 'string') return;
  const current = await ctx.client.getPricing(tenantId);
  if (current.mode !== mode) await ctx.client.putPricing(tenantId, { version: current.version, mode });
}

function fromTenant(t: Tenant): StateOf<typeof attributes> {
  return {
    id: t.id,
    // The full level always has them; only the platform's root has no parent.
    parent_id: t.parent_id ?? '',
    kind: t.kind ?? '',
    name: t.name ?? '',
    customer_type: t.customer_type ?? null,
    customer_id: t.customer_id ?? null,
    internal_tag: t.internal_tag ?? null,
    language: t.language ?? null,
    enabled: t.enabled ?? true,
    contact: fromContact(t.contact),
    update_lock: t.update_lock?.enabled === true,
    ancestral_access: t.ancestral_access ?? null,
    pricing_mode: t.kind === 'customer' ? (t.pricing_mode ?? null) : null,
    version: t.version ?? null,
    has_children: t.has_children ?? false,
    production_start_date: t.production_start_date ?? null,
  };
}

const withVersion = (t: Tenant): Tenant & { version: number } => ({ ...t, version: t.version ?? 0 });

async function fetchOne(ctx: OperationContext, id: string): Promise<(Tenant & { version: number }) | null> {
  try {
    const t = await ctx.client.getTenant(id);
    return t.deleted_at ? null : withVersion(t);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

function describe(s: StateOf<typeof attributes>): string {
  return `tenant ${s.id} ("${s.name}")`;
}

const tenants: VersionedObject<Tenant & { version: number }> = { fetch: fetchOne, describe };

export default tenant;

/**
 * A create whose name a sibling already has is refused by the plan, with the import that adopts
 * the sibling, rather than by the apply after the merge. Parents are listed once per plan (the
 * plan's reads are shared). Best effort: when the listing fails, the apply's own check remains.
 */
async function nameTakenAtPlan(ctx: OperationContext, planned: { parent_id: unknown; name: unknown }): Promise<Diagnostic[]> {
  const { parent_id: parentId, name } = planned;
  if (typeof parentId !== 'string' || typeof name !== 'string') return [];
  const siblings = await ctx.client.getTenants({ parentId, lod: 'basic' }).catch(() => []);
  const taken = siblings.find((t) => t.name === name);
  if (!taken) return [];
  return [faultErrors.nameTaken(ctx.address ?? 'the tenant', `a tenant named "${name}" under parent ${parentId}`, taken.id, taken.id).toDiagnostic()];
}
