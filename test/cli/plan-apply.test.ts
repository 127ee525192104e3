import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACME_AGENT_UPDATES, configWith, infra, NORTHWIND_REPORT_AND_EVENTS, run, startWorld, writeConfig, type World, renameInfraByHand } from './helpers';

/** One of each resource kind, with references between them. */
function everyKind(): Record<string, Record<string, unknown>> {
  return {
    tenantform_application_binding: {
      northwind_monitoring: { application_id: '${data.tenantform_application.monitoring.id}', tenant_id: '${data.tenantform_tenant.northwind.id}' },
    },
    tenantform_tenant_setting: {
      window: {
        application_id: '${data.tenantform_application.backup.id}',
        tenant_id: '${data.tenantform_tenant.northwind.id}',
        name: 'backup_window',
        value: JSON.stringify({ start: '22:00', end: '04:00' }),
        lock: true,
      },
    },
    tenantform_infra_component: {
      primary: infra('Northwind storage', { backend_type: 'acronis' }),
      // References a computed attribute of another object: known only after it is created.
      mirror: infra('Northwind mirror', { content_url: 'https://mirror.example.com/${tenantform_infra_component.primary.id}' }),
    },
    tenantform_agent_update_settings: {
      acme: ACME_AGENT_UPDATES,
      globex: { tenant_id: '${data.tenantform_tenant.globex.id}', update_channel: 'CURRENT', automatic: false },
    },
    ...NORTHWIND_REPORT_AND_EVENTS,
    tenantform_usage_report: { monthly: { ...NORTHWIND_REPORT_AND_EVENTS.tenantform_usage_report.monthly, depends_on: ['tenantform_tenant_setting.window'] } },
  };
}

describe('tenantform plan and apply', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('plans, applies every kind, then plans no changes', async () => {
    const file = writeConfig(world, configWith(everyKind()));
    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('Plan: 8 to add, 0 to change, 0 to destroy.');

    const noTerminal = await run(world, ['apply', '--config', file]);
    expect(noTerminal.code).toBe(1);
    expect(noTerminal.stderr).toContain('--auto-approve');

    world.requests.length = 0;
    const apply = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(apply.stderr).not.toContain('Error');
    // Both targets' agent update settings went in one request.
    expect(world.requests.filter((r) => r.startsWith('PUT /api/agent_manager/v2/agent_update_settings'))).toHaveLength(1);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete! Resources: 8 added, 0 changed, 0 destroyed.');
    expect(apply.stderr).toMatch(/tenantform_infra_component\.primary: Creation complete after \d+\.\ds \[id=[0-9a-f-]{36}\]/);
    // The mirror waited for the primary's id.
    expect(apply.stderr.indexOf('tenantform_infra_component.mirror: Creating...')).toBeGreaterThan(
      apply.stderr.indexOf('tenantform_infra_component.primary: Creation complete'),
    );

    const again = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    const state = JSON.parse(readFileSync(join(world.dir, 'terraform.main.tfstate'), 'utf8'));
    expect(state).toMatchObject({ version: 4, outputs: {}, lineage: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(state.tenantform_pending).toBeUndefined();
    const primary = state.resources.find((r: { name: string }) => r.name === 'primary');
    expect(primary).toMatchObject({
      mode: 'managed',
      type: 'tenantform_infra_component',
      provider: 'provider["registry.terraform.io/tenantform/tenantform"]',
      instances: [{ schema_version: 0, sensitive_attributes: [], dependencies: ['data.tenantform_tenant.northwind'] }],
    });
    expect(Object.keys(primary.instances[0].attributes).sort()).toEqual([
      'backend_type',
      'capabilities',
      'content_mobile_url',
      'content_url',
      'force_delete',
      'id',
      'location_id',
      'name',
      'owner_tenant_id',
      'platform_owned',
      'readonly',
      'url',
      'version',
    ]);
    expect(JSON.stringify(state)).not.toContain(world.env.TENANTFORM_CLIENT_SECRET);
    expect(existsSync(join(world.dir, '.terraform.main.tfstate.lock.info'))).toBe(false);
  });

  it('shows a change made outside as drift and repairs it', async () => {
    const file = writeConfig(world, configWith(everyKind()));
    const state = JSON.parse(readFileSync(join(world.dir, 'terraform.main.tfstate'), 'utf8'));
    const id = state.resources.find((r: { name: string }) => r.name === 'primary').instances[0].attributes.id;
    await renameInfraByHand(world.client, id, 'Renamed by hand');

    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode', '--format', 'json']);
    expect(plan.code).toBe(2);
    const json = JSON.parse(plan.stdout);
    expect(json.resource_drift.map((d: { address: string }) => d.address)).toEqual(['tenantform_infra_component.primary']);
    const change = json.resource_changes.find((c: { address: string }) => c.address === 'tenantform_infra_component.primary');
    expect(change.change.actions).toEqual(['update']);

    const apply = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(apply.stdout).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
    expect((await world.client.getInfra([id]))[0].name).toBe('Northwind storage');
  });

  it('destroys what was removed from the configuration, in reverse dependency order', async () => {
    const resources = everyKind();
    delete (resources as Record<string, unknown>).tenantform_infra_component;
    const file = writeConfig(world, configWith(resources));
    const apply = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(apply.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 2 destroyed.');
    expect(apply.stderr.indexOf('tenantform_infra_component.primary: Destroying...')).toBeGreaterThan(
      apply.stderr.indexOf('tenantform_infra_component.mirror: Destruction complete'),
    );
    expect(await world.client.listTenantInfra(world.tenant('Northwind Partner'))).toEqual([]);
  });
});
