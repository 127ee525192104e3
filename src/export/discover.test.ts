import { PlatformClient } from '../api';
import { startEmulator, type RunningEmulator } from '../emulator';
import { discover } from './discover';

describe('discovering a subtree with the objects a state records', () => {
  let emulator: RunningEmulator;
  let client: PlatformClient;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: 7 });
    client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  });
  afterAll(() => emulator.close());

  it('reads each recorded object once, not once per tenant: an estate records one per customer', async () => {
    const reads = { n: 0 };
    const recorded = Array.from({ length: 50 }, (_, i) => ({
      get type() {
        reads.n++;
        return i % 2 === 0 ? 'tenantform_tenant_setting' : 'tenantform_user';
      },
      attributes: { name: i === 0 ? 'retention_days' : `unused_${i}` },
    }));
    const found = await discover(client, emulator.tenantId, { recorded });
    expect(found.tenants.length).toBe(4); // the partner and its three customers
    expect(reads.n).toBe(recorded.length);
  });
});
