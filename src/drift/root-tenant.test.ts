import { PlatformClient } from '../api';
import { startEmulator, type RunningEmulator } from '../emulator';
import { ALL_SCOPES } from '../emulator/store';
import { createClient } from '../emulator/testing';
import { stackRootTenant } from './root-tenant';

describe("the drift alert's tenant", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ seed: 5, account: 'root' }); // stacks across partners meet at the root
  });
  afterAll(() => emulator.close());

  const clientFor = async (tenantName?: string) => {
    const id = tenantName === undefined ? undefined : emulator.world().tenants[tenantName]?.id;
    const c = await createClient(emulator, [...ALL_SCOPES], id);
    return new PlatformClient({ baseUrl: emulator.url, clientId: c.clientId, clientSecret: c.clientSecret });
  };

  it("is the API client's own tenant when the stack names none (no unfiltered tenant listing)", async () => {
    const client = await clientFor('Southridge Partner');
    try {
      expect(await stackRootTenant(client, [])).toBe(emulator.world().tenants['Southridge Partner']?.id);
    } finally {
      await client.close();
    }
  });

  it('is the nearest tenant containing every tenant of the stack', async () => {
    const client = await clientFor();
    const t = emulator.world().tenants;
    try {
      expect(await stackRootTenant(client, [t['Acme Manufacturing'].id, t['Globex Retail'].id])).toBe(t['Northwind Partner']?.id);
      expect(await stackRootTenant(client, [t['Acme Manufacturing'].id, t['Wayne Legal'].id])).toBe(emulator.rootTenantId);
    } finally {
      await client.close();
    }
  });
});
