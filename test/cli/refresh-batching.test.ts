import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, NORTHWIND_REPORT_AND_EVENTS, run, startWorld, writeConfig, type World } from './helpers';

const NORTHWIND = '${data.tenantform_tenant.northwind.id}';
const ACME = '${data.tenantform_tenant.acme.id}';
const BACKUP = '${data.tenantform_application.backup.id}';

const setting = (tenant: string, name: string) => ({ application_id: BACKUP, tenant_id: tenant, name, value: JSON.stringify(name.length) });

/** Several objects of every kind, so that batches have something to gather. */
function mixedStack(): Record<string, Record<string, unknown>> {
  return {
    tenantform_application_binding: {
      northwind_monitoring: { application_id: '${data.tenantform_application.monitoring.id}', tenant_id: NORTHWIND },
      acme_backup: { application_id: BACKUP, tenant_id: ACME },
      // The platform binds an application to a tenant only once its parent has it.
      acme_monitoring: {
        application_id: '${data.tenantform_application.monitoring.id}',
        tenant_id: ACME,
        depends_on: ['tenantform_application_binding.northwind_monitoring'],
      },
    },
    tenantform_tenant_setting: {
      n1: setting(NORTHWIND, 'retention_days'),
      n2: setting(NORTHWIND, 'compression'),
      n3: setting(NORTHWIND, 'encryption'),
      a1: setting(ACME, 'retention_days'),
      a2: setting(ACME, 'schedule'),
    },
    tenantform_infra_component: { s1: infra('Site one'), s2: infra('Site two'), s3: infra('Site three') },
    tenantform_agent_update_settings: {
      acme: { tenant_id: ACME, update_channel: 'STABLE', automatic: true },
      globex: { tenant_id: '${data.tenantform_tenant.globex.id}', update_channel: 'CURRENT', automatic: false },
    },
    ...NORTHWIND_REPORT_AND_EVENTS,
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** `METHOD /path?query` of each request (status and duration dropped). */
const sent = (world: World) => world.requests.map((line) => line.split(' ').slice(0, 2).join(' '));

/** How many requests went to each endpoint, ids shown as `{id}` and queries left out. */
function perEndpoint(requests: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) {
    const endpoint = r.split('?')[0].replace(UUID, '{id}');
    counts[endpoint] = (counts[endpoint] ?? 0) + 1;
  }
  return counts;
}

describe('refresh in batches', () => {
  let world: World;
  let file: string;
  beforeAll(async () => {
    world = await startWorld();
    file = writeConfig(world, configWith(mixedStack()));
    const apply = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(apply.stderr).not.toContain('Error');
    expect(apply.stdout).toContain('Apply complete! Resources: 15 added');
  });
  afterAll(() => world.close());

  it('reads 15 objects and 5 data sources in 17 requests, none of them twice', async () => {
    world.requests.length = 0;
    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    // Progress lines only: no warning, no error.
    expect(plan.stderr).toMatch(/^Reading 15 objects from the platform\.\.\.\nRead 15 objects in \d+\.\ds\.\n$/);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const requests = sent(world);
    expect(perEndpoint(requests)).toEqual({
      'POST /api/2/idp/token': 1,
      // data sources: Northwind by name, Acme and Globex under it (one listing), both applications (one listing)
      'GET /api/2/tenants': 2,
      'GET /api/2/applications': 1,
      // the bindings: one listing per tenant
      'GET /api/2/tenants/{id}/applications': 2,
      // the settings: one read per setting, by name (the platform lists no tenant's settings)
      'GET /api/2/applications/{id}/settings/tenants/{id}/retention_days': 2,
      'GET /api/2/applications/{id}/settings/tenants/{id}/compression': 1,
      'GET /api/2/applications/{id}/settings/tenants/{id}/encryption': 1,
      'GET /api/2/applications/{id}/settings/tenants/{id}/schedule': 1,
      // three components in one request
      // the API client's own tenant, under which a tenant named without a parent is searched
      'GET /api/2/clients/{id}': 1,
      'GET /api/2/infra': 1,
      // kinds the platform reads one at a time
      'GET /api/agent_manager/v2/agent_update_settings/{id}': 2,
      'GET /api/2/reports/{id}': 1,
      'GET /api/event_manager/v1/subscriptions/offset': 1,
    });
    expect(new Set(requests).size).toBe(requests.length);
  });

  it('falls back to single reads when a batch fails, and finds what is gone', async () => {
    const state = JSON.parse(readFileSync(join(world.dir, 'terraform.main.tfstate'), 'utf8'));
    const attributes = (name: string) => state.resources.find((r: { name: string }) => r.name === name).instances[0].attributes;
    const gone = attributes('s2');
    await world.client.deleteInfra(gone.id, gone.version);
    const n2 = attributes('n2');
    await world.client.deleteSetting(n2.application_id, n2.tenant_id, n2.name);

    world.requests.length = 0;
    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode', '--format', 'json']);
    expect(plan.code).toBe(2);
    const json = JSON.parse(plan.stdout);
    const deleted = json.resource_drift.filter((d: { change: { actions: string[] } }) => d.change.actions[0] === 'delete');
    expect(deleted.map((d: { address: string }) => d.address).sort()).toEqual(['tenantform_infra_component.s2', 'tenantform_tenant_setting.n2']);
    const created = json.resource_changes.filter((c: { change: { actions: string[] } }) => c.change.actions.join() === 'create');
    expect(created.map((c: { address: string }) => c.address).sort()).toEqual(['tenantform_infra_component.s2', 'tenantform_tenant_setting.n2']);
    // The batch answered 404 for the gone component; each component was then read alone.
    const infraReads = world.requests.filter((r) => r.startsWith('GET /api/2/infra?'));
    expect(infraReads.filter((r) => / 404 /.test(r))).toHaveLength(2);
    expect(infraReads).toHaveLength(4);
    // Each setting is read once, by name; the deleted one (set nowhere above) answers 404.
    const settingReads = world.requests.filter((r) => r.startsWith('GET /api/2/applications/'));
    expect(settingReads).toHaveLength(5);
    expect(settingReads.filter((r) => r.includes('/compression '))).toEqual([expect.stringContaining('/compression 404 ')]);
  });
});
