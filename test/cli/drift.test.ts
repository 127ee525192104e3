import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { DRIFT_ALERT_TYPE } from '../../src/drift/alert';
import { call } from '../../src/emulator/testing';
import { configWith, infra, NORTHWIND_REPORT_AND_EVENTS, run, startWorld, writeConfig, type CliResult, type World } from './helpers';

const STATE = 'terraform.main.tfstate';

/** One object of each kind, plus a component whose name is left to the platform (ignore_changes). */
function stack(): Record<string, Record<string, unknown>> {
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
      primary: infra('Northwind storage'),
      named_by_hand: { ...infra('Named by hand'), lifecycle: { ignore_changes: ['name'] } },
    },
    tenantform_agent_update_settings: {
      acme: { tenant_id: '${data.tenantform_tenant.acme.id}', update_channel: 'STABLE', automatic: true },
    },
    ...NORTHWIND_REPORT_AND_EVENTS,
  };
}

interface DriftJson {
  summary: { total: number; in_sync: number; drifted: number; deleted: number; unknown: number };
  resources: Array<{ address: string; status: string; changes: Array<{ path: string; state: unknown; live: unknown }>; ignored_changes: string[] }>;
  configuration_differs: Array<{ address: string; action: string }>;
}

describe('tenantform drift', () => {
  let world: World;
  let file: string;
  /** Another administrator, changing the platform by hand. */
  let admin: PlatformClient;

  const drift = (...extra: string[]): Promise<CliResult> => run(world, ['drift', '--config', file, ...extra]);
  const driftJson = async (...extra: string[]): Promise<{ result: CliResult; json: DriftJson }> => {
    const result = await drift('--format', 'json', ...extra);
    return { result, json: JSON.parse(result.stdout) as DriftJson };
  };
  const resource = (json: DriftJson, address: string) => json.resources.find((r) => r.address === address)!;
  const attributes = (name: string): Record<string, unknown> =>
    JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')).resources.find((r: { name: string }) => r.name === name).instances[0].attributes;
  const driftAlerts = async () => (await admin.listAlerts({ type: DRIFT_ALERT_TYPE })).length;

  beforeAll(async () => {
    world = await startWorld();
    file = writeConfig(world, configWith(stack()));
    const applied = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(applied.stdout).toContain('Apply complete! Resources: 7 added');
    const created = await call(world.emulator.url, 'POST', '/_emulator/clients', { body: {} });
    admin = new PlatformClient({ baseUrl: world.emulator.url, clientId: created.json.client_id, clientSecret: created.json.client_secret });
  });
  afterAll(async () => {
    await admin?.close();
    await world.close();
  });

  it('exits 0 when in sync, raises no alert and leaves the state byte-identical', async () => {
    const before = readFileSync(join(world.dir, STATE));
    const result = await drift('--alert');
    // Progress only: no warning, no error.
    expect(result.stderr).toMatch(/^Reading 7 objects from the platform\.\.\.\nRead 7 objects in \d+\.\ds\.\n$/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('7 resources: 7 in sync, 0 changed outside tenantform, 0 deleted outside tenantform.');
    expect(await driftAlerts()).toBe(0);
    expect(readFileSync(join(world.dir, STATE)).equals(before)).toBe(true);
  });

  it('reports each attribute changed by hand with its value in the state and on the platform', async () => {
    const before = readFileSync(join(world.dir, STATE));
    const northwind = world.tenant('Northwind Partner');
    await admin.putSetting(world.application('backup'), northwind, 'backup_window', { value: { end: '04:00', start: '23:00' }, lock: true, exclusive: false });
    for (const [name, newName] of [
      ['primary', 'Renamed by hand'],
      ['named_by_hand', 'Another name'],
    ]) {
      const [live] = await admin.getInfra([String(attributes(name).id)]);
      await admin.updateInfra(live.id, {
        name: newName,
        location_id: live.location_id!,
        url: live.url,
        capabilities: live.capabilities,
        version: live.version,
      });
    }
    await admin.putAgentUpdateSettings([{ tenant_id: world.tenant('Acme Manufacturing'), update_channel: 'CURRENT', automatic: true }]);
    const report = await admin.getReport(String(attributes('monthly').id));
    await admin.updateReport(report.id, { schedule: { enabled: false } });

    const { result, json } = await driftJson();
    expect(result.code).toBe(2);
    expect(json.summary).toEqual({ total: 7, in_sync: 3, drifted: 4, deleted: 0, unknown: 0 });
    expect(resource(json, 'tenantform_tenant_setting.window')).toMatchObject({
      status: 'drifted',
      changes: [{ path: 'value.start', state: '22:00', live: '23:00' }],
    });
    expect(resource(json, 'tenantform_infra_component.primary')).toEqual(
      expect.objectContaining({
        status: 'drifted',
        changes: [{ path: 'name', state: 'Northwind storage', live: 'Renamed by hand' }],
      }),
    );
    // The version moved, so the component is compared; the only change is ignored.
    expect(resource(json, 'tenantform_infra_component.named_by_hand')).toEqual({
      address: 'tenantform_infra_component.named_by_hand',
      type: 'tenantform_infra_component',
      status: 'in_sync',
      changes: [],
      ignored_changes: ['name'],
    });
    expect(resource(json, 'tenantform_agent_update_settings.acme')).toMatchObject({
      status: 'drifted',
      changes: [{ path: 'update_channel', state: 'STABLE', live: 'CURRENT' }],
    });
    expect(resource(json, 'tenantform_usage_report.monthly')).toEqual(
      expect.objectContaining({ status: 'drifted', changes: [{ path: 'schedule.enabled', state: true, live: false }] }),
    );
    // Only existence is checked for subscriptions.
    expect(resource(json, 'tenantform_event_subscription.tenant_events')).toMatchObject({ status: 'in_sync', changes: [] });
    expect(resource(json, 'tenantform_application_binding.northwind_monitoring').status).toBe('in_sync');
    // Drift is not a configuration change.
    expect(json.configuration_differs).toEqual([]);

    const text = await drift();
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('~ tenantform_infra_component.primary: changed outside tenantform');
    expect(text.stdout).toContain('name: "Northwind storage" (state) -> "Renamed by hand" (live)');
    expect(text.stdout).toMatch(
      /In sync \(\d+\):\n( {4}.*\n)* {4}tenantform_infra_component.named_by_hand \(changes of name ignored by lifecycle.ignore_changes\)/,
    );
    expect(text.stdout).toContain('tenantform apply --refresh-only');
    const markdown = await drift('--format', 'markdown');
    expect(markdown.code).toBe(2);
    expect(markdown.stdout).toContain('| `tenantform_tenant_setting.window` | changed outside tenantform | `value.start` | `"22:00"` | `"23:00"` |');

    expect(readFileSync(join(world.dir, STATE)).equals(before)).toBe(true);
  });

  it("-target reports only what it names, and terraform's lock flags are taken (drift never waits for the lock)", async () => {
    const { result, json } = await driftJson('-target=tenantform_infra_component.primary', '-lock-timeout=5m', '-lock=false');
    expect(result.code).toBe(2);
    expect(json.resources.map((r) => [r.address, r.status])).toEqual([['tenantform_infra_component.primary', 'drifted']]);
    const unknown = await drift('-target=tenantform_infra_component.nowhere');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout + unknown.stderr).toContain('tenantform_infra_component.nowhere is neither declared in the configuration nor recorded in the state');
  });

  it('raises one alert while drift lasts, not one per run', async () => {
    const alerted = await drift('--alert');
    expect(alerted.code).toBe(2);
    expect(alerted.stderr).toContain(`Raised drift alert`);
    expect(alerted.stderr).toContain(`for tenant ${world.tenant('Northwind Partner')}`);
    const alerts = await admin.listAlerts({ type: DRIFT_ALERT_TYPE });
    expect(alerts).toHaveLength(1);
    expect(alerts[0].details).toMatchObject({ stack: 'main', drifted_count: 4 });

    const again = await drift('-alert');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`The drift alert ${alerts[0].id} for tenant ${world.tenant('Northwind Partner')} is still active`);
    expect(await admin.listAlerts({ type: DRIFT_ALERT_TYPE })).toHaveLength(1);
  });

  it('reports configuration differences apart from drift', async () => {
    const changed = stack();
    (changed.tenantform_infra_component.primary as Record<string, unknown>).backend_type = 'azure';
    const other = writeConfig(world, configWith(changed), 'changed.tf.json');
    const result = await run(world, ['drift', '--config', other, '--state', STATE, '--format', 'json']);
    const json = JSON.parse(result.stdout) as DriftJson;
    expect(json.configuration_differs).toEqual([{ address: 'tenantform_infra_component.primary', action: 'update' }]);
    expect(json.summary.drifted).toBe(4);
  });

  it('accepts the live values with apply --refresh-only, after which drift exits 0', async () => {
    const plan = await run(world, ['plan', '--config', file, '--refresh-only', '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('This is a refresh-only plan');
    const serial = JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')).serial;
    const accepted = await run(world, ['apply', '--config', file, '--refresh-only', '--auto-approve']);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 0 destroyed.');
    const state = JSON.parse(readFileSync(join(world.dir, STATE), 'utf8'));
    expect(state.serial).toBe(serial + 1);
    expect(attributes('primary').name).toBe('Renamed by hand');
    const result = await drift('--alert');
    expect(result.code).toBe(0);
    // In sync again: the stack's alert is dismissed (DELETE /alerts), and listed no more.
    expect(result.stderr).toMatch(/The stack is in sync: dismissed drift alert [0-9a-f-]{36} of tenant/);
    expect(await driftAlerts()).toBe(0);
    expect(world.requests.filter((r) => r.startsWith('DELETE /api/alert_manager/v1/alerts'))).toHaveLength(1);
    // The platform itself was not touched.
    expect((await admin.getInfra([String(attributes('primary').id)]))[0].name).toBe('Renamed by hand');
  });

  it('reports objects deleted outside tenantform', async () => {
    const before = readFileSync(join(world.dir, STATE));
    await admin.disableApplication(world.application('monitoring'), world.tenant('Northwind Partner'));
    await admin.deleteSetting(world.application('backup'), world.tenant('Northwind Partner'), 'backup_window');
    const primary = attributes('primary');
    await admin.deleteInfra(String(primary.id), Number(primary.version));
    const report = attributes('monthly');
    await admin.deleteReport(String(report.id), Number(report.version));
    // A subscription cannot be deleted through the interface: one that the platform does not know stands for it.
    const state = JSON.parse(before.toString('utf8'));
    const subscription = state.resources.find((r: { name: string }) => r.name === 'tenant_events').instances[0].attributes;
    subscription.subscription_id = subscription.id = '5d9b8c1e-0f3a-4b2c-8d7e-6a5b4c3d2e1f';
    writeFileSync(join(world.dir, 'unknown-subscription.tfstate'), JSON.stringify(state));

    const { result, json } = await driftJson();
    expect(result.code).toBe(2);
    const deleted = json.resources.filter((r) => r.status === 'deleted').map((r) => r.address);
    expect(deleted.sort()).toEqual([
      'tenantform_application_binding.northwind_monitoring',
      'tenantform_infra_component.primary',
      'tenantform_tenant_setting.window',
      'tenantform_usage_report.monthly',
    ]);
    const text = await drift();
    expect(text.stdout).toContain('- tenantform_infra_component.primary: deleted outside tenantform');

    const absent = await driftJson('--state', 'unknown-subscription.tfstate');
    expect(resource(absent.json, 'tenantform_event_subscription.tenant_events').status).toBe('deleted');
    expect(readFileSync(join(world.dir, STATE)).equals(before)).toBe(true);
  });

  it('exits 1 when the platform cannot be reached, without touching the state', async () => {
    const before = readFileSync(join(world.dir, STATE));
    const result = await run(world, ['drift', '--config', file, '--format', 'json'], {
      TENANTFORM_BASE_URL: 'http://127.0.0.1:9',
      TENANTFORM_RETRY_TIMEOUT: '1',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Error: [^]*ECONNREFUSED/);
    // Nothing is claimed in sync when it could not be read.
    expect(result.stdout).not.toMatch(/"in_sync": [1-9]/);
    expect(readFileSync(join(world.dir, STATE)).equals(before)).toBe(true);
  });
});
