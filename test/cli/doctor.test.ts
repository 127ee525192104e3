/**
 * `tenantform doctor` as a team runs it first on its account: the command as a process against
 * the emulator, as an MSP's client on its partner, as a partner's client without the alert scope, with a
 * wrong secret, and behind a platform whose user answers differ from the expected shape.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALL_SCOPES } from '../../src/emulator/store';
import { run, startWorld, type World } from './helpers';

describe('tenantform doctor', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
    // A user, so that one is read in full.
    await world.client.createUser({ tenant_id: world.emulator.tenantId, login: 'doctor-user', contact: { email: 'doctor@example.com' } });
  });
  afterAll(() => world.close());

  const clientOn = async (tenantId: string, scopes: readonly string[]) => {
    const res = await fetch(`${world.emulator.url}/_emulator/clients`, { method: 'POST', body: JSON.stringify({ tenant_id: tenantId, scopes }) });
    return (await res.json()) as { client_id: string; client_secret: string };
  };

  it('says tenantform can work with the platform, naming the caller and what each read found', async () => {
    const r = await run(world, ['doctor']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ok {6}Address and credentials: http:\/\/127\.0\.0\.1:\d+ answers as the platform/m);
    expect(r.stdout).toMatch(/^ok {6}The caller's tenant: "Northwind Partner" .*a partner tenant/m);
    for (const check of ['Applications', 'Offering items', 'Users', 'Infrastructure components', 'Usage reports', 'Agents', 'Alerts', 'Event topics']) {
      expect(r.stdout).toMatch(new RegExp(`^ok {6}${check}: `, 'm'));
    }
    expect(r.stdout).toContain('tenantform can work with this platform.');
    expect(r.stdout).not.toContain(world.emulator.clientSecret);
  });

  it("as a partner's client without the alert scopes: its tenant named, alerts a warning naming what is out of reach, still usable", async () => {
    const partner = world.tenant('Northwind Partner');
    const client = await clientOn(
      partner,
      ALL_SCOPES.filter((s) => !s.includes('alert_manager')),
    );
    const r = await run(world, ['doctor', '--format', 'json'], { TENANTFORM_CLIENT_ID: client.client_id, TENANTFORM_CLIENT_SECRET: client.client_secret });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { usable: boolean; findings: Array<{ check: string; status: string; detail: string }> };
    expect(report.usable).toBe(true);
    const byCheck = new Map(report.findings.map((f) => [f.check, f]));
    expect(byCheck.get("The caller's tenant")).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining(`"Northwind Partner" (${partner}), a partner tenant`),
    });
    expect(byCheck.get('Alerts')).toMatchObject({ status: 'warning', detail: expect.stringMatching(/403.*out of reach: `drift --alert`/) });
    expect(r.stdout).not.toContain(client.client_secret);
  });

  it('fails on credentials the platform refuses, before any other check, without printing the secret', async () => {
    const r = await run(world, ['doctor'], { TENANTFORM_CLIENT_SECRET: 'not-the-secret-0123456789' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAILED {2}Address and credentials: /m);
    expect(r.stdout).not.toMatch(/The caller's tenant/);
    expect(r.stdout).toContain('tenantform cannot work with this platform');
    expect(r.stdout + r.stderr).not.toContain('not-the-secret-0123456789');
  });

  it('names every place where an answer differs from the shape tenantform expects', async () => {
    // A platform whose user answers differ: the login a number, `enabled` a string.
    const target = new URL(world.emulator.url);
    const proxy: Server = createServer((req, res) => {
      const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          if (/^\/api\/2\/users\/[0-9a-f-]{36}$/.test(req.url ?? '')) body = JSON.stringify({ ...JSON.parse(body), login: 42, enabled: 'yes' });
          const headers = { ...answer.headers };
          delete headers['content-length'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const r = await run(world, ['doctor'], { TENANTFORM_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^FAILED {2}Users: GET \/api\/2\/users\/\{user_id\} answers in a shape tenantform does not expect$/m);
      expect(r.stdout).toMatch(/^ {10}login: /m);
      expect(r.stdout).toMatch(/^ {10}enabled: /m);
      // The other reads still ran.
      expect(r.stdout).toMatch(/^ok {6}Usage reports: /m);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
