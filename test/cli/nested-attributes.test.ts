/**
 * Nested attributes (a list of offering items, a set of roles) on both paths: tenantform applies
 * and plans a configuration that writes them as objects, and the real `terraform` with
 * tenantform's provider plans the same configuration and state the same way.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, requireTerraform, run as runProcess, terraformEnvironment } from '../provider/helpers';
import { configWith, run, startWorld, writeConfig, type World } from './helpers';

jest.setTimeout(180_000);

const STATE = 'terraform.tfstate';
const REQUIRED = { required_providers: { tenantform: { source: 'tenantform/tenantform' } } };
const GIB = 2 ** 30;

interface Shape {
  readonly storage: number;
  readonly workstations?: boolean;
  readonly servers?: boolean;
  readonly roles: readonly string[];
}

/** Fabrikam with its items and its administrator's roles, written as objects. */
function config(shape: Shape): Record<string, unknown> {
  const items: Array<Record<string, unknown>> = [{ name: 'storage', quota: { value: shape.storage * GIB, overage: 10 * GIB } }];
  if (shape.workstations !== undefined) items.push({ name: 'workstations', enabled: shape.workstations });
  if (shape.servers !== undefined) items.push({ name: 'servers', quota: { value: 5 } });
  return {
    ...configWith({
      tenantform_tenant: { fabrikam: { parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name: 'Fabrikam Nested' } },
      tenantform_offering_items: {
        backup: { tenant_id: '${tenantform_tenant.fabrikam.id}', application_id: '${data.tenantform_application.backup.id}', items },
      },
      tenantform_user: { admin: { tenant_id: '${tenantform_tenant.fabrikam.id}', login: 'fabrikam-nested', email: 'admin@fabrikam.example' } },
      tenantform_user_roles: {
        admin: { user_id: '${tenantform_user.admin.id}', roles: shape.roles.map((role_id) => ({ tenant_id: '${tenantform_tenant.fabrikam.id}', role_id })) },
      },
    }),
    terraform: REQUIRED,
    output: {
      first_item: { value: '${tenantform_offering_items.backup.items[0].name}' },
      first_quota: { value: '${tenantform_offering_items.backup.items[0].quota.value}' },
      role_count: { value: '${length(tenantform_user_roles.admin.roles)}' },
      company_admin: { value: '${contains([for r in tenantform_user_roles.admin.roles : r.role_id], "company_admin")}' },
    },
  };
}

/**
 * The lines of one attribute in a plan, from `~ name = [` to its closing bracket, the padding
 * before its `=` left out (it aligns with the block's other attributes, which the two tools list
 * differently: tenantform shows what identifies the object).
 */
function attributeBlock(output: string, address: string, name: string): string {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`  # ${address} `));
  const first = lines.findIndex((l, i) => i > start && new RegExp(`^      [~+-] ${name} +=`).test(l));
  if (start < 0 || first < 0) return `(no ${name} of ${address})`;
  const end = lines.findIndex((l, i) => i > first && /^ {8}[\]}]/.test(l));
  return [lines[first].replace(/ +=/, ' ='), ...lines.slice(first + 1, end + 1)].join('\n');
}

