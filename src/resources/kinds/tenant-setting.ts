import { z } from 'zod';
import { attr } from '../attributes';
import { defineResource, type OperationContext } from '../declaration';
import type { PlannedOf, StateOf } from '../models';
import type { Setting } from '../../api';
import { isConflict, isNotFound } from '../../api/errors';
import { TenantformError } from '../../errors';
import { splitImportId } from '../import-id';
import { parseJson } from '../values';
import { DISCOVERY_CONCURRENCY, mapLimit } from '../discovery';
import { applicationBinding } from './application-binding';

const attributes = {
  id: attr.string({ mode: 'computed', description: 'The setting identity, `<application_id>/<tenant_id>/<name>`.' }),
  application_id: attr.uuid({
    mode: 'required',
    forceNew: true,
    identifying: true,
    key: true,
    description: 'The application the setting belongs to (see the `tenantform_application` data source).',
  }),
  tenant_id: attr.uuid({
    mode: 'required',
    forceNew: true,
    identifying: true,
    key: true,
    description: 'The tenant whose own value this is.',
  }),
  name: attr.string({
    mode: 'required',
    forceNew: true,
    identifying: true,
    key: true,
    check: z.string().regex(/^[^/]+$/),
    expects: 'a setting name (not empty, without `/`)',
    description: 'The setting name, which identifies the setting within the application.',
  }),
  value: attr.json({
    mode: 'required',
    description:
      'The own value, as a string holding JSON (`jsonencode(...)` or `JSON.stringify(...)`). Compared semantically: key order never makes a difference.',
  }),
  lock: attr.bool({
    mode: 'optional',
    default: false,
    description: 'When true, descendant tenants cannot override the value.',
  }),
  exclusive: attr.bool({
    mode: 'optional',
    default: false,
    description: "When true, the value applies to this tenant only: its children inherit from this tenant's parent.",
  }),
  effective_value: attr.json({
    mode: 'computed',
    changesOnUpdate: true,
    sensitiveWith: 'value',
    description: 'The value in effect for the tenant, as JSON (shown, never compared).',
  }),
  effective_owner_id: attr.string({
    mode: 'computed',
    changesOnUpdate: true,
    description: 'The tenant whose value is in effect (shown, never compared).',
  }),
};

