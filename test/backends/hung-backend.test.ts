import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from '../cli/helpers';
import { gitlabBackend, startHttpStateServer, type HttpStateServer } from '../helpers/http-state-server';
import { onRequest } from '../helpers/moments';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres';

/**
 * A state backend that accepts the connection and then never answers: the call fails after
 * TENANTFORM_STATE_TIMEOUT with a message naming the backend and the setting, instead of holding
 * the run (and its lock) without a word; and what the run created is not lost with the write.
 */
describe('a state backend that stops answering in the middle of an apply', () => {
  let world: World;
  let server: HttpStateServer;
  let pg: RunningPostgres;
  beforeAll(async () => {
    [world, server, pg] = await Promise.all([startWorld(), startHttpStateServer(), startPostgres()]);
  });
  afterAll(async () => {
    await server.close();
    await pg.stop();
    await world.close();
  });

  const auth = () => ({ TF_HTTP_USERNAME: server.username, TF_HTTP_PASSWORD: server.password });

  it('fails after the timeout naming the backend, keeps the state in errored.tfstate, and state push puts it in place', async () => {
    const file = writeConfig(
      world,
      {
        ...configWith({ tenantform_infra_component: { site: infra('Hung Site') } }),
        terraform: { backend: { http: { ...gitlabBackend(server, 'hung'), retry_max: 0 } } },
      },
      'hung.tf.json',
    );
    // The backend stops answering once the component exists on the platform: its write is what is lost.
    const stop = onRequest(
      'answer',
      (r) => r.method === 'POST' && r.path === '/api/2/infra',
      1,
      () => server.holdStateWrites(true),
    );
    let failed;
    try {
      failed = await run(world, ['apply', '--config', file, '--auto-approve'], { ...auth(), TENANTFORM_STATE_TIMEOUT: '1s' });
    } finally {
      stop();
      server.holdStateWrites(false);
    }
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Error: The state was not written to its backend');
    expect(failed.stderr).toMatch(
      /POST http:\/\/127\.0\.0\.1:\d+\/api\/v4\/projects\/42\/terraform\/state\/hung: no answer within 1 s \(TENANTFORM_STATE_TIMEOUT sets how long to wait\)/,
    );
    expect(failed.stderr).toContain('run `tenantform state push errored.tfstate`');
    expect(failed.stdout + failed.stderr).not.toContain(server.password);

    const errored = join(world.dir, 'errored.tfstate');
    expect(statSync(errored).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(errored, 'utf8')) as { resources: Array<{ type: string; name: string }> };
    expect(kept.resources.map((r) => `${r.type}.${r.name}`)).toContain('tenantform_infra_component.site');

    expect((await run(world, ['state', 'push', 'errored.tfstate', '--config', file], auth())).code).toBe(0);
    const next = await run(world, ['plan', '--config', file, '--detailed-exitcode'], auth());
    expect(next.code).toBe(0);
    const components = await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')));
    expect(components.filter((c) => c.name === 'Hung Site')).toHaveLength(1);
    expect(existsSync(errored)).toBe(true);
  });

  /**
   * Between tenantform and PostgreSQL: forwards both ways until `freeze`, then drops what the
   * client sends (its queries are never answered) while still passing on a closed connection, so
   * that the server ends the session, and its advisory lock, when the run ends.
   */
  async function freezingProxy(port: number): Promise<{ port: number; freeze(): void; close(): Promise<void> }> {
    let frozen = false;
    const sockets: Socket[] = [];
    const proxy: Server = createServer((client) => {
      const upstream = connect(port, '127.0.0.1');
      sockets.push(client, upstream);
      client.on('data', (chunk) => void (frozen || upstream.write(chunk)));
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.on('error', () => undefined);
      upstream.on('error', () => undefined);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    return {
      port: (proxy.address() as { port: number }).port,
      freeze: () => (frozen = true),
      close: () => {
        for (const s of sockets) s.destroy();
        return new Promise<void>((r) => proxy.close(() => r()));
      },
    };
  }

  it('pg: a query that is never answered fails after the timeout, and errored.tfstate keeps what was created', async () => {
    rmSync(join(world.dir, 'errored.tfstate'), { force: true });
    const url = new URL(await createDatabase(pg, 'hung'));
    const proxy = await freezingProxy(Number(url.port));
    url.port = String(proxy.port);
    const file = writeConfig(
      world,
      { ...configWith({ tenantform_infra_component: { site: infra('Hung Pg Site') } }), terraform: { backend: { pg: { conn_str: url.toString() } } } },
      'hung-pg.tf.json',
    );
    const stop = onRequest(
      'answer',
      (r) => r.method === 'POST' && r.path === '/api/2/infra',
      1,
      () => proxy.freeze(),
    );
    let failed;
    try {
      failed = await run(world, ['apply', '--config', file, '--auto-approve'], { TENANTFORM_STATE_TIMEOUT: '1s' });
    } finally {
      stop();
      await proxy.close();
    }
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Error: The state was not written to its backend');
    expect(failed.stderr).toContain('no answer within 1 s (TENANTFORM_STATE_TIMEOUT sets how long to wait)');
    expect(failed.stdout + failed.stderr).not.toContain(pg.password);
    const kept = JSON.parse(readFileSync(join(world.dir, 'errored.tfstate'), 'utf8')) as { resources: Array<{ type: string; name: string }> };
    expect(kept.resources.map((r) => `${r.type}.${r.name}`)).toContain('tenantform_infra_component.site');

    // Straight to PostgreSQL now: the pushed state plans nothing, and nothing was created twice.
    const direct = writeConfig(
      world,
      {
        ...configWith({ tenantform_infra_component: { site: infra('Hung Pg Site') } }),
        terraform: { backend: { pg: { conn_str: pg.connectionString('hung') } } },
      },
      'hung-pg.tf.json',
    );
    expect((await run(world, ['state', 'push', 'errored.tfstate', '--config', direct])).code).toBe(0);
    expect((await run(world, ['plan', '--config', direct, '--detailed-exitcode'])).code).toBe(0);
    const components = await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')));
    expect(components.filter((c) => c.name === 'Hung Pg Site')).toHaveLength(1);
  });
});
