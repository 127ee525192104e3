import { z } from 'zod';
import { refusedChange } from '../../diagnostics';
import { attr, oneOf } from '../attributes';
import { uuidImportId } from '../import-id';
import { defineResource, type OperationContext } from '../declaration';
import type { PlannedOf, StateOf } from '../models';
import type { Infra, InfraCreate } from '../../api';
import { isNotFound } from '../../api/errors';
import { deleteVersioned, updateVersioned, type VersionedObject } from '../versioned';

const CAPABILITIES = ['backup', 'disaster_recovery', 'files_cloud', 'vcd'] as const;

/** Spec 1, infrastructure component: a lowercase scheme (letters, digits, `+`), `://`, a non-blank address. */
const url = z.string().regex(/^[a-z][a-z0-9+]*:\/\/\S/);
const URL_EXPECTS =
  'an address such as `https://backup.example.com` (a lowercase scheme of letters, digits or `+` starting with a letter, then `://` and an address)';

const attributes = {
  id: attr.string({ mode: 'computed', key: true, description: 'The identifier the platform gives the component.' }),
  owner_tenant_id: attr.uuid({
    mode: 'required',
    forceNew: true,
    identifying: true,
    description: 'The tenant that owns the component.',
  }),
  name: attr.string({
    mode: 'required',
    identifying: true,
    check: z.string().min(1),
    expects: 'a non-empty display name',
    description: 'The display name.',
  }),
  url: attr.string({ mode: 'required', check: url, expects: URL_EXPECTS, description: 'The address of the component.' }),
  capabilities: attr.list(oneOf(CAPABILITIES), {
    mode: 'required',
    unique: true,
    expects: `capabilities (${CAPABILITIES.join(', ')})`,
    description: `What the component provides: any of ${CAPABILITIES.map((c) => `\`${c}\``).join(', ')}.`,
  }),
  location_id: attr.uuid({
    mode: 'optional_computed',
    description:
      'The location the component belongs to. Registering a component needs it (POST /infra takes it); left out afterwards, the recorded location is kept.',
  }),
  content_url: attr.string({
    mode: 'optional',
    check: url,
    expects: URL_EXPECTS,
    description: 'The address that serves content. Once set it cannot be cleared: the platform has no way to.',
  }),
  content_mobile_url: attr.string({
    mode: 'optional',
    check: url,
    expects: URL_EXPECTS,
    description: 'The address that serves content to mobile clients. Once set it cannot be cleared: the platform has no way to.',
  }),
  // GAPS "backend_type values": any string or null.
  backend_type: attr.string({ mode: 'optional', description: 'The storage backend, for example `azure` or `acronis`.' }),
  force_delete: attr.bool({
    mode: 'optional',
    default: false,
    description:
      'Delete the component even while customer tenants still use it (spec 1 `force`). The platform still refuses while a customer has offering items tied to it turned on. Kept in the state only.',
  }),
  version: attr.number({ mode: 'computed', version: true, description: "The platform's version of the component." }),
  platform_owned: attr.bool({ mode: 'computed', description: 'True when the platform itself owns the component.' }),
  readonly: attr.bool({ mode: 'computed', description: 'True when the details are only partly accessible (for example, an ancestor owns it).' }),
};

type ComponentState = StateOf<typeof attributes>;

export const infraComponent = defineResource({
  type: 'tenantform_infra_component',
  description:
    'Registers an infrastructure component (a storage or service endpoint) owned by a tenant. Updates and deletes carry the version tenantform last saw, so a concurrent change is reported instead of overwritten.',
  schemaVersion: 0,
  attributes,
  notes: [
    'An update or delete sends the version of the last plan. When someone changed the component in between, tenantform refuses with a version conflict that names both versions; run a plan to see the other change.',
    'A create interrupted before its answer was recorded is found again on the next run (same owner, name, url and capabilities) and adopted instead of registered twice.',
    'A component that customers still use is not deleted unless `force_delete` is true; the refusal names the usage and is told apart from a version conflict by reading the version again.',
  ],
  importId: uuidImportId('component'),
  identity: (s) => s.id,
  discover: {
    rank: 40,
    async list(scope, tenant) {
      // The components at the tenant's locations. Those of other owners, those the platform owns,
      // or that this client sees only in part, cannot be managed by this tenant's configuration.
      const ids = await scope.client.listTenantInfra(tenant.id);
      const components = ids.length > 0 ? await scope.client.getInfra(ids) : [];
      return components
        .filter((c) => c.owner_tenant_id === tenant.id && c.platform_owned !== true && c.readonly !== true)
        .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
        .map((c) => ({ identity: { id: c.id }, label: [c.name] }));
    },
  },
  example: {
    name: 'primary',
    config: {
      owner_tenant_id: '${data.tenantform_tenant.northwind.id}',
      name: 'Northwind storage',
      url: 'https://storage.northwind.example.com',
      capabilities: ['backup', 'disaster_recovery'],
      location_id: '3f2b8c4e-6a1d-4e7f-9b0c-5d8e2a7f1c63',
      backend_type: 'acronis',
    },
  },
  // The POST creates a new component each time it is sent.
  nonIdempotentCreate: true,
  modifyPlan(_ctx, { prior, planned }) {
    // The reference's `infraPut` takes the content addresses as links only: once set, the
    // platform has no way to clear them.
    if (!prior || !planned) return {};
    const diagnostics = (['content_url', 'content_mobile_url'] as const)
      .filter((name) => typeof prior[name] === 'string' && planned[name] === null)
      .map((name) =>
        refusedChange({
          code: 'cannot_clear',
          path: [name],
          expected: 'an address (the platform cannot clear it once set)',
          found: 'null',
          message: `The platform has no way to clear ${name} once it is set: give the address, or register a new component.`,
        }),
      );
    return { diagnostics };
  },
  async read(ctx, state) {
    const live = await fetchOne(ctx, state.id);
    return live ? withRecorded(fromInfra(live), state) : null;
  },
  // One `GET /infra?uuids=` per batch; a gone component makes the whole batch 404, and the
  // caller then reads each alone.
  // The client's INFRA_UUIDS_PER_REQUEST (not imported: loading the kinds must not load the client).
  batchSize: 100,
  async readMany(ctx, states) {
    const byId = new Map((await ctx.client.getInfra(states.map((s) => s.id))).map((c) => [c.id, c]));
    return states.map((s) => {
      const live = byId.get(s.id);
      return live ? withRecorded(fromInfra(live), s) : null;
    });
  },
  async create(ctx, planned) {
    // Members left out are not sent (the client's type requires location_id, the configuration does not).
    return withRecorded(fromInfra(await ctx.client.createInfra({ owner_tenant_id: planned.owner_tenant_id, ...toSend(planned) })), planned);
  },
  async update(ctx, prior, planned) {
    // Only what the state keeps changed (force_delete): nothing to send.
    if (JSON.stringify(body(prior)) === JSON.stringify({ ...body(planned), location_id: planned.location_id ?? prior.location_id }))
      return withRecorded(prior, planned);
    // GAPS "Infrastructure component update": the version the change is based on, 409 when stale.
    // Unset members are left out (`infraPut` has no null for them; planProblems refuses a clear).
    const updated = await updateVersioned(ctx, prior, components, (version) =>
      ctx.client.updateInfra(prior.id, {
        ...toSend(planned),
        ...(planned.backend_type === null && prior.backend_type !== null ? { backend_type: null } : {}),
        version,
      }),
    );
    return withRecorded(fromInfra(updated), planned);
  },
  async delete(ctx, prior) {
    // GAPS "Infrastructure component delete with a stale version" (409) and "... while in use"
    // (409 too, at the current version; `force` deletes it unless offering items are on).
    await deleteVersioned(ctx, prior, components, (version) => ctx.client.deleteInfra(prior.id, version, { force: prior.force_delete ? true : undefined }));
  },
  async adoptionCandidates(ctx, pending) {
    const owner = pending.owner_tenant_id;
    const ids = await ctx.client.listTenantInfra(owner);
    const all = ids.length > 0 ? await ctx.client.getInfra(ids) : [];
    const wanted = [...pending.capabilities].sort().join(',');
    const matches = all.filter(
      (c) => c.owner_tenant_id === owner && c.name === pending.name && c.url === pending.url && [...c.capabilities].sort().join(',') === wanted,
    );
    return matches.map((c) => withRecorded(fromInfra(c), pending));
  },
});

/** The members a create and an update both carry, unset ones as null (what an update compares). */
function body(s: ComponentState | PlannedOf<typeof attributes>): Record<string, unknown> {
  return {
    name: s.name,
    location_id: s.location_id,
    url: s.url,
    capabilities: s.capabilities,
    content_url: s.content_url,
    content_mobile_url: s.content_mobile_url,
    backend_type: s.backend_type,
  };
}

/** The members a create and an update both send: unset ones, or a location not known before the platform sets it, are left out. */
function toSend(
  s: PlannedOf<typeof attributes>,
): Pick<InfraCreate, 'name' | 'location_id' | 'url' | 'capabilities' | 'content_url' | 'content_mobile_url' | 'backend_type'> {
  return {
    name: s.name,
    ...(typeof s.location_id === 'string' ? { location_id: s.location_id } : {}),
    url: s.url,
    capabilities: [...s.capabilities],
    ...(s.content_url === null ? {} : { content_url: s.content_url }),
    ...(s.content_mobile_url === null ? {} : { content_mobile_url: s.content_mobile_url }),
    ...(s.backend_type === null ? {} : { backend_type: s.backend_type }),
  };
}

/** A live component; what only the state keeps comes from the record (`withRecorded`). */
function fromInfra(c: Infra): Omit<ComponentState, 'force_delete'> {
  return {
    id: c.id,
    owner_tenant_id: c.owner_tenant_id,
    name: c.name,
    url: c.url,
    capabilities: [...c.capabilities],
    location_id: c.location_id ?? null,
    content_url: c.content_url ?? null,
    content_mobile_url: c.content_mobile_url ?? null,
    backend_type:
      c.backend_type === null || c.backend_type === undefined ? null : typeof c.backend_type === 'string' ? c.backend_type : JSON.stringify(c.backend_type),
    version: c.version,
    platform_owned: c.platform_owned ?? false,
    readonly: c.readonly ?? false,
  };
}

/** A live component with what only the state keeps (force_delete) from `recorded`. */
function withRecorded(live: Omit<ComponentState, 'force_delete'>, recorded: { readonly force_delete: boolean }): ComponentState {
  return { ...live, force_delete: recorded.force_delete };
}

/** The live component; null when the platform no longer has it. */
async function fetchOne(ctx: OperationContext, id: string): Promise<Infra | null> {
  try {
    return (await ctx.client.getInfra([id])).find((c) => c.id === id) ?? null;
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

function describe(s: ComponentState): string {
  return `infrastructure component ${s.id} ("${s.name}")`;
}

export default infraComponent;

const components: VersionedObject<Infra> = { fetch: fetchOne, describe };
