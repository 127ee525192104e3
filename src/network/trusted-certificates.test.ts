import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type SecureContext } from 'node:tls';
import { createTestAuthority } from '../../test/helpers/test-authority';
import { describe as describeFailure, NetworkSetupError } from './failure';
import { trustedContext } from './trusted-certificates';

describe('the certificate authorities of SSL_CERT_FILE and SSL_CERT_DIR', () => {
  let dir: string;
  let server: Server;
  let port: number;
  let caFile: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tenantform-trust-'));
    const made = createTestAuthority(dir, ['localhost']);
    caFile = made.caFile;
    server = createServer({ key: made.key, cert: made.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Whether a TLS connection with `context` (Node's default when undefined) trusts the server; else Node's code. */
  const handshake = (context: SecureContext | undefined): Promise<string> =>
    new Promise((resolve) => {
      const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', secureContext: context }, () => {
        socket.end();
        resolve('trusted');
      });
      socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });

  const setupFailure = (env: NodeJS.ProcessEnv): string => {
    try {
      trustedContext(env);
    } catch (err) {
      if (err instanceof NetworkSetupError) return describeFailure(err.failure);
      throw err;
    }
    return 'no failure';
  };

  it("leaves Node's default without either variable, which does not trust the authority", async () => {
    expect(trustedContext({})).toBeUndefined();
    expect(await handshake(undefined)).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('trusts the authority of SSL_CERT_FILE besides the usual ones', async () => {
    expect(await handshake(trustedContext({ SSL_CERT_FILE: caFile }))).toBe('trusted');
  });

  it("trusts the PEM files of SSL_CERT_DIR's directories, passing over files that hold none", async () => {
    const certs = join(dir, 'certs');
    mkdirSync(certs);
    writeFileSync(join(certs, 'corporate.crt'), readFileSync(caFile));
    writeFileSync(join(certs, 'notes.txt'), 'no certificate here');
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(await handshake(trustedContext({ SSL_CERT_DIR: `${empty}:${certs}` }))).toBe('trusted');
    expect(await handshake(trustedContext({ SSL_CERT_DIR: empty }))).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('names the variable and the file that cannot be used', () => {
    const missing = join(dir, 'missing.pem');
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'plain text');
    expect(setupFailure({ SSL_CERT_FILE: missing })).toBe(`SSL_CERT_FILE: ${missing} cannot be read (no such file or directory)`);
    expect(setupFailure({ SSL_CERT_FILE: notPem })).toBe(`SSL_CERT_FILE: ${notPem} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
    expect(setupFailure({ SSL_CERT_DIR: join(dir, 'nowhere') })).toBe(`SSL_CERT_DIR: ${join(dir, 'nowhere')} cannot be read (no such file or directory)`);
  });
});