describe('nested attributes', () => {
  let world: World;
  let terraformEnv: NodeJS.ProcessEnv;
  const terraform = (...args: string[]) => runProcess('terraform', [...args, '-input=false', '-no-color'], { cwd: world.dir, env: terraformEnv });
  const tenantform = (...args: string[]) => run(world, [...args, '--config', 'main.tf.json', '--state', STATE]);
  const writes = (from: number) => world.requests.slice(from).filter((l) => !l.startsWith('GET') && !l.includes('/idp/token'));
  const recorded = (type: string) =>
    (
      JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')).resources as Array<{
        type: string;
        instances: Array<{ schema_version: number; attributes: Record<string, unknown> }>;
      }>
    ).find((r) => r.type === type)?.instances[0];

  /** Both tools plan the change; their renderings of the nested attributes are the same. */
  async function plansAlike(shape: Shape): Promise<string> {
    writeConfig(world, config(shape));
    const native = await tenantform('plan', '--detailed-exitcode');
    const viaTerraform = await terraform('plan', '-detailed-exitcode');
    expect(native.code).toBe(2);
    expect(viaTerraform.code).toBe(2);
    for (const [address, name] of [
      ['tenantform_offering_items.backup', 'items'],
      ['tenantform_user_roles.admin', 'roles'],
    ]) {
      expect(attributeBlock(native.stdout, address, name)).toBe(attributeBlock(viaTerraform.output, address, name));
    }
    return native.stdout;
  }

  /** tenantform applies; then neither tool has anything to do. */
  async function appliedAndEmpty(): Promise<void> {
    const applied = await tenantform('apply', '--auto-approve');
    if (applied.code !== 0) throw new Error(applied.stdout + applied.stderr);
    expect((await tenantform('plan', '--detailed-exitcode')).code).toBe(0);
    const viaTerraform = await terraform('plan', '-detailed-exitcode');
    expect(viaTerraform.code === 0 ? '' : viaTerraform.output).toBe('');
  }

  beforeAll(async () => {
    requireTerraform();
    await ensureBuilt();
    world = await startWorld();
    terraformEnv = await terraformEnvironment(world.dir, world.emulator, `nested-${process.pid}`);
    writeConfig(world, config({ storage: 100, workstations: true, roles: ['company_admin'] }));
    const init = await terraform('init');
    if (init.code !== 0) throw new Error(init.output);
    await appliedAndEmpty();
  });
  afterAll(() => world.close());

  it('records objects, not strings of JSON, and both tools read the same values through references', async () => {
    const items = recorded('tenantform_offering_items');
    expect(items?.schema_version).toBe(1);
    expect(items?.attributes.items).toEqual([
      { name: 'storage', infra_id: null, enabled: true, quota: { value: 100 * GIB, overage: 10 * GIB } },
      { name: 'workstations', infra_id: null, enabled: true, quota: null },
    ]);
    expect(recorded('tenantform_user_roles')?.attributes.roles).toEqual([{ tenant_id: expect.any(String), role_id: 'company_admin' }]);
    const native = JSON.parse((await tenantform('output', '-json')).stdout);
    const viaTerraform = JSON.parse((await runProcess('terraform', ['output', '-json'], { cwd: world.dir, env: terraformEnv })).stdout);
    expect(native.first_item.value).toBe('storage');
    expect(native.first_quota.value).toBe(100 * GIB);
    expect(native.role_count.value).toBe(1);
    expect(native.company_admin.value).toBe(true);
    for (const name of ['first_item', 'first_quota', 'role_count', 'company_admin']) expect(native[name].value).toEqual(viaTerraform[name].value);
  });

  it('terraform providers schema -json shows them as nested types with their nesting mode', async () => {
    const shown = await runProcess('terraform', ['providers', 'schema', '-json'], { cwd: world.dir, env: terraformEnv });
    const schemas = JSON.parse(shown.stdout).provider_schemas['registry.terraform.io/tenantform/tenantform'].resource_schemas;
    const items = schemas.tenantform_offering_items.block.attributes.items;
    expect(items.nested_type.nesting_mode).toBe('list');
    expect(Object.keys(items.nested_type.attributes).sort()).toEqual(['enabled', 'infra_id', 'name', 'quota']);
    expect(items.nested_type.attributes.quota.nested_type.nesting_mode).toBe('single');
    expect(schemas.tenantform_user_roles.block.attributes.roles.nested_type.nesting_mode).toBe('set');
    expect(schemas.tenantform_user_roles.version).toBe(1);
  });

  it('an element changed, added or turned off renders as terraform renders it, and applies', async () => {
    const plan = await plansAlike({ storage: 200, workstations: false, servers: true, roles: ['company_admin', 'backup_user'] });
    expect(plan).toContain('            # (1 unchanged element hidden)');
    expect(plan).toContain('                    # (1 unchanged attribute hidden)');
    await appliedAndEmpty();
  });

  it('an element removed from a list, and a set element replaced by another, render as terraform renders them', async () => {
    await plansAlike({ storage: 200, workstations: false, roles: ['backup_user'] });
    await appliedAndEmpty();
  });

  it('a set compares without order: the roles reordered plan nothing on either path', async () => {
    writeConfig(world, config({ storage: 200, workstations: false, roles: ['backup_user', 'company_admin'] }));
    await appliedAndEmpty();
    writeConfig(world, config({ storage: 200, workstations: false, roles: ['company_admin', 'backup_user'] }));
    expect((await tenantform('plan', '--detailed-exitcode')).code).toBe(0);
    const viaTerraform = await terraform('plan', '-detailed-exitcode');
    expect(viaTerraform.code === 0 ? '' : viaTerraform.output).toBe('');
    const before = world.requests.length;
    expect((await tenantform('apply', '--auto-approve')).code).toBe(0);
    expect(writes(before)).toEqual([]);
  });

  it('drift in a set names the element removed outside tenantform, not every element after it', async () => {
    writeConfig(world, config({ storage: 200, workstations: false, roles: ['company_admin', 'backup_user'] }));
    await appliedAndEmpty();
    const recordedRoles = recorded('tenantform_user_roles')?.attributes as { user_id: string; roles: Array<{ role_id: string }> };
    const userId = recordedRoles.user_id;
    const first = recordedRoles.roles[0].role_id;
    const policies = await world.client.getAccessPolicies(userId);
    expect(policies.map((p) => p.role_id).sort()).toEqual(['backup_user', 'company_admin']);
    // An administrator takes the first of the recorded roles away by hand.
    await world.client.putAccessPolicies(
      userId,
      policies
        .filter((p) => p.role_id !== first)
        .map((p) => ({
          id: p.id,
          issuer_id: p.issuer_id ?? p.id,
          trustee_id: userId,
          trustee_type: 'user',
          tenant_id: p.tenant_id,
          role_id: p.role_id,
          version: p.version,
        })),
    );
    const drift = await tenantform('drift', '--format', 'json');
    expect(drift.code).toBe(2);
    const report = JSON.parse(drift.stdout) as { resources: Array<{ address: string; changes: Array<{ path: string; state: unknown; live: unknown }> }> };
    const roles = report.resources.find((r) => r.address === 'tenantform_user_roles.admin');
    expect(roles?.changes).toHaveLength(2);
    expect(roles?.changes).toEqual(
      expect.arrayContaining([
        { path: 'roles[0].role_id', state: first, live: null },
        { path: 'roles[0].tenant_id', state: expect.any(String), live: null },
      ]),
    );
    await appliedAndEmpty();
  });

  it('terraform applies a nested change through the provider; tenantform then plans nothing', async () => {
    writeConfig(world, config({ storage: 300, workstations: true, roles: ['company_admin', 'backup_user', 'readonly_admin'] }));
    const applied = await terraform('apply', '-auto-approve');
    expect(applied.code === 0 ? '' : applied.output).toBe('');
    expect(recorded('tenantform_offering_items')?.attributes.items).toEqual([
      { name: 'storage', infra_id: null, enabled: true, quota: { value: 300 * GIB, overage: 10 * GIB } },
      { name: 'workstations', infra_id: null, enabled: true, quota: null },
    ]);
    const native = await tenantform('plan', '--detailed-exitcode');
    expect(native.code === 0 ? '' : native.stdout + native.stderr).toBe('');
  });

  it('invalid nested input is refused naming the address and the full path, before any request', async () => {
    const bad = config({ storage: 200, roles: ['company_admin'] }) as { resource: Record<string, Record<string, Record<string, unknown>>> };
    bad.resource.tenantform_offering_items.backup.items = [
      { name: 'storage', quota: { value: 1 } },
      { name: 'servers', quota: { value: -1, overage: 'lots' } },
      { name: 'workstations', seats: 3 },
    ];
    bad.resource.tenantform_user_roles.admin.roles = [{ tenant_id: '${tenantform_tenant.fabrikam.id}', role_id: 'owner' }];
    writeConfig(world, bad);
    const before = world.requests.length;
    const plan = await tenantform('plan');
    expect(plan.code).toBe(1);
    const output = plan.stdout + plan.stderr;
    expect(output).toContain('tenantform_offering_items.backup');
    expect(output).toMatch(/items\[1\]\.quota\.value/);
    expect(output).toMatch(/items\[1\]\.quota\.overage/);
    expect(output).toMatch(/items\[2\]\.seats/);
    expect(output).toMatch(/roles\[0\]\.role_id/);
    expect(world.requests.length).toBe(before);
  });

  it('the JSON-string form of an earlier version is refused with what to write instead', async () => {
    const old = config({ storage: 200, roles: ['company_admin'] }) as { resource: Record<string, Record<string, Record<string, unknown>>> };
    old.resource.tenantform_offering_items.backup.items = JSON.stringify([{ name: 'storage' }]);
    writeConfig(world, old);
    const plan = await tenantform('plan');
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain('remove `jsonencode(...)` or `JSON.stringify(...)`');
  });
});
