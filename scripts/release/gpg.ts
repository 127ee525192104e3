/**
 * Signing with GnuPG: the release's SHA256SUMS get a detached signature by the key the team
 * names (from the keyring of GNUPGHOME, or gpg's default one), and the registry documents carry
 * its public key. A key with a passphrase takes it from TENANTFORM_SIGNING_PASSPHRASE, handed to
 * gpg on a pipe of its own, never on a command line; without it, gpg's agent is asked.
 */
import { spawn } from 'node:child_process';
import type { SigningKey } from './layout';

export const PASSPHRASE_VARIABLE = 'TENANTFORM_SIGNING_PASSPHRASE';

interface Ran {
  readonly code: number;
  readonly stdout: Buffer;
  readonly stderr: string;
}

function gpg(args: string[], opts: { input?: Buffer; passphrase?: string; env: NodeJS.ProcessEnv }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const withPassphrase = opts.passphrase !== undefined ? ['--pinentry-mode', 'loopback', '--passphrase-fd', '3'] : [];
    const child = spawn('gpg', ['--batch', '--no-tty', ...withPassphrase, ...args], { env: opts.env, stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => stdout.push(c));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'ENOENT' ? new Error('gpg (GnuPG) is not on PATH: it signs the release checksums.') : err),
    );
    child.once('close', (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(stdout), stderr }));
    const passphrasePipe = child.stdio[3] as NodeJS.WritableStream;
    if (opts.passphrase !== undefined) passphrasePipe.end(`${opts.passphrase}\n`);
    else passphrasePipe.end();
    child.stdin.end(opts.input);
  });
}

/** The key named by `key` (a fingerprint, key id or user id) of the keyring, ready to sign. */
export async function gpgSigningKey(key: string, env: NodeJS.ProcessEnv = process.env): Promise<SigningKey> {
  const listed = await gpg(['--with-colons', '--list-secret-keys', '--', key], { env });
  if (listed.code !== 0) throw new Error(`gpg has no secret key ${JSON.stringify(key)}: ${listed.stderr.trim()}`);
  const lines = listed.stdout.toString().split('\n');
  const primary = lines.findIndex((l) => l.startsWith('sec:'));
  const fingerprint = lines
    .slice(primary + 1)
    .find((l) => l.startsWith('fpr:'))
    ?.split(':')[9];
  if (primary < 0 || lines.filter((l) => l.startsWith('sec:')).length !== 1 || !fingerprint) {
    throw new Error(`${JSON.stringify(key)} names no single secret key of the keyring: give its fingerprint.`);
  }
  const exported = await gpg(['--armor', '--export', '--', fingerprint], { env });
  if (exported.code !== 0 || exported.stdout.length === 0) throw new Error(`gpg could not export the public key ${fingerprint}: ${exported.stderr.trim()}`);
  const passphrase = env[PASSPHRASE_VARIABLE];
  return {
    keyId: fingerprint.slice(-16).toUpperCase(),
    asciiArmor: exported.stdout.toString(),
    sign: async (data) => {
      const signed = await gpg(['--local-user', fingerprint, '--detach-sign', '--output', '-'], { input: data, passphrase, env });
      // gpg's message names the key and the failure, never the passphrase.
      if (signed.code !== 0) throw new Error(`gpg could not sign with ${fingerprint}: ${signed.stderr.trim()}`);
      return signed.stdout;
    },
  };
}
