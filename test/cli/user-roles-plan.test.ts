import { configWith, run, startWorld, writeConfig, type World } from './helpers';

/** A new administrator of Globex Retail (a customer) with the given roles on Globex. */
function globexAdmin(roleIds: string[]): Record<string, Record<string, unknown>> {
  return {
    tenantform_user: { admin: { tenant_id: '${data.tenantform_tenant.globex.id}', login: 'globex-admin', email: 'admin@globex.example' } },
    tenantform_user_roles: {
      admin: {
        user_id: '${tenantform_user.admin.id}',
        roles: roleIds.map((id) => ({ tenant_id: '${data.tenantform_tenant.globex.id}', role_id: id })),
      },
    },
  };
}

describe('tenantform plan: a role on the wrong kind of a known tenant', () => {
  let world: World;
  const writes = () => world.requests.filter((r) => !r.startsWith('GET') && !r.startsWith('POST /api/2/idp/token'));

  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('is refused by the plan, naming the address and the role, before any write', async () => {
    world.requests.length = 0;
    const file = writeConfig(world, configWith(globexAdmin(['company_admin', 'partner_admin'])));
    const plan = await run(world, ['plan', '-config', file]);
    expect(plan.code).toBe(1);
    const output = plan.stderr + plan.stdout;
    expect(output).toContain('tenantform_user_roles.admin');
    expect(output).toContain('partner_admin cannot be granted on a customer tenant');
    expect(output).toMatch(/roles\[1\]\.role_id/);
    expect(output).toContain('partner or folder');
    expect(writes()).toEqual([]);

    const apply = await run(world, ['apply', '-config', file, '-auto-approve']);
    expect(apply.code).toBe(1);
    expect(writes()).toEqual([]);
  });

  it('plans roles that fit the tenant', async () => {
    const plan = await run(world, ['plan', '-config', writeConfig(world, configWith(globexAdmin(['company_admin', 'backup_user'])))]);
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('2 to add');
  });
});
