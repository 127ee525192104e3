/**
 * The http backend on a runner whose only way out is a forward proxy: the state servers' names
 * (`state.test`, `secure-state.test`) resolve nowhere but in the proxy, so the state is kept only
 * when the backend goes through HTTP_PROXY (with the request's absolute URL, as Terraform sends
 * plain http) or HTTPS_PROXY (a CONNECT tunnel, the server's certificate trusted through
 * SSL_CERT_FILE). The platform is on loopback, which is never proxied.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from '../cli/helpers';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy';
import { gitlabBackend, startHttpStateServer, type HttpStateServer } from '../helpers/http-state-server';
import { createTestAuthority, type TestAuthority } from '../helpers/test-authority';

describe('http backend through a proxy', () => {
  let world: World;
  let server: HttpStateServer;
  let secure: HttpStateServer;
  let proxy: ForwardProxy;
  let keys: string;
  let authority: TestAuthority;
  beforeAll(async () => {
    keys = mkdtempSync(join(tmpdir(), 'tenantform-state-authority-'));
    authority = createTestAuthority(keys, ['secure-state.test']);
    [world, server, secure] = await Promise.all([startWorld(), startHttpStateServer(), startHttpStateServer(undefined, undefined, authority)]);
    proxy = await startForwardProxy({ hosts: { 'state.test:80': new URL(server.url).host, 'secure-state.test:443': new URL(secure.url).host } });
  });
  afterAll(async () => {
    await proxy.close();
    await world.close();
    await server.close();
    await secure.close();
    rmSync(keys, { recursive: true, force: true });
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

  const secureConfig = () =>
    writeConfig(
      world,
      {
        ...configWith({ tenantform_infra_component: { site: infra('Secure State Site') } }),
        terraform: { backend: { http: { ...gitlabBackend(secure, 'secure', 'https://secure-state.test'), retry_max: 0 } } },
      },
      'secure.tf.json',
    );
  const secureAuth = () => ({ TF_HTTP_USERNAME: secure.username, TF_HTTP_PASSWORD: secure.password, HTTPS_PROXY: proxy.url });

  it('keeps the state on an https server through HTTPS_PROXY, trusting its authority through SSL_CERT_FILE', async () => {
    proxy.forwarded.length = 0;
    const r = await run(world, ['apply', '--config', secureConfig(), '--auto-approve'], { ...secureAuth(), SSL_CERT_FILE: authority.caFile });
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
    const state = JSON.parse(secure.state('secure') ?? '{}') as { resources: { name: string }[] };
    expect(state.resources.map((x) => x.name)).toContain('site');
    expect(new Set(proxy.forwarded)).toEqual(new Set(['CONNECT secure-state.test:443']));
  });

  it('names the state server whose certificate is not trusted, and the variables that fix it, without retrying', async () => {
    const r = await run(world, ['plan', '--config', secureConfig()], secureAuth());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: The certificate of secure-state.test is not trusted: It is signed by an authority this machine does not trust');
    expect(r.stderr).toMatch(/SSL_CERT_FILE[\s\S]*SSL_CERT_DIR[\s\S]*NODE_EXTRA_CA_CERTS/);
    expect(r.stdout + r.stderr).not.toContain(secure.password);
  });

  it('names the proxy that refuses to connect to the state server', async () => {
    const refusing = await startForwardProxy({ hosts: {}, refuseWith: 403 });
    try {
      const r = await run(world, ['plan', '--config', secureConfig()], { ...secureAuth(), HTTPS_PROXY: refusing.url, SSL_CERT_FILE: authority.caFile });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `Error: Cannot connect through the proxy ${refusing.url}: It answered 403 when asked to connect to secure-state.test; nothing was sent through it.`,
      );
      expect(r.stderr).not.toContain('Running again may succeed');
    } finally {
      await refusing.close();
    }
  });
});
