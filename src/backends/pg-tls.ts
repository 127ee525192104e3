import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { checkServerIdentity, createSecureContext, type ConnectionOptions } from 'node:tls';
import { backendErrors } from './errors';

/** The sslmode values Terraform's driver (lib/pq) accepts; it refuses `allow` and `prefer`. */
const MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
export type SslMode = (typeof MODES)[number];

/** A file a TLS setting names, with the name the user gave it by (a connection string key or a PG* variable). */
export interface TlsFile {
  readonly setting: string;
  readonly path: string;
}

/** How the pg backend secures its connection, and what a failure message needs to say which setting to change. */
export interface PgTls {
  /** What verification is done: `require` with a CA file verifies as `verify-ca` does, as in libpq. */
  readonly mode: SslMode;
  readonly rootcert?: TlsFile;
  readonly cert?: TlsFile;
  readonly key?: TlsFile;
  /** node-postgres' `ssl` option. */
  readonly options: false | ConnectionOptions;
}

const FROM_ENV = { sslmode: 'PGSSLMODE', sslrootcert: 'PGSSLROOTCERT', sslcert: 'PGSSLCERT', sslkey: 'PGSSLKEY' } as const;

/**
 * The TLS settings of a connection string's fields, else of libpq's PG* variables, as
 * Terraform's driver reads them: `sslmode` (default `require`: TLS without verifying the
 * server), `sslrootcert` (the CA; with `require` it turns verification on when the file
 * exists), `sslcert` and `sslkey` (the client certificate, by default
 * `~/.postgresql/postgresql.crt` and `.key` when they exist). Relative paths start at
 * `baseDir`, the folder terraform runs in. Files are read here, so that a setting naming an
 * unreadable file stops the command before anything is sent.
 */
export function pgTls(fields: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv, host: string, baseDir: string): PgTls {
  const named = (key: keyof typeof FROM_ENV): TlsFile | undefined => {
    const value = fields[key] || env[FROM_ENV[key]];
    if (!value) return undefined;
    return { setting: fields[key] ? key : FROM_ENV[key], path: isAbsolute(value) ? value : resolve(baseDir, value) };
  };
  const requested = fields.sslmode || env.PGSSLMODE || 'require';
  if (!(MODES as readonly string[]).includes(requested)) {
    const setting = fields.sslmode ? 'sslmode' : 'PGSSLMODE';
    throw backendErrors.invalidSetting(
      'pg',
      setting,
      `is "${requested}"; Terraform's pg backend accepts disable, require (the default), verify-ca and verify-full`,
    );
  }
  if (requested === 'disable') return { mode: 'disable', options: false };

  const givenRoot = named('sslrootcert');
  // libpq's `require` verifies against a CA file that exists and, without one, does not verify.
  const rootcert = requested === 'require' && givenRoot && !existsSync(givenRoot.path) ? undefined : givenRoot;
  const mode: SslMode = requested === 'require' && rootcert ? 'verify-ca' : (requested as SslMode);
  const { cert, key } = clientCertificate(named('sslcert'), named('sslkey'), join(env.HOME ?? homedir(), '.postgresql'));

  const ca = rootcert ? readTlsFile(rootcert) : undefined;
  if (rootcert && ca) parseCertificate(rootcert, ca);
  const options: ConnectionOptions = {
    rejectUnauthorized: mode !== 'require',
    ...(ca ? { ca } : {}),
    ...(cert && key ? clientPair(cert, key) : {}),
  };
  if (mode === 'verify-ca') options.checkServerIdentity = () => undefined;
  // The name in the connection string, whatever name the socket was opened with.
  if (mode === 'verify-full') options.checkServerIdentity = (_name, peer) => checkServerIdentity(host, peer);
  return { mode, rootcert, cert, key, options };
}

/** The client certificate and its key: the settings, else libpq's files in ~/.postgresql when the certificate is there. */
function clientCertificate(cert: TlsFile | undefined, key: TlsFile | undefined, usualDir: string): { cert?: TlsFile; key?: TlsFile } {
  const usualKey = { setting: 'sslkey', path: join(usualDir, 'postgresql.key') };
  if (cert) return { cert, key: key ?? usualKey };
  const usual = join(usualDir, 'postgresql.crt');
  return existsSync(usual) ? { cert: { setting: 'sslcert', path: usual }, key: key ?? usualKey } : {};
}

function clientPair(cert: TlsFile, key: TlsFile): Pick<ConnectionOptions, 'cert' | 'key'> {
  const pair = { cert: readTlsFile(cert), key: readTlsFile(key, { secret: true }) };
  try {
    createSecureContext(pair);
  } catch (err) {
    throw backendErrors.tlsFileInvalid(`${cert.setting} and ${key.setting}`, `${cert.path} and ${key.path}`, describe(err));
  }
  return pair;
}

function parseCertificate(file: TlsFile, text: string): void {
  try {
    new X509Certificate(text);
  } catch (err) {
    throw backendErrors.tlsFileInvalid(file.setting, file.path, describe(err));
  }
}

/**
 * A file's text. A private key others can read is refused, as libpq and Terraform's driver
 * refuse it: the key is what the server takes as proof of who connects.
 */
function readTlsFile(file: TlsFile, opts: { secret?: boolean } = {}): string {
  let text: string;
  try {
    text = readFileSync(file.path, 'utf8');
  } catch (err) {
    throw backendErrors.tlsFileUnreadable(file.setting, file.path, describe(err));
  }
  if (opts.secret && process.platform !== 'win32') {
    const { uid, mode } = statSync(file.path);
    // Owner-only (0600 or less); a key owned by root may also be readable by its group (0640).
    const allowed = uid === 0 ? 0o640 : 0o600;
    if ((mode & 0o777 & ~allowed) !== 0) throw backendErrors.tlsKeyExposed(file.setting, file.path, (mode & 0o777).toString(8).padStart(4, '0'));
  }
  return text;
}

/** An error's reason without what the file holds: Node's file and TLS errors name codes, never content. */
function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return 'no such file';
  if (e.code === 'EACCES') return 'permission denied';
  if (e.code === 'EISDIR') return 'it is a folder';
  return e.message ?? String(err);
}
