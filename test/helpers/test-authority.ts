/**
 * A certificate authority of the test's own and a server certificate it signs, as an
 * organisation's authority signs its servers' (or its TLS-inspecting proxy's) certificates, as
 * PEM text for servers that take it so (`makeTestCa` writes them into `dir`).
 */
import { readFileSync } from 'node:fs';
import { makeTestCa } from './test-ca';

export interface TestAuthority {
  /** The authority's certificate, a PEM file. */
  readonly caFile: string;
  readonly caPem: string;
  /** The server's key and certificate (for `names`), PEM. */
  readonly key: string;
  readonly cert: string;
}

export function createTestAuthority(dir: string, names: readonly string[], options: { expired?: boolean } = {}): TestAuthority {
  const ca = makeTestCa(dir, 'authority');
  const server = ca.server('server', { dns: names }, options);
  return {
    caFile: ca.cert,
    caPem: readFileSync(ca.cert, 'utf8'),
    key: readFileSync(server.key, 'utf8'),
    cert: readFileSync(server.cert, 'utf8'),
  };
}
