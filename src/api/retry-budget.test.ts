/**
 * Retries bounded by time: a platform that is away for a moment (a restart) or refuses the
 * connection is waited for within the budget, whatever the method; a proxy's 5xx to a POST
 * is not repeated.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../emulator';
import { PlatformClient, PlatformError } from './index';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

test('an emulator restart of 1.5 s: reads and non-idempotent creates wait for it within the default budget', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-restart-'));
  dirs.push(dir);
  const dataFile = join(dir, 'world.json');
  const first = await startEmulator({ port: 0, seed: 3, dataFile });
  const port = Number(new URL(first.url).port);
  const client = new PlatformClient({ baseUrl: first.url, clientId: first.clientId, clientSecret: first.clientSecret });
  try {
    await client.listApplications(); // the token is obtained before the restart
    await first.close();
    const back = new Promise<Awaited<ReturnType<typeof startEmulator>>>((resolve) =>
      setTimeout(() => resolve(startEmulator({ port, seed: 3, dataFile })), 1500),
    );
    const [apps, created] = await Promise.all([
      client.listApplications(),
      client.createReport({
        result_action: 'save',
        recipients: [],
        parameters: { tenant_id: first.tenantId, kind: 'usage_current', level: 'itself' },
        schedule: { type: 'once' },
      }),
    ]);
    expect(apps.length).toBeGreaterThan(0);
    expect((await client.getReport(created.id)).id).toBe(created.id);
    // Refused connections were repeated: exactly one report exists.
    expect((await client.listTenantReports(first.tenantId)).filter((id) => id === created.id)).toHaveLength(1);
    await (await back).close();
  } finally {
    await client.close();
  }
});

test('a refused connection is repeated until the time budget is spent, not only a number of times', async () => {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((r) => server.close(() => r()));
  const client = new PlatformClient({
    baseUrl: `http://127.0.0.1:${port}`,
    clientId: 'c',
    clientSecret: 's',
    retry: { maxElapsedMs: 1_200, baseDelayMs: 50, maxDelayMs: 200 },
  });
  const started = Date.now();
  const e = await client.listApplications().catch((err: unknown) => err);
  await client.close();
  expect(e).toBeInstanceOf(PlatformError);
  expect(e).toMatchObject({ code: 'connection_refused', notProcessed: true, notRetried: 'max_elapsed' });
  expect((e as PlatformError).attempts).toBeGreaterThan(5);
  expect(Date.now() - started).toBeGreaterThanOrEqual(600);
});

test("a 5xx that is not the platform's answer (a proxy's page) to a POST is not repeated: it may follow work done", async () => {
  let posts = 0;
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/idp/token')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 't', token_type: 'bearer', expires_on: Math.floor(Date.now() / 1000) + 3600 }));
      return;
    }
    posts++;
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end('<html>Bad gateway</html>');
  });
  const port = await listen(server);
  const client = new PlatformClient({ baseUrl: `http://127.0.0.1:${port}`, clientId: 'c', clientSecret: 's', retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  try {
    const e = await client
      .createReport({
        result_action: 'save',
        recipients: [],
        parameters: { tenant_id: 't', kind: 'usage_current', level: 'itself' },
        schedule: { type: 'once' },
      })
      .catch((err: unknown) => err);
    expect(e).toMatchObject({ status: 502, notProcessed: false, notRetried: 'not_idempotent', attempts: 1 });
    expect(posts).toBe(1);
  } finally {
    await client.close();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
