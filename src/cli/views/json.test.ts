import { mixedPlan, noChangesPlan, OLD_SECRET_HASH, SECRET, sensitivePlan } from './fixtures';
import { FORMAT_VERSION, PROVIDER_NAME, renderJson, serializePlanJson, type JsonResourceChange } from './json';

/** Top-level keys of `terraform show -json` for a plan. */
const TERRAFORM_KEYS = new Set([
  'format_version',
  'terraform_version',
  'planned_values',
  'resource_changes',
  'resource_drift',
  'relevant_attributes',
  'output_changes',
  'prior_state',
  'configuration',
  'applyable',
  'complete',
  'errored',
  'timestamp',
]);

function byAddress(changes: JsonResourceChange[], address: string): JsonResourceChange {
  const found = changes.find((c) => c.address === address);
  if (!found) throw new Error(`no change for ${address}`);
  return found;
}

function isObjectOrNull(v: unknown): boolean {
  return v === null || (typeof v === 'object' && !Array.isArray(v));
}

describe('renderJson', () => {
  it('renders creates, updates, replacements, destroys and drift', () => {
    expect(renderJson(mixedPlan)).toMatchSnapshot();
  });

  it('renders a plan without changes', () => {
    expect(renderJson(noChangesPlan)).toMatchSnapshot();
  });

  it('renders sensitive values and values known after apply', () => {
    expect(renderJson(sensitivePlan)).toMatchSnapshot();
  });

  it('has the fields of terraform show -json, with their types', () => {
    const json: Record<string, unknown> = { ...renderJson(mixedPlan) };
    expect(json.format_version).toBe('1.2');
    expect(FORMAT_VERSION).toBe('1.2');
    expect(Array.isArray(json.resource_changes)).toBe(true);
    expect(Array.isArray(json.resource_drift)).toBe(true);
    for (const list of [json.resource_changes, json.resource_drift] as JsonResourceChange[][]) {
      for (const rc of list) {
        expect(typeof rc.address).toBe('string');
        expect(['managed', 'data']).toContain(rc.mode);
        expect(typeof rc.type).toBe('string');
        expect(typeof rc.name).toBe('string');
        expect(rc.provider_name).toBe(PROVIDER_NAME);
        expect(Array.isArray(rc.change.actions)).toBe(true);
        for (const a of rc.change.actions) expect(['create', 'update', 'delete', 'no-op']).toContain(a);
        expect(isObjectOrNull(rc.change.before)).toBe(true);
        expect(isObjectOrNull(rc.change.after)).toBe(true);
        expect(isObjectOrNull(rc.change.after_unknown)).toBe(true);
        expect(rc.change.after_unknown).not.toBeNull();
        for (const s of [rc.change.before_sensitive, rc.change.after_sensitive]) {
          expect(s === false || isObjectOrNull(s)).toBe(true);
        }
        if (rc.action_reason !== undefined) expect(typeof rc.action_reason).toBe('string');
      }
    }
  });

  it('keeps tenantform’s additions under one key', () => {
    const json = renderJson(mixedPlan);
    const extra = Object.keys(json).filter((k) => !TERRAFORM_KEYS.has(k));
    expect(extra).toEqual(['tenantform']);
    expect(json.tenantform).toMatchObject({
      stack: 'production',
      config_hash: mixedPlan.configHash,
      prior_state: { lineage: mixedPlan.priorState?.lineage, serial: 12 },
      refresh_only: false,
      summary: { add: 2, change: 1, destroy: 2 },
      seen: {
        'tenantform_usage_report.monthly': { version: 4 },
        'tenantform_application_binding.acme_backup': { fingerprint: '9c1e4b2a7d3f5e60' },
      },
      requires_replace: { 'tenantform_application_binding.acme_backup': [['tenant_id']] },
    });
    expect(json.tenantform.diagnostics).toHaveLength(1);
  });

  it('writes actions as Terraform does', () => {
    const changes = renderJson(mixedPlan).resource_changes;
    expect(byAddress(changes, 'tenantform_infra_component.primary').change.actions).toEqual(['create']);
    expect(byAddress(changes, 'tenantform_tenant_setting.acme_retention').change.actions).toEqual(['update']);
    expect(byAddress(changes, 'tenantform_agent_update_settings.master').change.actions).toEqual(['no-op']);
    const replaced = byAddress(changes, 'tenantform_application_binding.acme_backup');
    expect(replaced.change.actions).toEqual(['delete', 'create']);
    expect(replaced.action_reason).toBe('replace_because_cannot_update');
    expect(replaced.change.replace_paths).toEqual([['tenant_id']]);
    const deleted = byAddress(changes, 'tenantform_usage_report.monthly');
    expect(deleted.change.actions).toEqual(['delete']);
    expect(deleted.action_reason).toBe('delete_because_no_resource_config');
    expect(deleted.change.after).toBeNull();
    expect(deleted.change.after_unknown).toEqual({});
    expect(deleted.change.after_sensitive).toBe(false);

    const drift = renderJson(mixedPlan).resource_drift ?? [];
    // Sorted by address, as Terraform does.
    expect(drift.map((d) => d.change.actions)).toEqual([['update'], ['delete'], ['update']]);
  });

  it('leaves unknown values out of after and marks them in after_unknown', () => {
    const created = byAddress(renderJson(mixedPlan).resource_changes, 'tenantform_infra_component.primary');
    const after = created.change.after as Record<string, unknown>;
    expect(after).not.toHaveProperty('id');
    expect(after).not.toHaveProperty('version');
    expect(after.name).toBe('edge-gateway-eu');
    // As Terraform writes it: known objects and lists stay as empty or all-false mirrors.
    expect(created.change.after_unknown).toEqual({ id: true, version: true, tags: [false, false], maintenance_window: {} });
    expect(created.change.before).toBeNull();
    expect(created.change.before_sensitive).toBe(false);

    const audit = byAddress(renderJson(sensitivePlan).resource_changes, 'tenantform_event_subscription.audit');
    expect((audit.change.after as Record<string, unknown>).filters).toEqual({ event_types: ['alert.created', null] });
    expect(audit.change.after_unknown).toEqual({
      tenant_id: true,
      filters: { event_types: [false, true], severity: true },
      status: true,
    });
  });

  it('never writes a sensitive value, and marks where they were', () => {
    const text = serializePlanJson(sensitivePlan);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(OLD_SECRET_HASH);
    const changes = renderJson(sensitivePlan).resource_changes;
    const billing = byAddress(changes, 'tenantform_event_subscription.billing');
    expect(billing.change.before).not.toHaveProperty('secret');
    expect(billing.change.after).not.toHaveProperty('secret');
    expect(billing.change.before_sensitive).toEqual({ secret: true });
    expect(billing.change.after_sensitive).toEqual({ secret: true });
    expect(renderJson(sensitivePlan).tenantform.drift['tenantform_event_subscription.billing']).toEqual([{ path: ['secret'], sensitive: true }]);
  });

  it('serializes to the same object', () => {
    const text = serializePlanJson(mixedPlan);
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(renderJson(mixedPlan));
  });
});

