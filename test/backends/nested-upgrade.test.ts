/**
 * States written before offering items and roles became nested attributes (schema version 0,
 * each held as a string of JSON) are upgraded as they are read: on every backend, tenantform and
 * the real `terraform` (through the provider's UpgradeResourceState) plan nothing for a stack
 * that declares the same items and roles as objects.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBackend } from '../../src/backends';
import { newLockInfo } from '../../src/backends/lock-info';
import { configWith, run as tenantform } from '../cli/helpers';
import { BACKEND_BLOCKS, withEveryBackend } from '../helpers/every-backend';
import { run } from '../provider/helpers';

jest.setTimeout(300_000);

interface StoredInstance {
  schema_version: number;
  attributes: Record<string, unknown>;
}
interface StoredState {
  serial: number;
  resources: Array<{ type: string; instances: StoredInstance[] }>;
}

/** The state as a version before nested attributes wrote it: the items and roles as JSON text. */
function asVersionZero(state: StoredState): StoredState {
  const text: Record<string, string> = { tenantform_offering_items: 'items', tenantform_user_roles: 'roles' };
  for (const r of state.resources) {
    const name = text[r.type];
    if (!name) continue;
    for (const i of r.instances) {
      // The earlier form left out what the configuration left out (`enabled` of an item on, an unset `infra_id`).
      const objects = (i.attributes[name] as Array<Record<string, unknown>>).map((o) =>
        Object.fromEntries(Object.entries(o).filter(([k, v]) => v !== null && !(k === 'enabled' && v === true))),
      );
      i.attributes[name] = JSON.stringify(objects);
      i.schema_version = 0;
    }
  }
  return { ...state, serial: state.serial + 1 };
}

describe('a state of nested values written as JSON strings', () => {
  const running = withEveryBackend('upgrade');

  const stack = (backend: Record<string, unknown>, type: string) => ({
    ...configWith({
      tenantform_tenant: { customer: { parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name: `Upgrade ${type}` } },
      tenantform_offering_items: {
        backup: {
          tenant_id: '${tenantform_tenant.customer.id}',
          application_id: '${data.tenantform_application.backup.id}',
          items: [{ name: 'storage', quota: { value: 2 ** 40, overage: 0 } }, { name: 'workstations' }],
        },
      },
      tenantform_user: { admin: { tenant_id: '${tenantform_tenant.customer.id}', login: `upgrade-${type}`, email: `${type}@upgrade.example` } },
      tenantform_user_roles: {
        admin: { user_id: '${tenantform_user.admin.id}', roles: [{ tenant_id: '${tenantform_tenant.customer.id}', role_id: 'company_admin' }] },
      },
    }),
    terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } }, backend },
  });

  it.each(BACKEND_BLOCKS)('plans nothing on the %s backend, with both tools', async (type, backend) => {
    const { world, credentials: env, terraformEnv: tfEnv } = running();
    const dir = join(world.dir, `upgrade-${type}`);
    mkdirSync(dir, { recursive: true });
    const config = join(`upgrade-${type}`, 'main.tf.json');
    writeFileSync(join(world.dir, config), JSON.stringify(stack(await backend(running(), 'nested-upgrade'), type), null, 2));
    const applied = await tenantform(world, ['apply', '--config', config, '--auto-approve'], env);
    expect(applied.code).toBe(0);

    // Rewrite the stored state in the earlier form, under the backend's lock.
    const store = openBackend({ configFile: join(world.dir, config), defaultState: '', cwd: world.dir, env: { ...process.env, ...env } });
    const lock = await store.tryLock(newLockInfo('OperationTypeInvalid', 'test', type));
    if (!('held' in lock)) throw new Error('the test could not take the lock');
    try {
      await store.write(JSON.stringify(asVersionZero(JSON.parse((await store.read()) ?? '{}') as StoredState)));
    } finally {
      await lock.held.release();
      await store.close();
    }

    const native = await tenantform(world, ['plan', '--config', config, '--detailed-exitcode'], env);
    expect(native.stdout).toContain('No changes');
    expect(native.code).toBe(0);
    const terraform = (...args: string[]) => run('terraform', args, { cwd: dir, env: { ...tfEnv, ...env } });
    expect((await terraform('init', '-input=false', '-no-color')).code).toBe(0);
    const viaTerraform = await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
    expect(viaTerraform.output).toContain('No changes.');
    expect(viaTerraform.code).toBe(0);
  });
});
