/**
 * The release, from the sources: the single executable for each platform (executable.ts), then
 * the layout that serves it as a registry and as mirrors (layout.ts).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { terraformPlatform } from '../../src/provider/install';
import { bundleExecutable, injectBlob, seaBlob } from './executable';
import { writeRelease, type ProviderAddress, type Release, type SigningKey } from './layout';
import { nodeBinary, postject, ROOT } from './tools';

export interface ExecutablesOptions {
  /** Terraform's names of the target platforms: `linux_amd64`, `linux_arm64`. */
  readonly platforms: readonly string[];
  /** Where the bundle and the executables are written (`<workDir>/<platform>/tenantform`). */
  readonly workDir: string;
  /** Where postject and Node's builds for other platforms are kept between builds. */
  readonly cacheDir: string;
  readonly log?: (line: string) => void;
}

/** Builds the single executable for each platform; returns their paths by platform. */
export async function buildExecutables(opts: ExecutablesOptions): Promise<Map<string, string>> {
  const log = opts.log ?? (() => undefined);
  const bundleDir = join(opts.workDir, 'bundle');
  rmSync(bundleDir, { recursive: true, force: true });
  log('bundling src/executable.ts');
  const blob = await seaBlob(bundleDir, await bundleExecutable(bundleDir));
  const injector = await postject(opts.cacheDir);
  const built = new Map<string, string>();
  for (const platform of opts.platforms) {
    const node = await nodeBinary(platform, process.versions.node, opts.cacheDir, terraformPlatform());
    const output = join(opts.workDir, platform, 'tenantform');
    log(`writing the executable for ${platform} (Node ${process.versions.node})`);
    await injectBlob({ node, blob, output, postject: injector });
    built.set(platform, output);
  }
  return built;
}

export interface ReleaseBuildOptions extends ExecutablesOptions {
  readonly out: string;
  readonly address: ProviderAddress;
  readonly signingKey?: SigningKey;
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Builds the executables, then writes the release layout into `out` (emptied first). */
export async function buildRelease(opts: ReleaseBuildOptions): Promise<Release> {
  const executables = await buildExecutables(opts);
  rmSync(opts.out, { recursive: true, force: true });
  mkdirSync(opts.out, { recursive: true });
  opts.log?.(`writing the release layout into ${opts.out}`);
  return writeRelease({
    out: opts.out,
    address: opts.address,
    version: packageVersion(),
    executables: [...executables].map(([platform, path]) => ({ platform, executable: readFileSync(path) })),
    signingKey: opts.signingKey,
  });
}
