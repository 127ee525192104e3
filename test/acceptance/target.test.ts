/** Where the acceptance run may run: it refuses a tenant holding what it did not make, and half a set of variables. */
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { ACCEPTANCE_ENV, openTarget } from './target';

describe('the acceptance run on a data center', () => {
  let emulator: RunningEmulator;

  beforeAll(async () => {
    // Standing in for a data center: named by the variables, as a team names its own.
    emulator = await startEmulator({ port: 0, account: 'msp' });
  });
  afterAll(() => emulator.close());

  const variables = (more: Record<string, string>) => ({
    [ACCEPTANCE_ENV.baseUrl]: emulator.url,
    [ACCEPTANCE_ENV.clientId]: emulator.clientId,
    [ACCEPTANCE_ENV.clientSecret]: emulator.clientSecret,
    ...more,
  });

  it('refuses to start in a tenant that holds anything it did not create, naming what', async () => {
    const acme = emulator.world().tenants['Acme Manufacturing'].id;
    await expect(openTarget(variables({ [ACCEPTANCE_ENV.tenantId]: acme }))).rejects.toThrow(
      new RegExp(`needs a tenant that holds nothing it did not create; ${acme} holds user `),
    );
  });

  it('says which variable is missing', async () => {
    await expect(openTarget({ [ACCEPTANCE_ENV.baseUrl]: emulator.url })).rejects.toThrow(
      /needs TENANTFORM_ACCEPTANCE_CLIENT_ID, TENANTFORM_ACCEPTANCE_CLIENT_SECRET/,
    );
    await expect(openTarget(variables({}))).rejects.toThrow(/Name the partner .*TENANTFORM_ACCEPTANCE_PARTNER_ID/);
  });

  it('creates its customer under the partner named and deletes it afterwards, with what was left in it', async () => {
    const partner = emulator.world().tenants['Northwind Partner'].id;
    const target = await openTarget(variables({ [ACCEPTANCE_ENV.partnerId]: partner }));
    // Something left behind, as a failed run would leave it.
    await target.client.createUser({ tenant_id: target.tenantId, login: `${target.run}-left`, contact: { email: 'left@example.com' } });
    const tenantId = target.tenantId;
    expect(await target.close()).toEqual([]);
    const after = await fetch(`${emulator.url}/_emulator/world`).then((r) => r.json() as Promise<{ tenants: Record<string, { id: string }> }>);
    expect(Object.values(after.tenants).map((t) => t.id)).not.toContain(tenantId);
  });
});
