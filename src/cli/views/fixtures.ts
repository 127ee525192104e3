import type { Plan, PlannedChange } from '../../plans/model';
import { Unknown } from '../../resources/values';

/** Plans built by hand for the renderer tests. */

const TENANT = '2b8e0f3c-6a61-4d1e-9a57-3c2f1e0d9b11';
const OTHER_TENANT = '7f4c9a20-1d3e-4b6f-8c2a-5e9d0b1a3c44';
const BACKUP_APP = '6e6d758d-8e74-3ae3-ac84-50eb0dff12eb';

/** A secret that must never appear in any rendering. */
export const SECRET = 'whsec-9f8e7d6c5b4a-never-print-me';
export const OLD_SECRET_HASH = 'sha256:3d1f0c6b2a9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c';

function plan(parts: Partial<Plan>): Plan {
  return {
    stack: 'production',
    configHash: 'sha256:0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c',
    priorState: { lineage: '5a0c7a4e-3f7e-4c1d-bf0e-8a9b7c6d5e4f', serial: 12 },
    changes: [],
    drift: [],
    outputChanges: [],
    diagnostics: [],
    refreshOnly: false,
    createdAt: '2025-03-14T09:26:53Z',
    ...parts,
  };
}

const createInfra: PlannedChange = {
  address: 'tenantform_infra_component.primary',
  mode: 'managed',
  type: 'tenantform_infra_component',
  name: 'primary',
  action: 'create',
  before: null,
  after: {
    id: Unknown,
    version: Unknown,
    name: 'edge-gateway-eu',
    owner_tenant_id: TENANT,
    kind: 'storage',
    tags: ['eu', 'primary'],
    settings: '{"tier":"hot","retention":{"days":30,"legal_hold":false}}',
    maintenance_window: { day: 'sunday', start: '02:00' },
    description: null,
  },
  requiresReplace: [],
  changed: [],
  sensitive: [],
  identifying: ['name', 'owner_tenant_id'],
};

const updateSetting: PlannedChange = {
  address: 'tenantform_tenant_setting.acme_retention',
  mode: 'managed',
  type: 'tenantform_tenant_setting',
  name: 'acme_retention',
  action: 'update',
  before: {
    id: `${BACKUP_APP}/${TENANT}/retention`,
    application_id: BACKUP_APP,
    tenant_id: TENANT,
    name: 'retention',
    // Same object in another key order and layout, plus one real change.
    value: '{ "mode": "strict", "days": 30, "archive": { "enabled": true, "region": "eu" } }',
    lock: false,
    exclusive: false,
    effective: '{"days":30}',
  },
  after: {
    id: `${BACKUP_APP}/${TENANT}/retention`,
    application_id: BACKUP_APP,
    tenant_id: TENANT,
    name: 'retention',
    value: '{"archive":{"region":"eu","enabled":true},"days":90,"mode":"strict"}',
    lock: true,
    exclusive: false,
    effective: '{"days":30}',
  },
  requiresReplace: [],
  changed: ['value', 'lock'],
  sensitive: [],
  identifying: ['application_id', 'tenant_id', 'name'],
};

const replaceBinding: PlannedChange = {
  address: 'tenantform_application_binding.acme_backup',
  mode: 'managed',
  type: 'tenantform_application_binding',
  name: 'acme_backup',
  action: 'replace',
  before: { id: `${BACKUP_APP}/${TENANT}`, application_id: BACKUP_APP, tenant_id: TENANT },
  after: { id: Unknown, application_id: BACKUP_APP, tenant_id: OTHER_TENANT },
  requiresReplace: [['tenant_id']],
  changed: ['tenant_id'],
  sensitive: [],
  identifying: ['application_id', 'tenant_id'],
  actionReason: 'replace_because_cannot_update',
  seen: { fingerprint: '9c1e4b2a7d3f5e60' },
};

const deleteReport: PlannedChange = {
  address: 'tenantform_usage_report.monthly',
  mode: 'managed',
  type: 'tenantform_usage_report',
  name: 'monthly',
  action: 'delete',
  before: {
    id: 'c0ffee00-1234-4abc-9def-001122334455',
    version: 4,
    tenant_id: TENANT,
    schedule: { type: 'monthly', day: 1 },
    recipients: ['ops@example.com'],
  },
  after: null,
  requiresReplace: [],
  changed: [],
  sensitive: [],
  identifying: ['tenant_id'],
  actionReason: 'delete_because_no_resource_config',
  seen: { version: 4 },
};

const unchangedAgent: PlannedChange = {
  address: 'tenantform_agent_update_settings.master',
  mode: 'managed',
  type: 'tenantform_agent_update_settings',
  name: 'master',
  action: 'no-op',
  before: { id: `tenant/${TENANT}`, tenant_id: TENANT, channel: 'stable' },
  after: { id: `tenant/${TENANT}`, tenant_id: TENANT, channel: 'stable' },
  requiresReplace: [],
  changed: [],
  sensitive: [],
  identifying: ['tenant_id'],
  seen: { fingerprint: '4d2a9b7c1e0f3a58' },
};

const tenantData: PlannedChange = {
  address: 'data.tenantform_tenant.acme',
  mode: 'data',
  type: 'tenantform_tenant',
  name: 'acme',
  action: 'no-op',
  before: null,
  after: { id: TENANT, name: 'Acme' },
  requiresReplace: [],
  changed: [],
  sensitive: [],
  identifying: [],
};

