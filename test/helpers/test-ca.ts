/**
 * A certificate authority made for one test run with `openssl`: the CA, certificates it signs
 * for a server (by DNS name and IP address) or for a client (the common name is the
 * PostgreSQL user), and their keys, each a PEM file in `dir`, keys readable by their owner only.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface IssuedCertificate {
  readonly cert: string;
  readonly key: string;
}

export interface TestCa {
  /** The CA's certificate file. */
  readonly cert: string;
  /** A server certificate; `expired` ends a day before it starts, so it is past its end now. */
  server(name: string, altNames: { dns?: readonly string[]; ip?: readonly string[] }, options?: { expired?: boolean }): IssuedCertificate;
  client(commonName: string): IssuedCertificate;
}

const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });

export function makeTestCa(dir: string, name = 'ca'): TestCa {
  mkdirSync(dir, { recursive: true });
  const file = (base: string) => join(dir, base);
  const caKey = file(`${name}.key`);
  const caCert = file(`${name}.crt`);
  openssl(
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'].concat([
      '-subj',
      `/CN=tenantform test ${name}`,
      '-keyout',
      caKey,
      '-out',
      caCert,
    ]),
  );
  chmodSync(caKey, 0o600);

  const issue = (base: string, subject: string, extensions: string, days = '2'): IssuedCertificate => {
    const key = file(`${base}.key`);
    const csr = file(`${base}.csr`);
    const cert = file(`${base}.crt`);
    const ext = file(`${base}.ext`);
    writeFileSync(ext, extensions);
    openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', subject, '-keyout', key, '-out', csr]);
    chmodSync(key, 0o600);
    openssl(['x509', '-req', '-in', csr, '-CA', caCert, '-CAkey', caKey, '-CAcreateserial', '-days', days, '-extfile', ext, '-out', cert]);
    return { cert, key };
  };

  return {
    cert: caCert,
    server: (base, { dns = [], ip = [] }, options = {}) =>
      issue(
        base,
        `/CN=${dns[0] ?? ip[0]}`,
        `subjectAltName=${[...dns.map((d) => `DNS:${d}`), ...ip.map((i) => `IP:${i}`)].join(',')}\nextendedKeyUsage=serverAuth\n`,
        options.expired ? '-1' : '2',
      ),
    client: (commonName) => issue(`client-${commonName}`, `/CN=${commonName}`, 'extendedKeyUsage=clientAuth\n'),
  };
}
