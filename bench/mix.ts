/**
 * Stacks for the benchmarks, over the emulator's seeded world: the mixed stack of every kind
 * (in the proportions of a service provider's configuration) and a stack of plain creates.
 */
import type { RunningEmulator } from '../src/emulator';

type Resources = Record<string, Record<string, Record<string, unknown>>>;

const BOUND_APPS = ['files_cloud', 'monitoring', 'storage', 'hci', 'physical_data_shipping', 'notary'];
const LOCATION = '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f';

/** The partner tenant the emulator's API client is on, as an MSP's client is: its subtree is what the stacks manage. */
const MSP = 'Northwind Partner';

/** How many objects of each kind the mix of 1,000 has. */
export const MIX = { bindings: 18, agentUpdateSettings: 13, settings: 396, components: 287, reports: 143, subscriptions: 143 };

/**
 * The mixed stack of 1,000 over the MSP's partner tenant and its 3 customers: 18 bindings
 * (6 applications for the partner and two customers), 13 agent update settings (every tenant
 * and agent), 396 settings of the backup application spread over the 4 tenants, 287
 * infrastructure components, 143 usage reports, 143 subscriptions.
 */
export function mixedStack(emulator: RunningEmulator): Resources {
  const world = emulator.world();
  const partnerId = world.tenants[MSP].id;
  const tenants = Object.values(world.tenants).filter((t) => t.id === partnerId || t.parent_id === partnerId);
  const bound = tenants.slice(0, 3);
  const backup = world.applications.backup.id;
  const r: Resources = {
    tenantform_application_binding: {},
    tenantform_agent_update_settings: {},
    tenantform_tenant_setting: {},
    tenantform_infra_component: {},
    tenantform_usage_report: {},
    tenantform_event_subscription: {},
  };
  // A customer's application needs it on the partner first (the platform refuses it otherwise).
  const bindingName = (tenantId: string, app: string) => `b_${tenantId.slice(0, 8)}_${app}`;
  for (const t of bound) {
    for (const app of BOUND_APPS)
      r.tenantform_application_binding[bindingName(t.id, app)] = {
        application_id: world.applications[app].id,
        tenant_id: t.id,
        ...(t.id !== partnerId && bound.some((b) => b.id === partnerId)
          ? { depends_on: [`tenantform_application_binding.${bindingName(partnerId, app)}`] }
          : {}),
      };
  }
  tenants.forEach((t, i) => (r.tenantform_agent_update_settings[`tenant_${i}`] = { tenant_id: t.id, update_channel: 'STABLE', automatic: true }));
  Object.entries(world.agents)
    .filter(([name]) => tenants.some((t) => t.id === world.tenants[name].id))
    .flatMap(([, ids]) => ids)
    .forEach((id, i) => (r.tenantform_agent_update_settings[`agent_${i}`] = { agent_id: id, update_channel: 'CURRENT', automatic: false }));
  for (let i = 0; i < MIX.settings; i++) {
    r.tenantform_tenant_setting[`s_${i}`] = { application_id: backup, tenant_id: tenants[i % tenants.length].id, name: `bench_${i}`, value: String(i) };
  }
  const owner = partnerId;
  for (let i = 0; i < MIX.components; i++) r.tenantform_infra_component[`c_${i}`] = component(owner, i);
  for (let i = 0; i < MIX.reports; i++) {
    r.tenantform_usage_report[`r_${i}`] = {
      result_action: 'save',
      parameters: { tenant_id: tenants[i % tenants.length].id, kind: 'usage_summary', level: 'accounts', formats: ['csv'] },
      schedule: { type: 'monthly' },
    };
  }
  for (let i = 0; i < MIX.subscriptions; i++) {
    r.tenantform_event_subscription[`e_${i}`] = {
      topic_id: 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0',
      types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'],
      tenant_depth: 'ALL',
      tenant_id: tenants[i % tenants.length].id,
    };
  }
  const count = Object.values(r).reduce((n, objects) => n + Object.keys(objects).length, 0);
  if (count !== 1000) throw new Error(`the mix has ${count} objects, not 1,000 (the seeded world changed?)`);
  return r;
}

/** `n` creates: half infrastructure components (recorded as pending first), half settings. */
export function createsStack(emulator: RunningEmulator, n: number): Resources {
  const world = emulator.world();
  const owner = world.tenants[MSP].id;
  const backup = world.applications.backup.id;
  const r: Resources = { tenantform_infra_component: {}, tenantform_tenant_setting: {} };
  for (let i = 0; i < n / 2; i++) {
    r.tenantform_infra_component[`c_${i}`] = component(owner, i);
    r.tenantform_tenant_setting[`s_${i}`] = { application_id: backup, tenant_id: owner, name: `apply_${i}`, value: String(i) };
  }
  return r;
}

function component(owner: string, i: number): Record<string, unknown> {
  return { owner_tenant_id: owner, name: `Site ${i}`, url: `https://site-${i}.example`, capabilities: ['backup'], location_id: LOCATION };
}

/** The stack as Terraform JSON, with the provider `terraform` needs to find. */
export function terraformJson(resources: Resources): Record<string, unknown> {
  return { terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } } }, provider: { tenantform: [{}] }, resource: resources };
}
