/**
 * A CI runner whose only way out is a forward proxy that knows the platform's name: the command
 * reaches the platform through it (HTTPS_PROXY), trusts the platform's certificate through
 * SSL_CERT_FILE or SSL_CERT_DIR, and says which host, which proxy and which variable when a
 * connection fails. `platform.test` resolves nowhere but in the proxy, so a run that does not go
 * through it cannot reach the platform at all.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy';
import { createTestAuthority, type TestAuthority } from '../helpers/test-authority';
import { configWith, infra, run, runProcess, startWorld, writeConfig, type World } from './helpers';

const PROXY_PASSWORD = 'pr0xy-Secret-9';

describe('proxies and certificates', () => {
  let world: World;
  let proxy: ForwardProxy;
  let authority: TestAuthority;
  let keys: string;
  let expiredServer: Server;
  /** The proxy's address with its credentials, as a CI variable holds it. */
  let proxyWithCredentials: string;
  beforeAll(async () => {
    keys = mkdtempSync(join(tmpdir(), 'tenantform-authority-'));
    authority = createTestAuthority(keys, ['platform.test']);
    world = await startWorld({ tls: { key: authority.key, cert: authority.cert } });
    const emulator = new URL(world.emulator.url).host;
    // A server whose certificate expired, signed by the same kind of authority.
    mkdirSync(join(keys, 'expired'));
    const expired = createTestAuthority(join(keys, 'expired'), ['expired.test'], { expired: true });
    expiredServer = createServer({ key: expired.key, cert: expired.cert }, (_req, res) => res.end());
    await new Promise<void>((r) => expiredServer.listen(0, '127.0.0.1', () => r()));
    writeFileSync(join(keys, 'both.pem'), authority.caPem + expired.caPem);
    proxy = await startForwardProxy({
      hosts: {
        'platform.test:443': emulator,
        // Another name for the same server: its certificate does not name it.
        'elsewhere.test:443': emulator,
        'expired.test:443': `127.0.0.1:${(expiredServer.address() as AddressInfo).port}`,
      },
      credentials: `ci:${PROXY_PASSWORD}`,
    });
    proxyWithCredentials = proxy.url.replace('http://', `http://ci:${PROXY_PASSWORD}@`);
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((r) => expiredServer.close(() => r()));
    await world.close();
    rmSync(keys, { recursive: true, force: true });
  });

  /** A configuration and, with `file`, a state of its own: a run left hanging holds no lock the others wait for. */
  const config = (file = 'proxied.tf.json') => writeConfig(world, configWith({ tenantform_infra_component: { proxied: infra('Proxied Site') } }), file);
  const behindProxy = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    TENANTFORM_BASE_URL: 'https://platform.test',
    HTTPS_PROXY: proxyWithCredentials,
    TENANTFORM_RETRY_TIMEOUT: '0',
    ...extra,
  });
  const noSecrets = (r: { stdout: string; stderr: string }): void => {
    expect(r.stdout + r.stderr).not.toContain(PROXY_PASSWORD);
    expect(r.stdout + r.stderr).not.toContain(world.emulator.clientSecret);
  };

  it('plans and applies through the proxy, trusting the authority named by SSL_CERT_FILE', async () => {
    proxy.forwarded.length = 0;
    const file = config();
    const env = behindProxy({ SSL_CERT_FILE: authority.caFile, TF_LOG: 'debug' });
    const plan = await run(world, ['plan', '--config', file], env);
    expect(plan.stderr).not.toMatch(/Error/);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    // The debug log names the proxy, never its credentials.
    expect(plan.stderr).toContain(`connections to https://platform.test go through the proxy ${proxy.url}`);
    const apply = await run(world, ['apply', '--config', file, '--auto-approve'], env);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    const again = await run(world, ['plan', '--config', file, '--detailed-exitcode'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
    for (const r of [plan, apply, again]) noSecrets(r);
    // Every connection went through the proxy, tunnelled, with the proxy's credentials.
    expect(proxy.forwarded.length).toBeGreaterThanOrEqual(3);
    expect(new Set(proxy.forwarded)).toEqual(new Set(['CONNECT platform.test:443']));
    expect(proxy.authorizations.at(-1)).toBe(`Basic ${Buffer.from(`ci:${PROXY_PASSWORD}`).toString('base64')}`);
  });

  it('trusts the authorities of SSL_CERT_DIR, several directories separated by a colon', async () => {
    proxy.forwarded.length = 0;
    const empty = mkdtempSync(join(tmpdir(), 'tenantform-no-certs-'));
    const withCa = mkdtempSync(join(tmpdir(), 'tenantform-certs-'));
    writeFileSync(join(withCa, 'corporate.pem'), authority.caPem);
    writeFileSync(join(withCa, 'README'), 'not a certificate');
    try {
      const r = await run(world, ['plan', '--config', config(), '--detailed-exitcode'], behindProxy({ SSL_CERT_DIR: `${empty}:${withCa}` }));
      expect(r.stderr).not.toMatch(/Error/);
      expect(r.code).toBe(0);
      expect(proxy.forwarded).toContain('CONNECT platform.test:443');
    } finally {
      rmSync(empty, { recursive: true, force: true });
      rmSync(withCa, { recursive: true, force: true });
    }
  });

  it("keeps NODE_EXTRA_CA_CERTS's authority trusted when SSL_CERT_FILE names another", async () => {
    const r = await run(
      world,
      ['plan', '--config', config(), '--detailed-exitcode'],
      behindProxy({ NODE_EXTRA_CA_CERTS: authority.caFile, SSL_CERT_FILE: join(keys, 'expired', 'authority.crt') }),
    );
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.code).toBe(0);
  });

  it('names the host and the variables that fix an untrusted certificate', async () => {
    const r = await run(world, ['plan', '--config', config()], behindProxy());
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Error: The certificate of platform.test is not trusted');
    expect(r.stderr).toContain(
      'It is signed by an authority this machine does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE); nothing was sent to platform.test.',
    );
    expect(r.stderr).toContain(`The connection went through the proxy ${proxy.url}`);
    for (const variable of ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'NODE_EXTRA_CA_CERTS']) expect(r.stderr).toContain(variable);
    expect(r.stderr.match(/Error:/g)).toHaveLength(1);
    noSecrets(r);
  });

  it('names the host whose certificate is for another name, or has expired', async () => {
    const mismatch = await run(
      world,
      ['plan', '--config', config()],
      behindProxy({ TENANTFORM_BASE_URL: 'https://elsewhere.test', SSL_CERT_FILE: authority.caFile }),
    );
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('Error: The certificate of elsewhere.test is not trusted');
    expect(mismatch.stderr).toContain('It is for other host names (ERR_TLS_CERT_ALTNAME_INVALID)');
    const expired = await run(
      world,
      ['plan', '--config', config()],
      behindProxy({ TENANTFORM_BASE_URL: 'https://expired.test', SSL_CERT_FILE: join(keys, 'both.pem') }),
    );
    expect(expired.code).toBe(1);
    expect(expired.stderr).toContain('Error: The certificate of expired.test is not trusted');
    expect(expired.stderr).toContain('It has expired (CERT_HAS_EXPIRED)');
    for (const r of [mismatch, expired]) expect(r.stderr).toContain('SSL_CERT_FILE');
  });

  it('goes direct to a NO_PROXY host, where platform.test does not resolve', async () => {
    proxy.forwarded.length = 0;
    const r = await run(world, ['plan', '--config', config()], behindProxy({ SSL_CERT_FILE: authority.caFile, no_proxy: 'example.com,.test' }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: Cannot reach the platform');
    expect(r.stderr).toContain(
      "https://platform.test could not be reached (POST /api/2/idp/token: no response (transport/host_not_found): the base URL's host name platform.test does not resolve",
    );
    expect(proxy.forwarded).toEqual([]);
    // A name that does not exist is not tried again for the retry budget: one attempt, failed at once.
    expect(r.stderr).not.toMatch(/gave up after/);
  });

  it('names the proxy, never its credentials, when it refuses them', async () => {
    const wrong = proxy.url.replace('http://', 'http://ci:not-the-password@');
    const r = await run(world, ['plan', '--config', config()], behindProxy({ HTTPS_PROXY: wrong, SSL_CERT_FILE: authority.caFile }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: Cannot connect through the proxy ${proxy.url}: It requires credentials and accepted none it was given (407)`);
    expect(r.stderr).not.toContain('not-the-password');
  });

  it('names the proxy that cannot be reached, and a proxy variable that is not a URL', async () => {
    const closed = await startForwardProxy({ hosts: {} });
    await closed.close();
    const unreachable = await run(world, ['plan', '--config', config()], behindProxy({ HTTPS_PROXY: closed.url.replace('http://', 'http://ci:hidden-pass@') }));
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toContain(
      `Error: Cannot connect through the proxy ${closed.url}: It cannot be reached (ECONNREFUSED); nothing was sent through it.`,
    );
    expect(unreachable.stderr).not.toContain('hidden-pass');
    const bogus = await run(world, ['plan', '--config', config()], behindProxy({ HTTPS_PROXY: 'http://ci:hidden-pass@[proxy' }));
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toContain(
      'Error: HTTPS_PROXY cannot be used: Its value is not a URL (such as http://proxy.example.com:3128). Correct or unset HTTPS_PROXY',
    );
    expect(bogus.stderr).not.toContain('hidden-pass');
  });

  it.each([
    ['plain text', 'hello, this is a web page\n'],
    ['a web page, as if connected', 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello, this is a web page\n'],
  ])('names the proxy that answers %s, never its credentials', async (_, answer) => {
    const notProxy = createNetServer((socket) => socket.once('data', () => socket.end(answer)));
    await new Promise<void>((r) => notProxy.listen(0, '127.0.0.1', () => r()));
    const address = `http://127.0.0.1:${(notProxy.address() as AddressInfo).port}`;
    try {
      const r = await run(world, ['plan', '--config', config()], behindProxy({ HTTPS_PROXY: address.replace('http://', 'http://ci:hidden-pass@') }));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Error: Cannot connect through the proxy ${address}: It did not answer as a proxy when asked to connect to platform.test`);
      expect(r.stderr).not.toContain('hidden-pass');
    } finally {
      await new Promise<void>((r) => notProxy.close(() => r()));
    }
  });

  it('names SSL_CERT_FILE when the file it names cannot be read', async () => {
    const missing = join(keys, 'missing.pem');
    const r = await run(world, ['plan', '--config', config()], behindProxy({ SSL_CERT_FILE: missing }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: SSL_CERT_FILE cannot be used: ${missing} cannot be read (no such file or directory). Correct or unset SSL_CERT_FILE`);
  });

  it('refuses a device as SSL_CERT_FILE at once, naming the variable and the path, instead of reading it until memory runs out', async () => {
    // A process: what is read until memory runs out ends it.
    const r = await runProcess(world, ['plan', '--config', config('device.tf.json')], behindProxy({ SSL_CERT_FILE: '/dev/zero' }));
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'Error: SSL_CERT_FILE cannot be used: /dev/zero cannot be read: it is a device, not a regular file. Correct or unset SSL_CERT_FILE',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a FIFO as SSL_CERT_FILE at once, where reading it would block the run beyond the reach of SIGTERM', async () => {
    // Nothing ever writes to it: a run that opened it to read would wait forever (the test's timeout fails it).
    const fifo = join(keys, 'authority.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await run(world, ['plan', '--config', config('fifo.tf.json')], behindProxy({ SSL_CERT_FILE: fifo }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: SSL_CERT_FILE cannot be used: ${fifo} cannot be read: it is a FIFO, not a regular file. Correct or unset SSL_CERT_FILE`);
    noSecrets(r);
  });
});