describe('outputs in the plan JSON', () => {
  const plan = {
    ...mixedPlan,
    outputChanges: [
      { name: 'site_url', action: 'update' as const, before: 'https://a', after: 'https://b', sensitive: false },
      { name: 'ids', action: 'create' as const, afterUnknown: true, sensitive: false },
      { name: 'token', action: 'update' as const, before: SECRET, after: `${SECRET}-2`, sensitive: true },
      { name: 'old', action: 'delete' as const, before: { a: [1] }, sensitive: false },
    ],
  };
  const json = renderJson(plan);

  it("writes output_changes in Terraform's shape, never a sensitive value", () => {
    expect(json.output_changes).toEqual({
      site_url: { actions: ['update'], before: 'https://a', after: 'https://b', after_unknown: false, before_sensitive: false, after_sensitive: false },
      ids: { actions: ['create'], before: null, after: null, after_unknown: true, before_sensitive: false, after_sensitive: false },
      token: { actions: ['update'], before: null, after: null, after_unknown: false, before_sensitive: true, after_sensitive: true },
      old: { actions: ['delete'], before: { a: [1] }, after: null, after_unknown: false, before_sensitive: false, after_sensitive: false },
    });
    expect(JSON.stringify(json)).not.toContain(SECRET);
  });

  it('lists the outputs after apply in planned_values and before it in prior_state, with their types', () => {
    expect(json.planned_values.outputs).toEqual({
      site_url: { sensitive: false, type: 'string', value: 'https://b' },
      ids: { sensitive: false },
      token: { sensitive: true, type: 'string' },
    });
    expect(json.prior_state?.values.outputs).toEqual({
      site_url: { sensitive: false, type: 'string', value: 'https://a' },
      token: { sensitive: true, type: 'string' },
      old: { sensitive: false, type: ['object', { a: ['tuple', ['number']] }], value: { a: [1] } },
    });
  });
});
