/**
 * A wrong secret, a base URL that is not the platform, damaged state and plan files, a
 * dependency cycle: one clear error on stderr, no plan, nothing sent that could change anything.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

describe('a run that cannot trust what it would read', () => {
  let world: World;
  let other: Server;
  let otherUrl: string;
  beforeAll(async () => {
    world = await startWorld();
    // Some other web server: every path answers 404 with a page of its own.
    other = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => other.close(() => r()));
    await world.close();
  });

  const config = () => writeConfig(world, configWith({ tenantform_infra_component: { primary: infra('Primary') } }));

  it.each([
    ['plan', ['plan']],
    ['apply', ['apply', '--auto-approve']],
    ['drift', ['drift']],
  ])('%s with a wrong secret stops before any plan, with one error on stderr', async (_name, args) => {
    const r = await run(world, [...args, '--config', config()], { TENANTFORM_CLIENT_SECRET: 'not-the-secret' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Error: The platform refused the credentials');
    expect(r.stderr).toContain(`did not accept API client ${world.emulator.clientId}`);
    expect(r.stderr.match(/Error:/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('not-the-secret');
  });

  it.each([
    ['plan', ['plan']],
    ['drift', ['drift']],
  ])('%s against a base URL that is not the platform stops before any plan', async (_name, args) => {
    const r = await run(world, [...args, '--config', config()], { TENANTFORM_BASE_URL: otherUrl });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Error: The base URL does not answer as the platform does');
    expect(r.stderr).toContain('Check TENANTFORM_BASE_URL');
    expect(r.stderr.match(/Error:/g)).toHaveLength(1);
  });

  it.each(['clientSecret', 'secret', 'client_secret '])('a misspelled provider argument %j is named, its value never shown', async (misspelled) => {
    const doc = configWith({});
    doc.provider = { tenantform: [{ [misspelled]: 'DO-NOT-PRINT-THIS-SECRET' }] };
    const r = await run(world, ['plan', '--config', writeConfig(world, doc, 'misspelled.tf.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`"${misspelled}" is not an argument`);
    expect(r.stderr + r.stdout).not.toContain('DO-NOT-PRINT-THIS-SECRET');
  });

  it('refuses plain http to another host, naming where the base URL came from, before any request', async () => {
    world.requests.length = 0;
    const fromEnv = await run(world, ['plan', '--config', config()], { TENANTFORM_BASE_URL: 'http://platform.example.com' });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toContain(
      'Error: Invalid base URL: TENANTFORM_BASE_URL: plain http to platform.example.com would send the client secret and tokens in clear',
    );
    const doc = configWith({ tenantform_infra_component: { primary: infra('Primary') } });
    doc.provider = { tenantform: [{ base_url: 'http://platform.example.com' }] };
    const fromBlock = await run(world, ['plan', '--config', writeConfig(world, doc, 'plain-http.tf.json')]);
    expect(fromBlock.code).toBe(1);
    expect(fromBlock.stderr).toContain('base_url in the provider "tenantform" block: plain http');
    expect(world.requests).toEqual([]);
  });

  it('a damaged state file or plan file: the file and the path inside it, never a TypeError', async () => {
    const file = config();
    writeFileSync(
      join(world.dir, 'broken.tfstate'),
      JSON.stringify({
        version: 4,
        serial: 1,
        lineage: 'l',
        resources: [{ mode: 'managed', type: 'tenantform_infra_component', name: 'primary', instances: [{ schema_version: 0, attributes: { id: null } }] }],
      }),
    );
    const state = await run(world, ['plan', '--config', file, '--state', 'broken.tfstate']);
    expect(state.code).toBe(1);
    expect(state.stderr).toMatch(/Cannot read the state: \S*broken\.tfstate: at resources\[0\]\.instances\[0\]\.attributes\.id/);
    expect(state.stderr).not.toMatch(/TypeError|Cannot read properties/);

    writeFileSync(
      join(world.dir, 'edited.plan'),
      JSON.stringify({ format: 'tenantform-plan', version: 1, plan: { changes: [{ action: 'explode' }] }, data: {} }),
    );
    const plan = await run(world, ['apply', 'edited.plan', '--config', file]);
    expect(plan.code).toBe(1);
    expect(plan.stdout).not.toContain('Apply complete');
    expect(plan.stderr).toContain('Cannot read the plan file: edited.plan: at plan.stack');
    expect(plan.stderr).not.toMatch(/TypeError|Cannot read properties/);
  });

  it.each([
    ['plan', ['plan', '--detailed-exitcode']],
    ['apply', ['apply', '--auto-approve']],
    ['drift', ['drift']],
  ])('%s stops with an error naming the request when the platform answers 1 GiB, never exit 0 without a plan', async (_name, args) => {
    // Between tenantform and the emulator: every read of tenants is answered with 1 GiB, written
    // as the client reads it (never held), so the cap must stop it while it arrives.
    let huge = 0;
    const proxy = createServer((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/api/2/tenants')) {
        huge++;
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let left = 1024;
        const more = (): void => {
          while (left > 0) {
            left--;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end('{}');
        };
        res.on('close', () => (left = 0));
        return more();
      }
      const target = new URL(world.env.TENANTFORM_BASE_URL!);
      const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const r = await run(world, [...args, '--config', config(), '--state', 'huge.tfstate'], { TENANTFORM_BASE_URL: url });
      expect(huge).toBeGreaterThan(0);
      expect(r.code).toBe(1);
      const said = r.stdout + r.stderr;
      expect(said).toContain('data.tenantform_tenant.northwind');
      expect(said).toMatch(/GET \/api\/2\/tenants: no response \(transport\/answer_too_large\): the answer is larger than 64 MiB/);
      expect(said).not.toMatch(/Apply complete|No changes|Plan:|can apply/);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  it('a dependency cycle is an error, not followed by "No changes"', async () => {
    const file = writeConfig(
      world,
      configWith({
        tenantform_infra_component: {
          a: infra('A', { name: '${tenantform_infra_component.b.name}' }),
          b: infra('B', { name: '${tenantform_infra_component.a.name}' }),
        },
      }),
    );
    const r = await run(world, ['plan', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/cycle/i);
    expect(r.stdout).not.toContain('No changes');
  });
});
