import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestCa, type TestCa } from '../../test/helpers/test-ca';
import { pgTls } from './pg-tls';

describe("pg TLS settings, as Terraform's driver takes them", () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-pg-tls-'));
  let ca: TestCa;
  beforeAll(() => {
    ca = makeTestCa(join(dir, 'ca'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const tls = (fields: Record<string, string>, env: NodeJS.ProcessEnv = {}) => pgTls(fields, { HOME: dir, ...env }, 'db.example', dir);

  it('requires TLS without verifying by default; the connection string before PGSSLMODE; disable turns it off', () => {
    expect(tls({})).toMatchObject({ mode: 'require', options: { rejectUnauthorized: false } });
    expect(tls({}, { PGSSLMODE: 'verify-ca' }).mode).toBe('verify-ca');
    expect(tls({ sslmode: 'disable' }, { PGSSLMODE: 'verify-full' })).toEqual({ mode: 'disable', options: false });
  });

  it('refuses the modes lib/pq refuses, naming where the mode came from', () => {
    expect(() => tls({ sslmode: 'prefer' })).toThrow('sslmode: is "prefer"');
    expect(() => tls({}, { PGSSLMODE: 'allow' })).toThrow('PGSSLMODE: is "allow"');
  });

  it('require verifies against a CA file that exists (as verify-ca) and ignores one that does not', () => {
    const verified = tls({ sslmode: 'require', sslrootcert: 'ca/ca.crt' });
    expect(verified).toMatchObject({ mode: 'verify-ca', rootcert: { setting: 'sslrootcert', path: ca.cert }, options: { rejectUnauthorized: true } });
    expect(verified.options && verified.options.ca).toContain('BEGIN CERTIFICATE');
    expect(tls({ sslmode: 'require', sslrootcert: join(dir, 'none.crt') })).toMatchObject({ mode: 'require', rootcert: undefined });
    expect(() => tls({ sslmode: 'verify-ca', sslrootcert: join(dir, 'none.crt') })).toThrow(
      `sslrootcert: ${join(dir, 'none.crt')} cannot be read (no such file)`,
    );
  });

  it("verify-ca checks the chain alone; verify-full checks the connection's host name too", () => {
    const peer = new X509Certificate(readFileSync(ca.server('localhost', { dns: ['localhost'] }).cert)).toLegacyObject();
    const caOnly = tls({ sslmode: 'verify-ca' }, { PGSSLROOTCERT: ca.cert });
    expect(caOnly.rootcert?.setting).toBe('PGSSLROOTCERT');
    expect(caOnly.options && caOnly.options.checkServerIdentity?.('localhost', peer)).toBeUndefined();
    const full = tls({ sslmode: 'verify-full', sslrootcert: ca.cert });
    expect(full.options && full.options.checkServerIdentity?.('localhost', peer)?.message).toContain('db.example');
  });

  it('reads the client certificate and its key, refusing a pair that does not match or a file that is no certificate', () => {
    const a = ca.client('alice');
    const b = ca.client('bob');
    expect(tls({ sslcert: a.cert, sslkey: a.key }).options).toMatchObject({
      cert: expect.stringContaining('CERTIFICATE'),
      key: expect.stringContaining('KEY'),
    });
    expect(() => tls({ sslcert: a.cert, sslkey: b.key })).toThrow(`sslcert and sslkey: ${a.cert} and ${b.key} cannot be used`);
    const notPem = join(dir, 'not.pem');
    writeFileSync(notPem, 'not a certificate');
    expect(() => tls({ sslmode: 'verify-ca', sslrootcert: notPem })).toThrow(`sslrootcert: ${notPem} cannot be used`);
  });
});
