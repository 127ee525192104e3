/**
 * The certificate authorities a TLS connection trusts: Node's own and `NODE_EXTRA_CA_CERTS`,
 * plus those named by `SSL_CERT_FILE` (a PEM file) and `SSL_CERT_DIR` (directories of PEM files,
 * separated by `:`), the variables Terraform and Go providers read for an organisation's
 * authority (a proxy that inspects TLS signs with one). As in Go, a block that is not a
 * certificate is passed over. Without either variable nothing is read.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { InputFileError, readInputFile } from '../input-file';
import { NetworkSetupError } from './failure';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** A PEM certificate's content, whatever its line length. */
const base64Of = (pem: string): string => pem.replace(/-----[A-Z ]+-----|\s+/g, '');

function reason(err: unknown): string {
  // An unreadable input file carries the system's code as its message.
  const code = err instanceof InputFileError ? err.message : (err as { code?: unknown }).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  return err instanceof Error ? err.message : String(err);
}

/** Why `file` was not read: not a regular file or too large, or what the system said. */
function unreadable(file: string, err: unknown): string {
  if (err instanceof InputFileError && err.code !== 'unreadable') return `${file} cannot be read: ${err.message}`;
  return `${file} cannot be read (${reason(err)})`;
}

/**
 * The PEM certificates of one file, read as every input file is: a FIFO or a device such as
 * /dev/zero is refused at once instead of blocking the run (beyond the reach of SIGTERM) or
 * filling its memory.
 */
function certificatesIn(file: string, variable: string): string[] {
  try {
    return readInputFile(file).match(PEM_CERTIFICATE) ?? [];
  } catch (err) {
    throw new NetworkSetupError({ kind: 'setting', variable, what: unreadable(file, err) });
  }
}

function fromFile(env: NodeJS.ProcessEnv, variable: 'SSL_CERT_FILE'): string[] {
  const file = env[variable];
  if (!file) return [];
  const found = certificatesIn(file, variable);
  if (found.length === 0) throw new NetworkSetupError({ kind: 'setting', variable, what: `${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)` });
  return found;
}

/** Every PEM certificate in the directories; files that hold none (hash links to them, keys) are passed over. */
function fromDirectories(env: NodeJS.ProcessEnv): string[] {
  const dirs = (env.SSL_CERT_DIR ?? '').split(':').filter((d) => d !== '');
  const found: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (err) {
      throw new NetworkSetupError({ kind: 'setting', variable: 'SSL_CERT_DIR', what: `${dir} cannot be read (${reason(err)})` });
    }
    for (const name of names.sort()) {
      const file = join(dir, name);
      try {
        if (!statSync(file).isFile()) continue;
      } catch {
        continue; // a dangling link
      }
      found.push(...certificatesIn(file, 'SSL_CERT_DIR'));
    }
  }
  return found;
}

/**
 * Node's default authorities with `extra` added. Adding to the default store costs a tenth of
 * building one from a list (Node parsed its own roots once already), which every launch of the
 * command and of the provider would pay where these variables point at the system's bundle.
 */
function withAuthorities(found: readonly string[]): SecureContext {
  // One of each, and none Node trusts already (a system bundle holds mostly those): each costs a parse.
  const known = new Set(rootCertificates.map(base64Of));
  const extra = new Map<string, string>();
  for (const pem of found) if (!known.has(base64Of(pem))) extra.set(base64Of(pem), pem);
  const context = createSecureContext();
  // Node's native context: its `addCACert` adds to the default authorities (the `ca` option would replace them).
  const native: unknown = Reflect.get(context, 'context');
  const addCACert: unknown = typeof native === 'object' && native !== null ? Reflect.get(native, 'addCACert') : undefined;
  if (typeof addCACert !== 'function') return createSecureContext({ ca: [...rootCertificates, ...extra.values()] });
  for (const pem of extra.values()) addCACert.call(native, pem);
  return context;
}

/**
 * `NODE_EXTRA_CA_CERTS` again: Node adds it to its shared store only, not to the copy a context
 * gets when authorities are added to it. Node has already warned of a file it could not read.
 */
function nodeExtraCertificates(env: NodeJS.ProcessEnv): string[] {
  try {
    return env.NODE_EXTRA_CA_CERTS ? (readInputFile(env.NODE_EXTRA_CA_CERTS).match(PEM_CERTIFICATE) ?? []) : [];
  } catch {
    return [];
  }
}

let cached: { key: string; context: SecureContext | undefined } | undefined;

/**
 * The TLS context to connect with, or undefined for Node's default (neither variable set).
 * Built once per set of values: every connection shares it.
 */
export function trustedContext(env: NodeJS.ProcessEnv): SecureContext | undefined {
  const key = JSON.stringify([env.SSL_CERT_FILE, env.SSL_CERT_DIR, env.NODE_EXTRA_CA_CERTS]);
  if (cached?.key === key) return cached.context;
  const context =
    env.SSL_CERT_FILE || env.SSL_CERT_DIR
      ? withAuthorities([...nodeExtraCertificates(env), ...fromFile(env, 'SSL_CERT_FILE'), ...fromDirectories(env)])
      : undefined;
  cached = { key, context };
  return context;
}