export const tenantSetting = defineResource({
  type: 'tenantform_tenant_setting',
  description:
    "Sets a tenant's own value of an application setting, with its lock and exclusive flags. Removing the resource deletes the own value, so the tenant inherits the setting from its ancestors again.",
  schemaVersion: 0,
  attributes,
  notes: [
    "The resource manages the tenant's own value only. The effective value and its owner are read back for information and never make a plan change.",
    'A setting locked by an ancestor tenant cannot be overridden: the platform refuses the change and tenantform names the tenant that holds the lock.',
  ],
  importId: {
    format: '`<application_id>/<tenant_id>/<name>`',
    parse: (id) => splitImportId(id, ['application_id', 'tenant_id', 'name']),
  },
  identity: (s) => `${s.application_id}/${s.tenant_id}/${s.name}`,
  discover: {
    rank: 30,
    byName: true,
    async list(scope, tenant) {
      // The platform lists no tenant's settings: the names looked for are those asked for and those
      // the state records anywhere (a name managed on one tenant and set by hand on another is found).
      // Gathered once for all tenants: the state of an estate records a setting per customer.
      const names = await scope.once('tenant setting names', async () => {
        const recorded = scope.recorded('tenantform_tenant_setting').map((s) => String(s.name));
        return [...new Set([...scope.settingNames, ...recorded])].sort();
      });
      const probes = (await scope.applicationsOf(tenant)).flatMap((appId) => names.map((name) => ({ appId, name })));
      // One read per application and setting name, side by side: `own` is null for an inherited value.
      const settings = await mapLimit(probes, DISCOVERY_CONCURRENCY, async ({ appId, name }) => {
        try {
          return await scope.client.getSetting(appId, tenant.id, name);
        } catch (err) {
          if (isNotFound(err)) return null;
          throw err;
        }
      });
      return probes
        .filter((_, i) => settings[i]?.own != null)
        .map(({ appId, name }) => ({
          identity: { application_id: appId, tenant_id: tenant.id, name },
          label: [scope.applicationLabel(appId), name],
          // The application is turned on for the tenant before its settings.
          needs: [{ type: applicationBinding.type, importId: applicationBinding.identity({ application_id: appId, tenant_id: tenant.id }) }],
        }));
    },
  },
  example: {
    name: 'acme_retention',
    config: {
      application_id: '${data.tenantform_application.backup.id}',
      tenant_id: '${data.tenantform_tenant.acme.id}',
      name: 'retention_days',
      value: '90',
      lock: true,
    },
  },
  async read(ctx, state) {
    try {
      // platform-interface: setting read (`own` is null when the tenant has no own value).
      return fromSetting(state.tenant_id, await ctx.client.getSetting(state.application_id, state.tenant_id, state.name));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  },
  notInEffect(live) {
    // An own value exists, yet another tenant's value applies: an ancestor locked it (a lock above wins).
    const owner = live.effective_owner_id;
    if (owner === null || owner === live.tenant_id) return undefined;
    return {
      severity: 'warning',
      summary: 'The declared value is not in effect',
      code: 'not_in_effect',
      detail:
        `Tenant ${live.tenant_id} has its own value of "${live.name}", but ancestor tenant ${owner} locked the setting, so its value ${String(live.effective_value)} is in effect. ` +
        'Unlock it at that tenant (or manage the setting there), or remove this resource.',
      path: ['value'],
    };
  },
  // Read by name only: the reference has no listing of a tenant's settings (the per-name reads of
  // a plan run side by side, within the client's concurrency).
  create: (ctx, planned) => put(ctx, planned),
  update: (ctx, _prior, planned) => put(ctx, planned),
  async delete(ctx, prior) {
    try {
      await ctx.client.deleteSetting(prior.application_id, prior.tenant_id, prior.name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  },
});

async function put(ctx: OperationContext, planned: PlannedOf<typeof attributes>): Promise<StateOf<typeof attributes>> {
  const { application_id: appId, tenant_id: tenantId, name } = planned;
  const data = { value: parseJson(planned.value), lock: planned.lock, exclusive: planned.exclusive };
  try {
    const written = fromSetting(tenantId, await ctx.client.putSetting(appId, tenantId, name, data));
    if (!written) throw new Error(`the platform accepted setting "${name}" but answered without an own value`);
    return written;
  } catch (err) {
    // GAPS "Overriding a setting locked above": 409 conflict.
    if (isConflict(err)) throw await lockedAbove(ctx, appId, tenantId, name);
    throw err;
  }
}

/** The platform's setting as state; null when the tenant has no own value. */
function fromSetting(tenantId: string, s: Setting): StateOf<typeof attributes> | null {
  if (!s.own) return null;
  return {
    id: `${s.application_id}/${tenantId}/${s.name}`,
    application_id: s.application_id,
    tenant_id: tenantId,
    name: s.name,
    value: JSON.stringify(s.own.value ?? null),
    lock: s.own.lock,
    exclusive: s.own.exclusive,
    effective_value: s.effective ? JSON.stringify(s.effective.value ?? null) : null,
    effective_owner_id: s.effective?.owner.id ?? null,
  };
}

/** The refusal to override a value locked by an ancestor, naming the tenant that holds the lock. */
async function lockedAbove(ctx: OperationContext, appId: string, tenantId: string, name: string): Promise<TenantformError> {
  let owner: string | undefined;
  try {
    const current = await ctx.client.getSetting(appId, tenantId, name);
    owner = current.effective?.lock ? current.effective.owner.id : undefined;
  } catch {
    // The refusal is reported either way; the owner is only a help.
  }
  return new TenantformError(
    'setting_locked',
    'The setting is locked by an ancestor tenant',
    `Setting "${name}" of tenant ${tenantId} is locked by ${owner ? `tenant ${owner}` : 'an ancestor tenant'}, so this tenant cannot have its own value. ` +
      'Unlock it where it is set (or manage it there), or remove this resource.',
    false,
    undefined,
    ['value'],
  );
}

export default tenantSetting;
