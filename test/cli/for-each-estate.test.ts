/**
 * Customers declared as Terraform users declare many similar things: a map in a variable and
 * `for_each` over it, each customer's objects referring to its own tenant with `[each.key]`.
 * Each instance waits only on the instance it names, so one customer that fails stops only its
 * own objects.
 */
import { PlatformClient } from '../../src/api';
import { loadConfiguration, dependencies } from '../../src/config/config';
import { COMMON_DATA, run, startWorld, writeConfig, type World } from './helpers';
import { join } from 'node:path';

const CUSTOMERS = { alpha: 'Estate Alpha', bravo: 'Estate Bravo', charlie: 'Estate Charlie' };

function estate(customers: Record<string, string>): Record<string, unknown> {
  const each = { for_each: '${var.customers}' };
  const tenantOf = '${tenantform_tenant.customer[each.key].id}';
  return {
    '//': { metadata: { backend: 'local' } },
    provider: { tenantform: [{}] },
    variable: { customers: { type: 'map(string)', default: customers } },
    data: COMMON_DATA,
    resource: {
      tenantform_tenant: { customer: { ...each, parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name: '${each.value}' } },
      tenantform_offering_items: {
        customer: {
          ...each,
          tenant_id: tenantOf,
          application_id: '${data.tenantform_application.backup.id}',
          items: [{ name: 'workstations', quota: { value: 5 } }],
        },
      },
      tenantform_user: { admin: { ...each, tenant_id: tenantOf, login: 'estate-${each.key}-admin', email: '${each.key}@estate.example' } },
      tenantform_user_roles: {
        admin: {
          ...each,
          user_id: '${tenantform_user.admin[each.key].id}',
          roles: [{ tenant_id: '${tenantform_tenant.customer[each.key].id}', role_id: 'company_admin' }],
        },
      },
    },
  };
}

