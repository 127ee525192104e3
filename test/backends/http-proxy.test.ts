/**
 * The http backend on a runner whose only way out is a forward proxy: the state server's name
 * (`state.test`) resolves nowhere but in the proxy, so the state is kept only when the backend
 * goes through HTTP_PROXY (with the request's absolute URL, as Terraform sends plain http).
 * The platform is on loopback, which is never proxied.
 */
import { configWith, infra, run, startWorld, writeConfig, type World } from '../cli/helpers';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy';
import { gitlabBackend, startHttpStateServer, type HttpStateServer } from '../helpers/http-state-server';

describe('http backend through a proxy', () => {
  let world: World;
  let server: HttpStateServer;
  let proxy: ForwardProxy;
  beforeAll(async () => {
    [world, server] = await Promise.all([startWorld(), startHttpStateServer()]);
    proxy = await startForwardProxy({ hosts: { 'state.test:80': new URL(server.url).host } });
  });
  afterAll(async () => {
    await proxy.close();
    await world.close();
    await server.close();
  });

  const env = () => ({ TF_HTTP_USERNAME: server.username, TF_HTTP_PASSWORD: server.password, HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url });
  const config = (name: string) =>
    writeConfig(
      world,
      {
        ...configWith({ tenantform_infra_component: { site: infra('Proxied State Site') } }),
        terraform: { backend: { http: { ...gitlabBackend(server, name, 'http://state.test'), retry_max: 0 } } },
      },
      `${name}.tf.json`,
    );

  it('locks, reads and writes the state through HTTP_PROXY, while the platform on loopback is reached directly', async () => {
    proxy.forwarded.length = 0;
    const r = await run(world, ['apply', '--config', config('proxied'), '--auto-approve'], env());
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(server.password);
    const state = JSON.parse(server.state('proxied') ?? '{}') as { resources: { name: string }[] };
    expect(state.resources.map((x) => x.name)).toContain('site');
    const calls = proxy.forwarded.map((l) => l.replace(/ID=[0-9a-f-]+/, 'ID=<id>'));
    const address = 'http://state.test/api/v4/projects/42/terraform/state/proxied';
    expect(calls[0]).toBe(`POST ${address}/lock`);
    expect(calls).toContain(`GET ${address}`);
    expect(calls).toContain(`POST ${address}?ID=<id>`);
    expect(calls.at(-1)).toBe(`DELETE ${address}/lock`);
    // Nothing else went through the proxy: the platform's requests went straight to loopback.
    expect(calls.every((c) => c.includes('//state.test/'))).toBe(true);
    expect(world.requests.some((l) => l.startsWith('POST /api/2/idp/token 200'))).toBe(true);
  });

  it('goes direct to a NO_PROXY host, where state.test does not resolve, and says so naming the address', async () => {
    proxy.forwarded.length = 0;
    const r = await run(world, ['plan', '--config', config('direct')], { ...env(), NO_PROXY: 'state.test' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: Cannot reach the state backend: http http://state.test/api/v4/projects/42/terraform/state/direct');
    expect(r.stderr).toContain('ENOTFOUND state.test');
    expect(proxy.forwarded).toEqual([]);
  });
});
