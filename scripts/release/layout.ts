/**
 * The release layout: one folder that serves, as static files, as a private provider registry,
 * as a provider network mirror and as a filesystem mirror (packed layout):
 *
 *   .well-known/terraform.json                               service discovery (providers.v1)
 *   v1/providers/<ns>/<type>/versions                        registry: versions and platforms
 *   v1/providers/<ns>/<type>/<version>/download/<os>/<arch>  registry: the package, its checksums, the signing key
 *   <host>/<ns>/<type>/index.json                            network mirror: versions
 *   <host>/<ns>/<type>/<version>.json                        network mirror: packages with their h1: and zh: hashes
 *   <host>/<ns>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip
 *   <host>/<ns>/<type>/terraform-provider-<type>_<version>_SHA256SUMS (and .sig)
 *
 * The packages, their checksums and the signature sit once, where a filesystem mirror has its
 * packages; the documents name them by relative URLs, so that the folder serves from any host.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { zip } from './zip';

export interface ProviderAddress {
  /** The registry host in the provider's source address (the network mirror's folder): `registry.terraform.io`. */
  readonly host: string;
  readonly namespace: string;
  readonly type: string;
}

export interface PlatformExecutable {
  /** Terraform's name of the platform: `linux_amd64`. */
  readonly platform: string;
  readonly executable: Buffer;
}

export interface SigningKey {
  /** The key's id as the registry protocol names it: the last 16 hex digits of its fingerprint, upper case. */
  readonly keyId: string;
  /** The public key, ASCII-armoured. */
  readonly asciiArmor: string;
  /** A detached binary signature of `data`. */
  sign(data: Buffer): Promise<Buffer>;
}

export interface ReleaseOptions {
  readonly out: string;
  readonly address: ProviderAddress;
  readonly version: string;
  readonly executables: readonly PlatformExecutable[];
  /** Without a key the layout is a network and filesystem mirror only: a registry needs the signature. */
  readonly signingKey?: SigningKey;
}

export interface Package {
  readonly platform: string;
  readonly filename: string;
  /** The zip's SHA-256, hex: the `zh:` hash and the line of SHA256SUMS. */
  readonly shasum: string;
  /** Terraform's hash of the package's contents (`h1:`). */
  readonly h1: string;
}

export interface Release {
  readonly packages: readonly Package[];
  /** The folder of the packages, relative to the layout: `<host>/<ns>/<type>`. */
  readonly packagesDir: string;
  readonly shasumsFile: string;
  readonly signatureFile?: string;
}

/** The provider protocol the executable speaks, as the registry writes it. */
const PROTOCOLS = ['6.0'];

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Terraform's `h1:` hash of a package: SHA-256 over the lines `<SHA-256 of a file>  <its name>\n`
 * of its files in name order (Go's dirhash Hash1), in base64.
 */
export function packageHashV1(files: readonly { name: string; data: Buffer }[]): string {
  const summary = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((f) => `${sha256(f.data)}  ${f.name}\n`)
    .join('');
  return `h1:${createHash('sha256').update(summary).digest('base64')}`;
}

export function executableName(type: string, version: string, platform: string): string {
  return `terraform-provider-${type}_v${version}${platform.startsWith('windows_') ? '.exe' : ''}`;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Writes the layout into `out` and returns what it wrote. */
export async function writeRelease(opts: ReleaseOptions): Promise<Release> {
  const { host, namespace, type } = opts.address;
  const { version } = opts;
  const packagesDir = posix.join(host, namespace, type);
  const packagesPath = join(opts.out, ...packagesDir.split('/'));
  mkdirSync(packagesPath, { recursive: true });

  const packages: Package[] = [];
  for (const { platform, executable } of [...opts.executables].sort((a, b) => a.platform.localeCompare(b.platform))) {
    const name = executableName(type, version, platform);
    const archive = zip([{ name, data: executable, mode: 0o755 }]);
    const filename = `terraform-provider-${type}_${version}_${platform}.zip`;
    writeFileSync(join(packagesPath, filename), archive);
    packages.push({ platform, filename, shasum: sha256(archive), h1: packageHashV1([{ name, data: executable }]) });
  }

  const shasumsFile = `terraform-provider-${type}_${version}_SHA256SUMS`;
  const shasums = Buffer.from(packages.map((p) => `${p.shasum}  ${p.filename}\n`).join(''));
  writeFileSync(join(packagesPath, shasumsFile), shasums);

  // Network mirror: URLs relative to the document that names them.
  writeJson(join(packagesPath, 'index.json'), { versions: { [version]: {} } });
  writeJson(join(packagesPath, `${version}.json`), {
    archives: Object.fromEntries(packages.map((p) => [p.platform, { url: p.filename, hashes: [p.h1, `zh:${p.shasum}`] }])),
  });

  if (!opts.signingKey) return { packages, packagesDir, shasumsFile };

  const signatureFile = `${shasumsFile}.sig`;
  writeFileSync(join(packagesPath, signatureFile), await opts.signingKey.sign(shasums));

  // Registry: discovery, then the versions and one download document per platform.
  writeJson(join(opts.out, '.well-known', 'terraform.json'), { 'providers.v1': '/v1/providers/' });
  const registryDir = join(opts.out, 'v1', 'providers', namespace, type);
  writeJson(join(registryDir, 'versions'), {
    versions: [
      {
        version,
        protocols: PROTOCOLS,
        platforms: packages.map((p) => {
          const [os, arch] = p.platform.split('_');
          return { os, arch };
        }),
      },
    ],
  });
  for (const p of packages) {
    const [os, arch] = p.platform.split('_');
    // The document sits at v1/providers/<ns>/<type>/<version>/download/<os>/<arch>: seven levels below the root.
    const toPackages = `${'../'.repeat(7)}${packagesDir}/`;
    writeJson(join(registryDir, version, 'download', os, arch), {
      protocols: PROTOCOLS,
      os,
      arch,
      filename: p.filename,
      download_url: `${toPackages}${p.filename}`,
      shasums_url: `${toPackages}${shasumsFile}`,
      shasums_signature_url: `${toPackages}${signatureFile}`,
      shasum: p.shasum,
      signing_keys: { gpg_public_keys: [{ key_id: opts.signingKey.keyId, ascii_armor: opts.signingKey.asciiArmor }] },
    });
  }
  return { packages, packagesDir, shasumsFile, signatureFile };
}
