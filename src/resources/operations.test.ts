import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformClient } from '../api';
import { runOperation } from './operations';

describe('an operation that fails on the platform', () => {
  it('says the platform could not be reached when the connection is refused, not that it answered an error', async () => {
    // A port that was just listened on and closed: nothing accepts there.
    const server = createServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((done) => server.close(() => done()));
    const client = new PlatformClient({ baseUrl: `http://127.0.0.1:${port}`, clientId: 'c', clientSecret: 'not-a-real-secret', retry: { maxAttempts: 1 } });
    try {
      const r = await runOperation('tenantform_tenant.acme', 'reading the object', () => client.getTenant('91bd10dc-703c-44b6-b7a0-2aa91d1446fb'));
      expect(r.value).toBeUndefined();
      expect(r.diagnostics).toHaveLength(1);
      expect(r.diagnostics[0]).toMatchObject({
        severity: 'error',
        address: 'tenantform_tenant.acme',
        summary: 'The platform could not be reached while reading the object',
      });
      expect(JSON.stringify(r.diagnostics)).not.toContain('not-a-real-secret');
    } finally {
      await client.close();
    }
  });
});
