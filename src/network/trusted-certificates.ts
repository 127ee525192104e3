/**
 * The certificate authorities a TLS connection trusts: Node's own, plus those named by
 * `SSL_CERT_FILE` (a PEM file) and `SSL_CERT_DIR` (directories of PEM files, separated by `:`),
 * the variables Terraform and Go providers read for an organisation's authority (a proxy that
 * inspects TLS signs with one).
 *
 * An explicit list of authorities replaces Node's default one, `NODE_EXTRA_CA_CERTS` included,
 * so that file is read here too. Without either variable nothing is read and Node's default
 * applies.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { NetworkSetupError } from './failure';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function reason(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  return err instanceof Error ? err.message : String(err);
}

/** The certificates of one PEM file; a certificate that does not parse is named with its file. */
function certificatesIn(file: string, variable: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new NetworkSetupError({ kind: 'setting', variable, what: `${file} cannot be read (${reason(err)})` });
  }
  const found = text.match(PEM_CERTIFICATE) ?? [];
  for (const pem of found) {
    try {
      new X509Certificate(pem);
    } catch (err) {
      throw new NetworkSetupError({ kind: 'setting', variable, what: `${file} holds a certificate that does not parse (${reason(err)})` });
    }
  }
  return found;
}

function fromFile(env: NodeJS.ProcessEnv, variable: string): string[] {
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

let cached: { key: string; context: SecureContext | undefined } | undefined;

/**
 * The TLS context to connect with, or undefined for Node's default (neither variable set).
 * Built once per set of values: every connection shares it.
 */
export function trustedContext(env: NodeJS.ProcessEnv): SecureContext | undefined {
  const key = JSON.stringify([env.SSL_CERT_FILE, env.SSL_CERT_DIR, env.NODE_EXTRA_CA_CERTS]);
  if (cached?.key === key) return cached.context;
  let context: SecureContext | undefined;
  if (env.SSL_CERT_FILE || env.SSL_CERT_DIR) {
    const ca = [...rootCertificates, ...fromFile(env, 'NODE_EXTRA_CA_CERTS'), ...fromFile(env, 'SSL_CERT_FILE'), ...fromDirectories(env)];
    context = createSecureContext({ ca });
  }
  cached = { key, context };
  return context;
}
