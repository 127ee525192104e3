import { PlatformClient } from '../../src/api';
import { call } from '../../src/emulator/testing';
import { configWith, LOCATION_ID, run, startWorld, writeConfig, type CliResult, type World } from './helpers';

const GIB = 2 ** 30;
const TIB = 2 ** 40;

/**
 * A customer with backup through offering items (a storage quota, in bytes, on the storage
 * component `infraId` or, without it, on the one the partner offers) and an administrator with company_admin.
 */
function customer(
  quota: number,
  roles: Array<{ role_id: string }> = [{ role_id: 'company_admin' }],
  infraId?: string,
): Record<string, Record<string, unknown>> {
  return {
    tenantform_tenant: { fabrikam: { parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name: 'Fabrikam' } },
    tenantform_offering_items: {
      backup: {
        tenant_id: '${tenantform_tenant.fabrikam.id}',
        application_id: '${data.tenantform_application.backup.id}',
        items: [{ name: 'storage', ...(infraId ? { infra_id: infraId } : {}), quota: { value: quota, overage: 10 * GIB } }, { name: 'workstations' }],
      },
    },
    tenantform_user: { admin: { tenant_id: '${tenantform_tenant.fabrikam.id}', login: 'fabrikam-admin', email: 'admin@fabrikam.example' } },
    tenantform_user_roles: {
      admin: {
        user_id: '${tenantform_user.admin.id}',
        roles: roles.map((r) => ({ tenant_id: '${tenantform_tenant.fabrikam.id}', role_id: r.role_id })),
      },
    },
  };
}

