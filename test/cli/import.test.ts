import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resourceKind } from '../../src/resources/registry';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

/** One object of each kind. */
function stack(): Record<string, Record<string, unknown>> {
  return {
    tenantform_application_binding: {
      // The parent tenant must have an application before a child can.
      northwind_monitoring: { application_id: '${data.tenantform_application.monitoring.id}', tenant_id: '${data.tenantform_tenant.northwind.id}' },
    },
    tenantform_tenant_setting: {
      retention: {
        application_id: '${data.tenantform_application.backup.id}',
        tenant_id: '${data.tenantform_tenant.globex.id}',
        name: 'retention_days',
        value: '90',
        lock: true,
      },
    },
    tenantform_infra_component: { storage: infra('Globex storage', { backend_type: 'azure' }) },
    tenantform_agent_update_settings: {
      globex: {
        tenant_id: '${data.tenantform_tenant.globex.id}',
        update_channel: 'CURRENT',
        automatic: false,
        maintenance_window: { time_from: '01:00:00', time_to: '05:00:00', days_of_week: ['SUNDAY'] },
      },
    },
    tenantform_usage_report: {
      quarterly: {
        result_action: 'save',
        parameters: { tenant_id: '${data.tenantform_tenant.globex.id}', kind: 'usage_summary', level: 'accounts', formats: ['csv'] },
        schedule: { type: 'monthly' },
      },
    },
    tenantform_event_subscription: {
      alerts: {
        topic_id: 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0',
        types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'],
        tenant_depth: 'DIRECT',
        tenant_id: '${data.tenantform_tenant.globex.id}',
      },
    },
  };
}

interface StateFile {
  serial: number;
  resources: Array<{ mode: string; type: string; name: string; instances: Array<{ attributes: Record<string, unknown> }> }>;
}

