/**
 * `GET /tenants/{id}/applications` is "the applications a tenant has on" in the seeds' records and
 * "the applications available to the tenant" in the vendor's reference. tenantform's binding reads
 * rely on the first reading; these are the consequences under each, as the binding's docs state.
 */
import { call } from '../../src/emulator/testing';
import { configWith, run, startWorld, writeConfig, type World } from './helpers';

const binding = { application_id: '${data.tenantform_application.monitoring.id}', tenant_id: '${data.tenantform_tenant.northwind.id}' };

describe.each([
  ['on', 2],
  ['available', 0],
] as const)('the applications listing read as the applications a tenant has %s', (reading, planAfterRemoval) => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ tenantApplications: reading });
  });
  afterAll(() => world.close());

  const bindingsOf = async (tenantId: string): Promise<string[]> => (await call(world.emulator.url, 'GET', '/_emulator/dump')).json.bindings[tenantId] ?? [];

  it(reading === 'on' ? 'creates the binding, and sees it removed by hand' : 'creates the binding, but cannot see it removed by hand', async () => {
    const northwind = world.tenant('Northwind Partner');
    const monitoring = world.application('monitoring');
    expect(await bindingsOf(northwind)).not.toContain(monitoring);
    const file = writeConfig(world, configWith({ tenantform_application_binding: { monitoring: binding } }));
    const apply = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(apply.code).toBe(0);
    // Created under either reading: the create does not read the listing.
    expect(await bindingsOf(northwind)).toContain(monitoring);

    await world.client.disableApplication(monitoring, northwind);
    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    // Read as "has on", the removal is drift to repair; read as "available", it goes unnoticed.
    expect(plan.code).toBe(planAfterRemoval);
  });
});
