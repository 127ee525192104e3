/**
 * The customer lifecycle under lost answers: each write of a customer's onboarding (tenant,
 * pricing, offering items, user, roles, API client) is processed by the platform and its answer
 * lost. One apply converges, nothing is made twice or left behind, and the next plan is empty.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Arrival } from '../../src/emulator';
import { call } from '../../src/emulator/testing';
import { configWith, run, runInterrupted, startWorld, writeConfig, type World } from './helpers';

const TIB = 2 ** 40;
const STATE = 'terraform.main.tfstate';

/** One customer as an MSP onboards it. */
function customer(name: string, over: { tenant?: Record<string, unknown> } = {}): Record<string, Record<string, unknown>> {
  const key = name.toLowerCase();
  return {
    tenantform_tenant: {
      [key]: {
        parent_id: '${data.tenantform_tenant.northwind.id}',
        kind: 'customer',
        name,
        customer_type: 'small_office',
        pricing_mode: 'production',
        ...over.tenant,
      },
    },
    tenantform_offering_items: {
      [key]: {
        tenant_id: `\${tenantform_tenant.${key}.id}`,
        application_id: '${data.tenantform_application.backup.id}',
        items: [{ name: 'storage', quota: { value: TIB, overage: 0 } }, { name: 'workstations' }],
      },
    },
    tenantform_user: { [key]: { tenant_id: `\${tenantform_tenant.${key}.id}`, login: `${key}-admin`, email: `admin@${key}.example` } },
    tenantform_user_roles: {
      [key]: { user_id: `\${tenantform_user.${key}.id}`, roles: [{ tenant_id: `\${tenantform_tenant.${key}.id}`, role_id: 'company_admin' }] },
    },
    tenantform_api_client: { [key]: { tenant_id: `\${tenantform_tenant.${key}.id}`, data: JSON.stringify({ purpose: 'monitoring' }) } },
  };
}

interface Dump {
  tenants: Array<{ id: string; name: string; parent_id: string | null; deleted_at?: string | null }>;
  users: Array<{ id: string; login: string; tenant_id: string; deleted_at?: string | null }>;
  clients: Array<{ client_id: string; tenant_id: string; origin_id?: string }>;
}

/** The customers declared so far: each test adds its own to the same stack. */
function stack(...customers: Array<Record<string, Record<string, unknown>>>): Record<string, unknown> {
  const resources: Record<string, Record<string, unknown>> = {};
  for (const c of customers) for (const [type, objects] of Object.entries(c)) resources[type] = { ...resources[type], ...objects };
  return configWith(resources);
}

