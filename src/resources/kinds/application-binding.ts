import { attr } from '../attributes';
import { defineResource } from '../declaration';
import type { StateOf } from '../models';
import { isNotFound } from '../../api/errors';
import { splitImportId } from '../import-id';

const attributes = {
  id: attr.string({ mode: 'computed', description: 'The binding identity, `<application_id>/<tenant_id>`.' }),
  application_id: attr.uuid({
    mode: 'required',
    forceNew: true,
    identifying: true,
    key: true,
    description: 'The application to turn on (see the `tenantform_application` data source).',
  }),
  tenant_id: attr.uuid({
    mode: 'required',
    forceNew: true,
    identifying: true,
    key: true,
    description: 'The tenant that gets the application.',
  }),
};

export const applicationBinding = defineResource({
  type: 'tenantform_application_binding',
  description:
    'Turns an application on for a tenant. Removing the resource turns it off again. The parent tenant must have the application first (the root has every application).',
  schemaVersion: 0,
  attributes,
  notes: [
    'A binding is read from the applications the platform lists for the tenant (`GET /tenants/{tenant_id}/applications`). ' +
      "The vendor's reference describes that list as the applications available to the tenant, the seeds' records as the " +
      "ones it has on; tenantform's reads rely on the second reading. Were the platform to list applications a tenant could get " +
      'but does not have, a binding removed by hand would go unnoticed by plan and drift; creating one does not read the list ' +
      'and works under either reading.',
  ],
  importId: {
    format: '`<application_id>/<tenant_id>`',
    parse: (id) => splitImportId(id, ['application_id', 'tenant_id']),
  },
  identity: (s) => `${s.application_id}/${s.tenant_id}`,
  discover: {
    rank: 20,
    async list(scope, tenant) {
      // GAPS "Enabling under a parent that lacks the application": the platform root has every
      // application implicitly, so its bindings are not something a configuration can manage.
      const parentId = tenant.parentId;
      if (parentId === null) return [];
      return (await scope.applicationsOf(tenant)).map((appId) => ({
        identity: { application_id: appId, tenant_id: tenant.id },
        label: [scope.applicationLabel(appId)],
        // An application is turned on for a parent before its children.
        needs: [{ type: 'tenantform_application_binding', importId: `${appId}/${parentId}` }],
      }));
    },
  },
  example: {
    name: 'acme_backup',
    config: {
      application_id: '${data.tenantform_application.backup.id}',
      tenant_id: '${data.tenantform_tenant.acme.id}',
    },
  },
  async read(ctx, state) {
    try {
      const items = await ctx.client.listTenantApplications(state.tenant_id);
      return items.includes(state.application_id) ? bound(state.application_id, state.tenant_id) : null;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  },
  // One listing of a tenant's applications answers all its bindings.
  batchKey: (s) => s.tenant_id,
  async readMany(ctx, states) {
    const tenantId = states[0].tenant_id;
    let items: string[];
    try {
      items = await ctx.client.listTenantApplications(tenantId);
    } catch (err) {
      if (isNotFound(err)) return states.map(() => null);
      throw err;
    }
    return states.map((s) => (items.includes(s.application_id) ? bound(s.application_id, tenantId) : null));
  },
  async create(ctx, planned) {
    const { application_id: appId, tenant_id: tenantId } = planned;
    // platform-interface "binding": a repeat answers 204, so the POST is sent without a read first:
    // the create does not depend on what the tenant's applications listing means (see the notes).
    await ctx.client.enableApplication(appId, tenantId);
    return bound(appId, tenantId);
  },
  async update(_ctx, _prior, planned) {
    // Every argument forces replacement, so an update only ever refreshes the id.
    return bound(planned.application_id, planned.tenant_id);
  },
  async delete(ctx, prior) {
    try {
      await ctx.client.disableApplication(prior.application_id, prior.tenant_id);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
});

function bound(applicationId: string, tenantId: string): StateOf<typeof attributes> {
  return { id: `${applicationId}/${tenantId}`, application_id: applicationId, tenant_id: tenantId };
}

export default applicationBinding;
