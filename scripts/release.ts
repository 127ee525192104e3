/**
 * `npm run release -- --out <dir>`: builds tenantform's single executable (the command and the
 * Terraform provider in one file, no Node needed where it runs) for each platform, and writes
 * the release layout that serves it as a private registry, a network mirror and a filesystem
 * mirror (scripts/release/layout.ts).
 *
 *   npm run release -- --out release --signing-key <fingerprint> [--platform linux_amd64 --platform linux_arm64]
 *                      [--host registry.example.com] [--namespace tenantform] [--cache <dir>]
 *
 * The key comes from gpg's keyring (GNUPGHOME, or gpg's default); a key with a passphrase takes
 * it from TENANTFORM_SIGNING_PASSPHRASE. Without --signing-key the layout is a network and
 * filesystem mirror only: a registry serves signed checksums.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { terraformPlatform } from '../src/provider/install';
import { buildRelease } from './release/build';
import { gpgSigningKey } from './release/gpg';
import { defaultCacheDir } from './release/tools';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'release' },
      platform: { type: 'string', multiple: true },
      'signing-key': { type: 'string' },
      host: { type: 'string', default: 'registry.terraform.io' },
      namespace: { type: 'string', default: 'tenantform' },
      cache: { type: 'string', default: defaultCacheDir() },
    },
    strict: true,
  });
  const out = resolve(values.out);
  const signingKey = values['signing-key'] !== undefined ? await gpgSigningKey(values['signing-key']) : undefined;
  const workDir = mkdtempSync(join(tmpdir(), 'tenantform-release-'));
  const started = Date.now();
  try {
    const release = await buildRelease({
      out,
      workDir,
      cacheDir: values.cache,
      platforms: values.platform ?? [terraformPlatform()],
      address: { host: values.host, namespace: values.namespace, type: 'tenantform' },
      signingKey,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    for (const p of release.packages) process.stdout.write(`${relative(process.cwd(), join(out, release.packagesDir, p.filename))}  ${p.h1}  zh:${p.shasum}\n`);
    if (!release.signatureFile) process.stderr.write('No --signing-key: the layout serves as a network and filesystem mirror, not as a registry.\n');
    process.stderr.write(`Release written into ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`release: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