describe('the customer lifecycle under lost answers', () => {
  let world: World;
  const declared: Array<Record<string, Record<string, unknown>>> = [];
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  const dump = async (): Promise<Dump> => (await call(world.emulator.url, 'GET', '/_emulator/dump')).json as Dump;
  const state = () => JSON.parse(readFileSync(join(world.dir, STATE), 'utf8'));

  /** Exactly one tenant, user and client of the customer on the platform, and the state records those. */
  async function expectOneOfEach(name: string): Promise<void> {
    const d = await dump();
    const tenants = d.tenants.filter((t) => t.name === name && !t.deleted_at);
    expect(tenants).toHaveLength(1);
    const tenantId = tenants[0].id;
    expect(d.users.filter((u) => u.login === `${name.toLowerCase()}-admin` && !u.deleted_at)).toHaveLength(1);
    const clients = d.clients.filter((c) => c.tenant_id === tenantId);
    expect(clients).toHaveLength(1);
    const s = state();
    expect(s.tenantform_pending).toBeUndefined();
    const recorded = (type: string) =>
      s.resources.find((r: { type: string; name: string }) => r.type === type && r.name === name.toLowerCase()).instances[0].attributes;
    expect(recorded('tenantform_tenant').id).toBe(tenantId);
    expect(recorded('tenantform_api_client').id).toBe(clients[0].client_id);
    expect(recorded('tenantform_api_client').client_secret).toEqual(expect.any(String));
  }

  async function applyConverges(name: string, lose: (r: Arrival) => boolean, nth = 1): Promise<string> {
    declared.push(customer(name));
    const file = writeConfig(world, stack(...declared));
    world.emulator.loseAnswer(lose, nth);
    const before = world.requests.length;
    const applied = await run(world, ['apply', '--auto-approve', '--config', file]);
    expect(world.requests.slice(before).some((l) => l.includes('answer lost'))).toBe(true);
    expect(applied.stderr).not.toContain('Error');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 5 added, 0 changed, 0 destroyed.');
    await expectOneOfEach(name);
    const again = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
    return applied.stdout + applied.stderr;
  }

  const is = (method: string, pattern: RegExp) => (r: Arrival) => r.method === method && pattern.test(r.path);

  it('a tenant whose create lost its answer is found by its name under its parent and completed', async () => {
    const out = await applyConverges('Contoso', is('POST', /^\/api\/2\/tenants$/));
    expect(out).toContain('its answer was lost; found on the platform and adopted');
    const tenant = (await dump()).tenants.find((t) => t.name === 'Contoso')!;
    const live = await world.client.getTenant(tenant.id);
    expect(live).toMatchObject({ customer_type: 'small_office', pricing_mode: 'production' });
  });

  it('a pricing switch whose answer was lost is repeated into a version conflict: the tenant is read, it holds the plan, and the create is done', async () => {
    await applyConverges('Fabrikam', is('PUT', /^\/api\/2\/tenants\/[^/]+\/pricing$/));
  });

  it('a quota write whose answer was lost meets its own version: read back, it holds the plan', async () => {
    await applyConverges('Tailspin', is('PUT', /^\/api\/2\/tenants\/[^/]+\/offering_items$/));
  });

  it('a user whose create lost its answer is found by its login', async () => {
    await applyConverges('Litware', is('POST', /^\/api\/2\/users$/));
  });

  it('a role set whose answer was lost is written once more to the same set', async () => {
    await applyConverges('Proseware', is('PUT', /^\/api\/2\/users\/[^/]+\/access_policies$/));
  });

  it('an API client whose create lost its answer (and its secret) is deleted and created again, never left behind', async () => {
    await applyConverges('Adatum', is('POST', /^\/api\/2\/clients$/));
  });

  it('a killed run that made an API client: the plan says it is made again, and the apply leaves exactly one', async () => {
    declared.push(customer('Woodgrove'));
    const file = writeConfig(world, stack(...declared));
    const isClientCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/2/clients';
    const crashed = await runInterrupted(
      world,
      ['apply', '--config', file, '--auto-approve'],
      { moment: 'answer', matches: isClientCreate, nth: 1 },
      'SIGKILL',
    );
    expect(crashed.signal).toBe('SIGKILL');
    const tenantId = (await dump()).tenants.find((t) => t.name === 'Woodgrove')!.id;
    expect((await dump()).clients.filter((c) => c.tenant_id === tenantId)).toHaveLength(1);
    const plan = await run(world, ['plan', '--config', file]);
    expect(plan.stdout + plan.stderr).toContain('An interrupted create is made again');
    const resumed = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(resumed.code).toBe(0);
    await expectOneOfEach('Woodgrove');
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a killed run that made a tenant: the next apply adopts it by its name and finishes the customer', async () => {
    declared.push(customer('Fourthcoffee'));
    const file = writeConfig(world, stack(...declared));
    const isTenantCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/2/tenants';
    const crashed = await runInterrupted(
      world,
      ['apply', '--config', file, '--auto-approve'],
      { moment: 'answer', matches: isTenantCreate, nth: 1 },
      'SIGKILL',
    );
    expect(crashed.signal).toBe('SIGKILL');
    expect(state().tenantform_pending).toEqual([expect.objectContaining({ address: 'tenantform_tenant.fourthcoffee' })]);
    const resumed = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(resumed.stdout + resumed.stderr).toContain('Found the object of an interrupted create');
    expect(resumed.code).toBe(0);
    await expectOneOfEach('Fourthcoffee');
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a tenant update whose answer was lost is confirmed by reading the tenant, not reported as a conflict', async () => {
    declared[0] = customer('Contoso', { tenant: { internal_tag: 'gold' } });
    const file = writeConfig(world, stack(...declared));
    world.emulator.loseAnswer(is('PUT', /^\/api\/2\/tenants\/[^/]+$/));
    const applied = await run(world, ['apply', '--auto-approve', '--config', file]);
    expect(applied.stderr).not.toContain('Error');
    expect(applied.stdout).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a tenant name taken after the plan by a tenant this state does not record is an error naming it and the import that adopts it', async () => {
    const config = stack(...declared, {
      tenantform_tenant: { traders: { parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name: 'Northwind Traders' } },
    });
    const file = writeConfig(world, config);
    // The plan finds the name free; someone takes it before the saved plan is applied.
    expect((await run(world, ['plan', '-out=traders.tfplan', '--config', file])).code).toBe(0);
    const existing = await world.client.createTenant({ name: 'Northwind Traders', parent_id: world.tenant('Northwind Partner'), kind: 'customer' });
    const applied = await run(world, ['apply', '--config', file, 'traders.tfplan']);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('An object with this name already exists');
    expect(applied.stderr).toContain(`(id ${existing.id})`);
    expect(applied.stderr).toContain(`import { to = tenantform_tenant.traders, id = "${existing.id}" }`);
    expect(applied.stderr).toContain(`tenantform import tenantform_tenant.traders ${existing.id}`);
  });
});