describe('tenantform import', () => {
  let world: World;
  let file: string;
  const readState = (name: string): StateFile => JSON.parse(readFileSync(join(world.dir, name), 'utf8')) as StateFile;
  /** Import ids of the objects created by the first apply, by address. */
  const ids = new Map<string, string>();

  beforeAll(async () => {
    world = await startWorld();
    file = writeConfig(world, configWith(stack()));
    const applied = await run(world, ['apply', '--config', file, '--state', 'created.tfstate', '--auto-approve']);
    expect(applied.stdout).toContain('Apply complete! Resources: 6 added');
    for (const r of readState('created.tfstate').resources.filter((r) => r.mode === 'managed')) {
      ids.set(`${r.type}.${r.name}`, resourceKind(r.type)!.identity(r.instances[0].attributes));
    }
  });
  afterAll(() => world.close());

  it('imports an object of each kind into a fresh state, after which the plan has no changes', async () => {
    expect(ids.size).toBe(6);
    for (const [address, id] of ids) {
      const result = await run(world, ['import', address, id, '--config', file, '--state', 'imported.tfstate']);
      expect(result.stdout).toContain(`${address}: Import complete`);
      expect(result.code).toBe(0);
      // Nothing of a subscription but its existence can be read: the arguments are the declared ones, and the user is told.
      if (address.startsWith('tenantform_event_subscription.'))
        expect(result.stderr).toContain('Warning: tenantform_event_subscription.alerts: Arguments taken from the configuration');
      else expect(result.stderr).not.toContain('Warning');
      expect(result.stdout).toContain('Import successful!');
    }
    const state = readState('imported.tfstate');
    expect(
      state.resources
        .filter((r) => r.mode === 'managed')
        .map((r) => `${r.type}.${r.name}`)
        .sort(),
    ).toEqual([...ids.keys()].sort());
    expect(existsSync(join(world.dir, '.imported.tfstate.lock.info'))).toBe(false);

    const plan = await run(world, ['plan', '--config', file, '--state', 'imported.tfstate', '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  it('shows only the real differences between the configuration and the imported object', async () => {
    const changed = stack();
    changed.tenantform_infra_component.storage = infra('Globex storage', { backend_type: 'acronis' });
    const other = writeConfig(world, configWith({ tenantform_infra_component: changed.tenantform_infra_component }), 'changed.tf.json');
    const imported = await run(world, [
      'import',
      'tenantform_infra_component.storage',
      ids.get('tenantform_infra_component.storage')!,
      '--config',
      other,
      '--state',
      'partial.tfstate',
    ]);
    expect(imported.code).toBe(0);
    const plan = await run(world, ['plan', '--config', other, '--state', 'partial.tfstate', '--detailed-exitcode', '--format', 'json']);
    expect(plan.code).toBe(2);
    const changes = JSON.parse(plan.stdout).resource_changes.filter(
      (c: { change: { actions: string[] } }) => c.change.actions[0] !== 'no-op' && c.change.actions[0] !== 'read',
    );
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      address: 'tenantform_infra_component.storage',
      change: { actions: ['update'], before: { backend_type: 'azure' }, after: { backend_type: 'acronis' } },
    });
  });

  it('refuses an id that does not exist, an address not in the configuration and one already managed, leaving the state as it was', async () => {
    const before = readFileSync(join(world.dir, 'imported.tfstate'));
    const missing = '7e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b';

    const unknown = await run(world, [
      'import',
      'tenantform_infra_component.other',
      missing,
      '--config',
      writeConfig(world, configWith({ tenantform_infra_component: { other: infra('Other') } }), 'other.tf.json'),
      '--state',
      'imported.tfstate',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`tenantform_infra_component.other: Cannot import a non-existent object`);
    expect(unknown.stderr).toContain(`No tenantform_infra_component with id "${missing}" exists on the platform`);

    const malformed = await run(world, ['import', 'tenantform_agent_update_settings.globex', 'globex', '--config', file, '--state', 'fresh.tfstate']);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('expected `agent/<agent_id>` or `tenant/<tenant_id>`');

    const undeclared = await run(world, [
      'import',
      'tenantform_infra_component.nowhere',
      ids.get('tenantform_infra_component.storage')!,
      '--config',
      file,
      '--state',
      'imported.tfstate',
    ]);
    expect(undeclared.code).toBe(1);
    expect(undeclared.stderr).toContain('tenantform_infra_component.nowhere is not declared in');
    expect(undeclared.stderr).toContain('add resource "tenantform_infra_component" "nowhere"');

    const managed = await run(world, [
      'import',
      'tenantform_infra_component.storage',
      ids.get('tenantform_infra_component.storage')!,
      '--config',
      file,
      '--state',
      'imported.tfstate',
    ]);
    expect(managed.code).toBe(1);
    expect(managed.stderr).toContain('tenantform_infra_component.storage is already managed by tenantform');

    expect(readFileSync(join(world.dir, 'imported.tfstate')).equals(before)).toBe(true);
    expect(existsSync(join(world.dir, 'fresh.tfstate'))).toBe(false);
  });

  it('names a key missing from for_each, with the keys there are, and checks the id before anything else', async () => {
    const sites = writeConfig(
      world,
      configWith({ tenantform_infra_component: { site: { for_each: { alpha: 'A', beta: 'B' }, ...infra('Site ${each.value}') } } }),
      'sites.tf.json',
    );
    const id = ids.get('tenantform_infra_component.storage')!;
    const importInto = (address: string, objectId = id) => run(world, ['import', address, objectId, '--config', sites, '--state', 'sites.tfstate']);

    const missingKey = await importInto('tenantform_infra_component.site["alpah"]');
    expect(missingKey.code).toBe(1);
    expect(missingKey.stderr).toContain('tenantform_infra_component.site has no instance ["alpah"]: the key "alpah" is not in its for_each map');
    expect(missingKey.stderr).toContain('Its keys: "alpha", "beta". Did you mean tenantform_infra_component.site["alpha"]?');
    expect(missingKey.stderr).not.toContain('add resource');

    const unkeyed = await importInto('tenantform_infra_component.site');
    expect(unkeyed.stderr).toContain('tenantform_infra_component.site has for_each: import one of its instances');

    // A malformed id is refused before the configuration is looked at or the platform asked.
    world.requests.length = 0;
    const malformed = await importInto('tenantform_infra_component.site["alpah"]', 'not-an-id');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('"not-an-id" is not an import id of tenantform_infra_component');
    expect(malformed.stderr).not.toContain('for_each');
    expect(world.requests).toEqual([]);
    expect(existsSync(join(world.dir, 'sites.tfstate'))).toBe(false);
  });
});
