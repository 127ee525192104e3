/**
 * Shared set-up of the release suites: the single executable built once for the sources as they
 * are (kept in a cache folder keyed by their hash, as building takes seconds), a throwaway
 * signing key in a GNUPGHOME of its own, and the release layout served as static files over
 * HTTPS on loopback.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize, sep } from 'node:path';
import { buildExecutables } from '../../scripts/release/build';
import { defaultCacheDir, ROOT } from '../../scripts/release/tools';
import { createServerIdentity } from '../../src/provider/tls';

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, out);
    else if (!entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

/** A hash of what the executable is built from: the sources, the build, the locked packages and this Node. */
function inputsHash(): string {
  const hash = createHash('sha256').update(`${process.versions.node}\n`);
  const files = [
    ...filesUnder(join(ROOT, 'src')),
    ...filesUnder(join(ROOT, 'scripts', 'release')),
    join(ROOT, 'package-lock.json'),
    join(ROOT, 'package.json'),
  ];
  for (const file of files.sort()) hash.update(`${file.slice(ROOT.length)}\n`).update(readFileSync(file));
  return hash.digest('hex').slice(0, 24);
}

/** A day: builds of other sources older than that (about 100 MB each) are removed before a new one is made. */
const KEEP_MS = 24 * 3600_000;

function pruneOlderBuilds(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (Date.now() - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * The single executable for each platform, built from the sources as they are, or taken from the
 * cache when a build of the same sources is there. Returns their paths by platform.
 */
export async function cachedExecutables(platforms: readonly string[]): Promise<Map<string, string>> {
  const cacheDir = defaultCacheDir();
  const key = inputsHash();
  const found = new Map<string, string>();
  const missing: string[] = [];
  for (const platform of platforms) {
    const path = join(cacheDir, 'executables', key, platform, 'tenantform');
    if (existsSync(path)) found.set(platform, path);
    else missing.push(platform);
  }
  if (missing.length === 0) return found;
  pruneOlderBuilds(join(cacheDir, 'executables'));
  const workDir = mkdtempSync(join(tmpdir(), 'tenantform-release-test-'));
  try {
    const built = await buildExecutables({ platforms: missing, workDir, cacheDir });
    for (const [platform, path] of built) {
      const target = join(cacheDir, 'executables', key, platform);
      mkdirSync(join(target, '..'), { recursive: true });
      try {
        renameSync(join(path, '..'), target);
      } catch {
        // Another run built it meanwhile: theirs is as good.
      }
      found.set(platform, join(target, 'tenantform'));
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  return found;
}

/** A throwaway signing key (with `passphrase`, or none) in a GNUPGHOME of its own, for the environment gpg runs with. */
export function throwawayKeyring(passphrase = ''): { env: NodeJS.ProcessEnv; fingerprint: string; close: () => void } {
  const home = mkdtempSync(join(tmpdir(), 'tf-gpg-'));
  const env = { ...process.env, GNUPGHOME: home };
  // The agent keeps no passphrase: each signature needs the one it is given.
  writeFileSync(join(home, 'gpg-agent.conf'), 'default-cache-ttl 0\nmax-cache-ttl 0\n');
  execFileSync(
    'gpg',
    [
      '--batch',
      '--pinentry-mode',
      'loopback',
      '--passphrase',
      passphrase,
      '--quick-gen-key',
      'tenantform release test <release@tenantform.invalid>',
      'ed25519',
      'sign',
      'never',
    ],
    {
      env,
      stdio: 'ignore',
    },
  );
  const listing = execFileSync('gpg', ['--batch', '--with-colons', '--list-secret-keys'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const fingerprint = listing
    .split('\n')
    .find((l) => l.startsWith('fpr:'))
    ?.split(':')[9];
  if (!fingerprint) throw new Error(`gpg made no key:\n${listing}`);
  return {
    env,
    fingerprint,
    close: () => {
      // gpg started an agent for this home: it ends with it.
      execFileSync('gpgconf', ['--kill', 'gpg-agent'], { env, stdio: 'ignore' });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface ServedRelease {
  /** `https://localhost:<port>/` */
  readonly url: string;
  /** `localhost:<port>`: the registry host of a provider source address. */
  readonly host: string;
  /** The server's certificate, which Terraform trusts through SSL_CERT_FILE. */
  readonly certificatePem: string;
  /** Bodies served instead of a file's, by URL path. */
  readonly replaced: Map<string, Buffer>;
  /** The URL paths asked for, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Serves `dir` as static files over HTTPS on loopback. */
export async function serveRelease(dir: string): Promise<ServedRelease> {
  const identity = createServerIdentity();
  const replaced = new Map<string, Buffer>();
  const requests: string[] = [];
  const server: Server = createServer({ cert: identity.certificatePem, key: identity.privateKeyPem }, (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'https://localhost').pathname);
    requests.push(path);
    const file = normalize(join(dir, path));
    const body = replaced.get(path) ?? (file.startsWith(dir + sep) && existsSync(file) && statSync(file).isFile() ? readFileSync(file) : undefined);
    if (req.method !== 'GET' || body === undefined) {
      res.writeHead(req.method !== 'GET' ? 405 : 404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': path.endsWith('.zip') ? 'application/zip' : /SHA256SUMS|\.sig$/.test(path) ? 'application/octet-stream' : 'application/json',
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}/`,
    host: `localhost:${port}`,
    certificatePem: identity.certificatePem,
    replaced,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