describe('an estate declared with for_each', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('makes each instance wait only on the instance it names: the edges grow with the customers, not their square', () => {
    const file = writeConfig(world, estate(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`c${i}`, `Customer ${i}`]))));
    const { configuration } = loadConfiguration({ file: join(world.dir, file), stack: 'main', defaultState: join(world.dir, 'terraform.main.tfstate') });
    const deps = dependencies(configuration!);
    expect([...deps.get('tenantform_user_roles.admin["c7"]')!].sort()).toEqual(['tenantform_tenant.customer["c7"]', 'tenantform_user.admin["c7"]']);
    expect([...deps.get('tenantform_offering_items.customer["c7"]')!].sort()).toEqual([
      'data.tenantform_application.backup',
      'tenantform_tenant.customer["c7"]',
    ]);
    const edges = [...deps.values()].reduce((n, s) => n + s.size, 0);
    // Per customer: the tenant on its parent, the items on the tenant and the application, the user
    // on the tenant, the roles on the user and the tenant; and two partners' data sources on theirs.
    expect(edges).toBe(50 * 6 + 2);
  });

  it('one customer that fails stops only its own objects; the others are applied, and the next apply finishes the estate', async () => {
    const file = writeConfig(world, estate(CUSTOMERS));
    // The reviewed plan; then someone makes a tenant of Bravo's name, not in the state: Bravo's create is refused at apply.
    expect((await run(world, ['plan', '--config', file, '--out', 'estate-first.plan'])).code).toBe(0);
    const taken = await world.client.createTenant({ name: 'Estate Bravo', parent_id: world.tenant('Northwind Partner'), kind: 'customer' });
    const applied = await run(world, ['apply', '--config', file, 'estate-first.plan']);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('tenantform_tenant.customer["bravo"]');
    expect(applied.stderr).toContain(`(id ${taken.id})`);
    // Alpha's and Charlie's four objects each; none of Bravo's.
    expect(applied.stderr).toContain('Resources: 8 added, 0 changed, 0 destroyed.');
    for (const key of ['alpha', 'charlie']) expect(applied.stderr).toContain(`tenantform_user_roles.admin["${key}"]: Creation complete`);
    for (const address of ['tenantform_offering_items.customer', 'tenantform_user.admin', 'tenantform_user_roles.admin'])
      expect(applied.stderr).toContain(`${address}["bravo"] was not applied because something it depends on failed`);

    // The conflicting tenant is adopted by an import, and the estate completes.
    const admin = new PlatformClient({ baseUrl: world.emulator.url, clientId: world.emulator.clientId, clientSecret: world.emulator.clientSecret });
    try {
      expect((await run(world, ['import', '--config', file, 'tenantform_tenant.customer["bravo"]', taken.id])).code).toBe(0);
      // A saved plan of instances (`type.name["key"]`) is applied as saved.
      const saved = await run(world, ['plan', '--config', file, '--out', 'estate.plan']);
      expect(saved.code).toBe(0);
      const finished = await run(world, ['apply', '--config', file, 'estate.plan']);
      expect(finished.stderr).not.toContain('Error');
      expect(finished.code).toBe(0);
      expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
      const names = (await admin.getTenants({ parentId: world.tenant('Northwind Partner'), lod: 'basic' }))
        .map((t) => t.name)
        .filter((n) => n?.startsWith('Estate '));
      expect(names.sort()).toEqual(['Estate Alpha', 'Estate Bravo', 'Estate Charlie']);
    } finally {
      await admin.close();
    }
  });

  it('for_each over a repeated resource (cdktf TerraformIterator.fromResources): one instance per its instance, each.value its object', async () => {
    const file = writeConfig(
      world,
      {
        '//': { metadata: { backend: 'local' } },
        provider: { tenantform: [{}] },
        variable: { customers: { type: 'map(string)', default: { delta: 'Iterated Delta', echo: 'Iterated Echo' } } },
        data: COMMON_DATA,
        resource: {
          tenantform_tenant: {
            iterated: { for_each: '${var.customers}', parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name: '${each.value}' },
          },
          tenantform_user: {
            iterated_admin: {
              for_each: '${tenantform_tenant.iterated}',
              tenant_id: '${each.value.id}',
              login: 'iterated-${each.key}',
              email: '${each.key}@iterated.example',
            },
          },
        },
      },
      'iterated.tf.json',
    );
    const { configuration } = loadConfiguration({
      file: join(world.dir, file),
      stack: 'iterated',
      defaultState: join(world.dir, 'terraform.iterated.tfstate'),
    });
    expect([...dependencies(configuration!).get('tenantform_user.iterated_admin["echo"]')!]).toEqual(['tenantform_tenant.iterated["echo"]']);
    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('# tenantform_user.iterated_admin["delta"] will be created');
    expect(plan.stdout).toContain('Plan: 4 to add, 0 to change, 0 to destroy.');
    const applied = await run(world, ['apply', '--auto-approve', '--config', file]);
    expect(applied.code).toBe(0);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
    const echo = (await world.client.getTenants({ parentId: world.tenant('Northwind Partner'), lod: 'basic' })).find((t) => t.name === 'Iterated Echo');
    const users = await world.client.listTenantUsers(echo!.id);
    expect(users).toHaveLength(1);
  });

  it('waits on a whole repeated resource once: depends_on it costs one edge per dependent and one per instance, not their product', async () => {
    /** Each customer's administrator waits until every customer's tenant exists. */
    const waitingOnAll = (customers: Record<string, string>) => {
      const doc = estate(customers) as { resource: { tenantform_user: { admin: Record<string, unknown> } } };
      doc.resource.tenantform_user.admin.depends_on = ['tenantform_tenant.customer'];
      return doc;
    };
    const many = writeConfig(world, waitingOnAll(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`c${i}`, `Customer ${i}`]))), 'all.tf.json');
    const { configuration, diagnostics } = loadConfiguration({
      file: join(world.dir, many),
      stack: 'all',
      defaultState: join(world.dir, 'terraform.all.tfstate'),
    });
    expect(diagnostics).toEqual([]);
    const deps = dependencies(configuration!);
    expect([...deps.get('tenantform_user.admin["c7"]')!].sort()).toEqual(['tenantform_tenant.customer', 'tenantform_tenant.customer["c7"]']);
    expect(deps.get('tenantform_tenant.customer')!.size).toBe(50);
    const edges = [...deps.values()].reduce((n, s) => n + s.size, 0);
    // The estate's edges, plus each administrator's one edge to the group and the group's one per tenant.
    expect(edges).toBe(50 * 6 + 2 + 50 + 50);

    const file = writeConfig(world, waitingOnAll({ foxtrot: 'Whole Foxtrot', golf: 'Whole Golf', hotel: 'Whole Hotel' }), 'whole.tf.json');
    const applied = await run(world, ['apply', '--auto-approve', '--config', file]);
    expect(applied.stderr).not.toContain('Error');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Resources: 12 added, 0 changed, 0 destroyed.');
    const lastTenant = Math.max(...['foxtrot', 'golf', 'hotel'].map((k) => applied.stderr.indexOf(`tenantform_tenant.customer["${k}"]: Creation complete`)));
    const firstUser = Math.min(...['foxtrot', 'golf', 'hotel'].map((k) => applied.stderr.indexOf(`tenantform_user.admin["${k}"]: Creating...`)));
    expect(firstUser).toBeGreaterThan(lastTenant);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
    // Destroying the whole block destroys its instances and everything after them, through the group too.
    const destroy = await run(world, ['plan', '--destroy', '--config', file, '--target', 'tenantform_tenant.customer']);
    expect(destroy.stderr).not.toContain('Error');
    expect(destroy.stdout).toContain('Plan: 0 to add, 0 to change, 12 to destroy.');
  });
});