describe('tenantform: offering items and user roles', () => {
  let world: World;
  let admin: PlatformClient;
  const apply = async (resources: Record<string, Record<string, unknown>>): Promise<CliResult> =>
    run(world, ['apply', '--config', writeConfig(world, configWith(resources)), '--auto-approve']);
  const tenantId = async () => (await admin.getTenants({ parentId: world.tenant('Northwind Partner'), lod: 'basic' })).find((t) => t.name === 'Fabrikam')!.id;
  const storage = async () => (await admin.listOfferingItems(await tenantId())).find((i) => i.name === 'storage' && i.status === 1)!;
  /** The seeded storage component: the one the partner offers storage on. */
  const seededStorage = async () => (await admin.listOfferingItems(world.tenant('Northwind Partner'))).find((i) => i.name === 'storage')!.infra_id as string;

  beforeAll(async () => {
    world = await startWorld();
    const created = await call(world.emulator.url, 'POST', '/_emulator/clients', { body: {} });
    admin = new PlatformClient({ baseUrl: world.emulator.url, clientId: created.json.client_id, clientSecret: created.json.client_secret });
  });
  afterAll(async () => {
    await admin?.close();
    await world.close();
  });

  it('creates the items with their quota and the role set, then plans no changes', async () => {
    const applied = await apply(customer(TIB));
    expect(applied.stderr).not.toContain('Error');
    expect(applied.stdout).toContain('Apply complete! Resources: 4 added');
    expect(await storage()).toMatchObject({ status: 1, quota: { value: TIB, overage: 10 * GIB, version: 1 } });
    const users = await admin.listTenantUsers(await tenantId());
    expect((await admin.getAccessPolicies(users[0])).map((p) => p.role_id)).toEqual(['company_admin']);
    const plan = await run(world, ['plan', '--config', writeConfig(world, configWith(customer(TIB))), '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
  });

  it('a storage quota of 1 TiB lands in bytes on the storage item of the one storage component offered', async () => {
    const items = await admin.listOfferingItems(await tenantId());
    const storageItems = items.filter((i) => i.name === 'storage');
    expect(storageItems).toEqual([
      expect.objectContaining({
        type: 'infra',
        measurement_unit: 'bytes',
        infra_id: await seededStorage(),
        status: 1,
        quota: { value: 1099511627776, overage: 10 * GIB, version: 1 },
      }),
    ]);
    expect(items.find((i) => i.name === 'workstations')).toMatchObject({ type: 'count', measurement_unit: 'quantity', status: 1 });
  });

  it('changes a quota in place with its version, and reports a quota changed by hand as drift', async () => {
    const updated = await apply(customer(2 * TIB));
    expect(updated.stdout).toContain('0 added, 1 changed, 0 destroyed');
    expect((await storage()).quota).toMatchObject({ value: 2 * TIB, version: 2 });

    await admin.putOfferingItems(await tenantId(), [
      {
        application_id: world.application('backup'),
        name: 'storage',
        infra_id: await seededStorage(),
        quota: { value: 5 * GIB, overage: 10 * GIB, version: 2 },
      },
    ]);
    const drift = await run(world, ['drift', '--config', writeConfig(world, configWith(customer(2 * TIB)))]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('tenantform_offering_items.backup');
    expect((await apply(customer(2 * TIB))).stdout).toContain('1 changed');
    expect((await storage()).quota).toMatchObject({ value: 2 * TIB, version: 4 });
  });

  it('a role on the wrong kind of tenant is an error naming the resource; roles are replaced as a set', async () => {
    const refused = await apply(customer(2 * TIB, [{ role_id: 'partner_admin' }]));
    expect(refused.code).toBe(1);
    expect(refused.stderr + refused.stdout).toContain('tenantform_user_roles.admin');
    expect(refused.stderr + refused.stdout).toContain('partner_admin cannot be granted on a customer tenant');
    const both = await apply(customer(2 * TIB, [{ role_id: 'backup_user' }, { role_id: 'company_admin' }]));
    expect(both.code).toBe(0);
    const users = await admin.listTenantUsers(await tenantId());
    expect((await admin.getAccessPolicies(users[0])).map((p) => p.role_id).sort()).toEqual(['backup_user', 'company_admin']);
  });

  it('malformed items are refused before any request, naming the attribute path', async () => {
    const bad = customer(2 * TIB);
    (bad.tenantform_offering_items.backup as Record<string, unknown>).items = [{ name: 'storage', quota: { value: -1 } }];
    world.requests.length = 0;
    const result = await run(world, ['plan', '--config', writeConfig(world, configWith(bad))]);
    expect(result.code).toBe(1);
    expect(result.stderr + result.stdout).toContain('tenantform_offering_items.backup');
    expect(result.stderr + result.stdout).toMatch(/items\[0\]\.quota\.value/);
    expect(world.requests.filter((r) => !r.startsWith('GET') && !r.startsWith('POST /api/2/idp/token'))).toEqual([]);
  });

  it('with a second storage component offered, a storage item without infra_id is refused at items[0].infra_id; with it, the quota lands on that component', async () => {
    const roles = [{ role_id: 'backup_user' }, { role_id: 'company_admin' }];
    const second = await admin.createInfra({
      owner_tenant_id: world.tenant('Northwind Partner'),
      name: 'Northwind storage',
      url: 'https://storage.northwind.example',
      capabilities: ['backup'],
      location_id: LOCATION_ID,
    });
    await admin.putOfferingItems(world.tenant('Northwind Partner'), [
      { application_id: world.application('backup'), name: 'storage', infra_id: second.id, status: 1 },
    ]);

    world.requests.length = 0;
    const ambiguous = await run(world, ['plan', '--config', writeConfig(world, configWith(customer(3 * TIB, roles)))]);
    expect(ambiguous.code).toBe(1);
    const said = ambiguous.stderr + ambiguous.stdout;
    expect(said).toContain('tenantform_offering_items.backup: items[0].infra_id');
    expect(said).toContain('storage is offered per storage infrastructure component');
    expect(said).toContain(second.id);
    expect(said).toContain(await seededStorage());
    expect(world.requests.filter((r) => !r.startsWith('GET') && !r.startsWith('POST /api/2/idp/token'))).toEqual([]);

    const moved = await apply(customer(3 * TIB, roles, second.id));
    expect(moved.code).toBe(0);
    const items = (await admin.listOfferingItems(await tenantId())).filter((i) => i.name === 'storage');
    expect(items.find((i) => i.infra_id === second.id)).toMatchObject({
      status: 1,
      type: 'infra',
      measurement_unit: 'bytes',
      quota: { value: 3 * TIB, overage: 10 * GIB },
    });
    // The item the configuration named before (the seeded component's) was turned off.
    const seeded = await seededStorage();
    expect(items.find((i) => i.infra_id === seeded)).toMatchObject({ status: 0 });
    const plan = await run(world, ['plan', '--config', writeConfig(world, configWith(customer(3 * TIB, roles, second.id))), '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
  });

  it('destroying turns the items off and removes the roles, and the tenant goes', async () => {
    const id = await tenantId();
    const destroyed = await apply({});
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toContain('4 destroyed');
    await expect(admin.getTenant(id)).rejects.toMatchObject({ status: 404 });
  });
});