/** Every action, drift of both kinds and one warning. */
export const mixedPlan: Plan = plan({
  changes: [tenantData, createInfra, updateSetting, replaceBinding, deleteReport, unchangedAgent],
  drift: [
    {
      address: 'tenantform_agent_update_settings.master',
      mode: 'managed',
      type: 'tenantform_agent_update_settings',
      name: 'master',
      action: 'update',
      before: { id: `tenant/${TENANT}`, tenant_id: TENANT, channel: 'beta' },
      after: { id: `tenant/${TENANT}`, tenant_id: TENANT, channel: 'stable' },
      changes: [{ path: ['channel'], state: 'beta', live: 'stable' }],
    },
    {
      address: 'tenantform_tenant_setting.acme_retention',
      mode: 'managed',
      type: 'tenantform_tenant_setting',
      name: 'acme_retention',
      action: 'update',
      before: null,
      after: null,
      changes: [
        // Only the key order moved: no line.
        { path: ['effective'], state: '{"a":1,"b":2}', live: '{"b":2,"a":1}' },
        { path: ['value'], state: '{"days":30,"mode":"lax"}', live: '{"mode":"strict","days":30}' },
      ],
    },
    {
      address: 'tenantform_infra_component.legacy',
      mode: 'managed',
      type: 'tenantform_infra_component',
      name: 'legacy',
      action: 'delete',
      before: { id: 'legacy-1', version: 2 },
      after: null,
      changes: [],
    },
  ],
  diagnostics: [
    {
      severity: 'warning',
      summary: 'The platform cannot delete this object',
      detail: 'Removing an event subscription only stops managing it.\nDelete it in the console if it is no longer wanted.',
      address: 'tenantform_event_subscription.audit',
      code: 'delete_only_forgets',
    },
  ],
});

/** Nothing to do and nothing drifted. */
export const noChangesPlan: Plan = plan({ changes: [tenantData, unchangedAgent] });

/** Nothing to do, but an object moved outside tenantform. */
export const noChangesWithDriftPlan: Plan = plan({ changes: [unchangedAgent], drift: mixedPlan.drift.slice(0, 1) });

/** Only additions and in-place updates: no warning banner. */
export const safePlan: Plan = plan({ changes: [createInfra, updateSetting] });

/** Secrets in every place a renderer reads, and values known only after apply. */
export const sensitivePlan: Plan = plan({
  priorState: null,
  changes: [
    {
      address: 'tenantform_event_subscription.audit',
      mode: 'managed',
      type: 'tenantform_event_subscription',
      name: 'audit',
      action: 'create',
      before: null,
      after: {
        subscription_id: 'audit-stream',
        tenant_id: Unknown,
        endpoint: 'https://hooks.example.com/tenantform',
        secret: SECRET,
        filters: { event_types: ['alert.created', Unknown], severity: Unknown },
        status: Unknown,
      },
      requiresReplace: [],
      changed: [],
      sensitive: ['secret'],
      identifying: ['subscription_id'],
    },
    {
      address: 'tenantform_event_subscription.billing',
      mode: 'managed',
      type: 'tenantform_event_subscription',
      name: 'billing',
      action: 'replace',
      before: { subscription_id: 'billing', endpoint: 'https://hooks.example.com/old', secret: OLD_SECRET_HASH, status: 'active' },
      after: { subscription_id: 'billing', endpoint: 'https://hooks.example.com/new', secret: SECRET, status: Unknown },
      requiresReplace: [['endpoint'], ['secret']],
      changed: ['endpoint', 'secret'],
      sensitive: ['secret'],
      identifying: ['subscription_id'],
      actionReason: 'replace_because_cannot_update',
    },
  ],
  drift: [
    {
      address: 'tenantform_event_subscription.billing',
      mode: 'managed',
      type: 'tenantform_event_subscription',
      name: 'billing',
      action: 'update',
      before: { subscription_id: 'billing', secret: OLD_SECRET_HASH },
      after: { subscription_id: 'billing', secret: SECRET },
      changes: [{ path: ['secret'], state: OLD_SECRET_HASH, live: SECRET }],
    },
  ],
  diagnostics: [
    {
      severity: 'warning',
      summary: 'Secret rotated',
      detail: `The new secret ${SECRET} replaces the old one.`,
      address: 'tenantform_event_subscription.billing',
      path: ['secret'],
    },
  ],
});

/** Many resources, to exercise the markdown size limit. */
/**
 * `count` settings created, updated and destroyed. `distinct`: each one updated, each changing an
 * attribute of its own, so that no two changes are alike (nothing to group).
 */
export function manyResourcesPlan(count: number, { distinct = false } = {}): Plan {
  const changes: PlannedChange[] = [];
  for (let i = 0; i < count; i++) {
    const name = `tenant_${String(i).padStart(3, '0')}`;
    const action = distinct ? 'update' : i % 10 === 0 ? 'delete' : i % 3 === 0 ? 'update' : 'create';
    const attrs = {
      id: `${BACKUP_APP}/${TENANT}/setting_${i}`,
      application_id: BACKUP_APP,
      tenant_id: TENANT,
      name: `setting_${i}`,
      value: JSON.stringify({ level: i, note: 'pipe | and `tick`' }),
      lock: false,
    };
    changes.push({
      address: `tenantform_tenant_setting.${name}`,
      mode: 'managed',
      type: 'tenantform_tenant_setting',
      name,
      action,
      before: action === 'create' ? null : attrs,
      after: action === 'delete' ? null : action === 'update' ? { ...attrs, lock: true } : { ...attrs, id: Unknown },
      requiresReplace: [],
      changed: action !== 'update' ? [] : distinct ? [`lock_${i}`] : ['lock'],
      sensitive: [],
      identifying: ['application_id', 'tenant_id', 'name'],
    });
  }
  return plan({ changes });
}
