/** Running tenantform and terraform from the benchmarks, and the figures they print. */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeBinAtLeast, PIPELINE_NODE } from '../test/package/pipeline-node';

export const CLI = join(__dirname, '..', 'bin', 'tenantform.js');

/**
 * The Node.js that runs tenantform and its provider: by default the line the pipelines set up
 * (24, with Node's compile cache, which the launcher turns on), fetched from npm where the
 * benchmark runs on an older one; `BENCH_NODE=current` keeps the running one. Set by `chooseNode`.
 */
export let NODE = process.execPath;

/** Picks the Node.js the benchmark runs tenantform with; says which, for its header. */
export async function chooseNode(): Promise<string> {
  if (process.env.BENCH_NODE !== 'current') NODE = join(await nodeBinAtLeast(`${PIPELINE_NODE}.0.0`), 'node');
  const version = spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return `tenantform on Node.js ${version}${NODE === process.execPath ? '' : ` (the pipelines' line; BENCH_NODE=current for ${process.version})`}`;
}

export interface Outcome {
  code: number | null;
  stdout: string;
  output: string;
  ms: number;
}

/** Runs a command without blocking this process (the emulator answers from it). */
export function exec(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      output = (output + c.toString()).slice(-100_000);
    });
    child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-100_000)));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, output, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
  });
}

export function expectCode(o: Outcome, codes: number[], what: string): Outcome {
  if (!codes.includes(o.code ?? -1)) throw new Error(`${what} exited with ${o.code}:\n${o.output.slice(-4000)}`);
  return o;
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/**
 * The least time `requests` can take at `latencyMs` each, `parallelism` at a time: the token
 * request comes first, the rest go in batches.
 */
export const batchingBound = (requests: number, parallelism: number, latencyMs: number): number => (1 + Math.ceil((requests - 1) / parallelism)) * latencyMs;

/**
 * A folder where `terraform` plans `stackDir`'s configuration and state with tenantform's
 * provider (installed into a mirror under `dir`, as users install it offline), initialized;
 * and the environment to run terraform in.
 */
export async function terraformBeside(stackDir: string, dir: string, env: NodeJS.ProcessEnv): Promise<{ cwd: string; env: NodeJS.ProcessEnv }> {
  mkdirSync(dir, { recursive: true });
  const install = expectCode(
    await exec(NODE, [CLI, 'provider', 'install', '--dir', join(dir, 'mirror'), '--print-cli-config'], dir, env),
    [0],
    'provider install',
  );
  writeFileSync(join(dir, 'cli.tfrc'), install.stdout);
  const tfEnv = { ...env, TF_CLI_CONFIG_FILE: join(dir, 'cli.tfrc'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  const cwd = join(dir, 'terraform');
  mkdirSync(cwd, { recursive: true });
  copyFileSync(join(stackDir, 'main.tf.json'), join(cwd, 'main.tf.json'));
  copyFileSync(join(stackDir, 'terraform.tfstate'), join(cwd, 'terraform.tfstate'));
  expectCode(await exec('terraform', ['init', '-input=false', '-no-color'], cwd, tfEnv), [0], 'terraform init');
  return { cwd, env: tfEnv };
}
