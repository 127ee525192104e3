/**
 * A certificate authority of the test's own and a server certificate it signs, as an
 * organisation's authority signs its servers' (or its TLS-inspecting proxy's) certificates.
 * `openssl` writes them into `dir`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestAuthority {
  /** The authority's certificate, a PEM file. */
  readonly caFile: string;
  readonly caPem: string;
  /** The server's key and certificate (for `names`), PEM. */
  readonly key: string;
  readonly cert: string;
}

export function createTestAuthority(dir: string, names: readonly string[], options: { expired?: boolean } = {}): TestAuthority {
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { stdio: 'pipe' });
  /** A P-256 key in `key` and a request (or, with -x509, a self-signed certificate) in `out`. */
  const newKey = (key: string, out: string, subject: string, ...extra: string[]): void =>
    openssl('req', ...extra, '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', file(key), '-out', file(out), '-subj', subject);
  newKey('ca.key', 'ca.pem', '/O=tenantform tests/CN=Test Authority', '-x509', '-days', '2');
  newKey('server.key', 'server.csr', `/CN=${names[0]}`);
  writeFileSync(file('server.ext'), `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}\nextendedKeyUsage=serverAuth\n`);
  // An expired certificate: it ends a day before it starts, so it is past its end now.
  const validity = ['-days', options.expired ? '-1' : '2'];
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-extfile',
    file('server.ext'),
    ...validity,
  );
  return {
    caFile: file('ca.pem'),
    caPem: readFileSync(file('ca.pem'), 'utf8'),
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.pem'), 'utf8'),
  };
}
