import { startEmulator, type RunningEmulator } from '../emulator';
import { PlatformClient } from './client';
import { withReadCache } from './read-cache';

describe('withReadCache', () => {
  let emulator: RunningEmulator;
  const requests: string[] = [];
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: 3, log: (line) => requests.push(line.split(' ').slice(0, 2).join(' ')) });
  });
  afterAll(() => emulator.close());

  it('sends a read once, even while the first is in flight; writes always go through', async () => {
    const client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
    const cached = withReadCache(client);
    const tenant = emulator.world().tenants['Northwind Partner'].id;
    requests.length = 0;
    const [a, b] = await Promise.all([cached.listTenantApplications(tenant), cached.listTenantApplications(tenant)]);
    expect(a).toEqual(b);
    await cached.listTenantApplications(tenant);
    await cached.listApplications();
    const app = emulator.world().applications.notary.id;
    await cached.enableApplication(app, tenant);
    await cached.enableApplication(app, tenant);
    expect(requests.filter((r) => !r.includes('/idp/token'))).toEqual([
      `GET /api/2/tenants/${tenant}/applications`,
      'GET /api/2/applications',
      `POST /api/2/applications/${app}/bindings/tenants/${tenant}`,
      `POST /api/2/applications/${app}/bindings/tenants/${tenant}`,
    ]);
    await client.close();
  });

  it('answers every read with the first unreachable error, without trying again', async () => {
    const client = new PlatformClient({ baseUrl: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y', retry: { maxAttempts: 1 } });
    const cached = withReadCache(client);
    const first = await cached.listApplications().catch((e: unknown) => e);
    expect(first).toMatchObject({ status: 0 });
    expect(client.tokensIssued).toBe(0);
    await expect(cached.listTenantApplications('t')).rejects.toBe(first);
    await client.close();
  });
});
