/**
 * Shared set-up of the provider suites: a fresh build of dist/ (the provider runs compiled,
 * as Terraform launches it), the real `terraform` binary, and a check that no provider
 * process outlives a command.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator';

export const ROOT = join(__dirname, '..', '..');
export const PROVIDER_MAIN = join(ROOT, 'dist', 'provider', 'main.js');

/** The head of a test configuration in HCL: tenantform's provider, its credentials from TENANTFORM_* in the environment. */
export const PROVIDER_HCL = `
terraform {
  required_providers {
    tenantform = { source = "tenantform/tenantform" }
  }
}

provider "tenantform" {}
`;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function builtAt(): number {
  try {
    return statSync(PROVIDER_MAIN).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Whether a source the provider runs is newer than its build. Only those sources count: a
 * rebuild rewrites all of dist/, which other suites of a full run are using (`npm test`
 * builds before the run, so there this is false).
 */
function stale(): boolean {
  const built = builtAt();
  return (
    ['src/provider', 'src/resources', 'src/api', 'src/network'].some((dir) => newestSource(join(ROOT, dir)) > built) ||
    ['src/errors.ts', 'src/diagnostics.ts'].some((file) => statSync(join(ROOT, file)).mtimeMs > built)
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Compiles src/ into dist/ (`tsc -p tsconfig.build.json`) when the provider's build is stale.
 * Suites run in parallel workers, so one builds while the others wait on a lock directory.
 */
export async function ensureBuilt(): Promise<void> {
  if (!stale()) return;
  const lock = join(tmpdir(), `tenantform-build-${Buffer.from(ROOT).toString('hex').slice(-24)}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) rmSync(lock, { recursive: true, force: true });
      await sleep(250);
    }
  }
  try {
    if (!stale()) return;
    await new Promise<void>((resolve) => {
      // Type errors elsewhere in the project still emit JavaScript; only a missing output fails.
      execFile(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT }, () =>
        resolve(),
      );
    });
    if (builtAt() === 0) throw new Error('The build did not produce dist/provider/main.js');
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Fails with a clear message when `terraform` is not on PATH. */
export function requireTerraform(): string {
  const r = spawnSync('terraform', ['version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) {
    throw new Error('These tests drive the real `terraform` binary (1.11 or newer), which is not on PATH. Install Terraform to run them.');
  }
  return r.stdout.split('\n')[0];
}

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr together, for assertions that do not care which. */
  readonly output: string;
}

/** Runs a command without blocking this process (the emulator answers from it). */
export function run(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; started?: (pid: number) => void }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) opts.started?.(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr, output: `${stdout}\n${stderr}` }));
  });
}

/**
 * Running provider processes of this checkout (pid and command line). With a marker, only
 * those whose environment holds it: suites run in parallel, each marks its own launches.
 */
export function providerProcesses(marker?: string): string[] {
  const r = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return r.stdout
    .split('\n')
    .filter((line) => line.includes(PROVIDER_MAIN))
    .map((line) => line.trim())
    .filter((line) => {
      if (!marker) return true;
      try {
        return readFileSync(`/proc/${line.split(/\s+/)[0]}/environ`, 'utf8').includes(marker);
      } catch {
        // Gone meanwhile, or no /proc: a process that is gone is not left over.
        return existsSync('/proc') ? false : true;
      }
    });
}

/** Waits briefly for provider processes to finish exiting; returns those still there. */
export async function leftoverProviders(marker?: string): Promise<string[]> {
  for (let i = 0; i < 20; i++) {
    if (providerProcesses(marker).length === 0) return [];
    await sleep(100);
  }
  return providerProcesses(marker);
}

/**
 * Installs the provider into `<dir>/mirror` with the CLI, as a user would, and returns the
 * environment Terraform runs with: the mirror's CLI configuration, the emulator's
 * credentials, and a marker that finds this run's provider processes.
 */
export async function terraformEnvironment(
  dir: string,
  emulator: { url: string; clientId: string; clientSecret: string },
  marker: string,
): Promise<NodeJS.ProcessEnv> {
  const install = await run(process.execPath, [join(ROOT, 'bin', 'tenantform.js'), 'provider', 'install', '--dir', join(dir, 'mirror'), '--print-cli-config'], {
    cwd: dir,
    env: process.env,
  });
  if (install.code !== 0) throw new Error(`provider install failed:\n${install.output}`);
  writeFileSync(join(dir, 'cli.tfrc'), install.stdout);
  return {
    PATH: process.env.PATH,
    HOME: join(dir, 'home'),
    TF_CLI_CONFIG_FILE: join(dir, 'cli.tfrc'),
    TF_IN_AUTOMATION: '1',
    CHECKPOINT_DISABLE: '1',
    TENANTFORM_BASE_URL: emulator.url,
    TENANTFORM_CLIENT_ID: emulator.clientId,
    TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
    TENANTFORM_PROVIDER_TEST_RUN: marker,
  };
}

export interface TerraformFolder {
  readonly dir: string;
  /** Runs `terraform` in the folder, then checks that none of its provider processes is left. */
  terraform(...args: string[]): Promise<RunResult>;
  remove(): void;
}

/** A temporary folder Terraform runs in against `emulator`, with the provider installed as a user installs it. */
export async function terraformFolder(name: string, emulator: Parameters<typeof terraformEnvironment>[1]): Promise<TerraformFolder> {
  const marker = `${process.pid}-${Date.now()}-${name}`;
  const dir = mkdtempSync(join(tmpdir(), `tenantform-${name}-`));
  const env = await terraformEnvironment(dir, emulator, marker);
  return {
    dir,
    terraform: async (...args) => {
      const r = await run('terraform', args, { cwd: dir, env });
      expect(await leftoverProviders(marker)).toEqual([]);
      return r;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A stack for terraform against the emulator: the emulator, its folder, and terraform's environment. */
export interface TerraformStack {
  readonly emulator: RunningEmulator;
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** In the environment of this stack's provider processes (see `providerProcesses`). */
  readonly marker: string;
}

/**
 * Before the calling file's tests: the emulator on port 0 (its log lines to `log`), a folder
 * holding `mainTf`, the provider installed for it, and `terraform init` run there; all of it
 * closed after them.
 */
export function useTerraformStack(opts: { name: string; seed: number; mainTf: string; log?: (line: string) => void }): TerraformStack {
  // Filled in before the tests run; they read it then.
  const held = { marker: `${process.pid}-${Date.now()}-${opts.name}` } as { -readonly [K in keyof TerraformStack]: TerraformStack[K] };
  beforeAll(async () => {
    requireTerraform();
    await ensureBuilt();
    held.emulator = await startEmulator({ port: 0, seed: opts.seed, ...(opts.log ? { log: opts.log } : {}) });
    held.dir = mkdtempSync(join(tmpdir(), `tenantform-${opts.name}-`));
    held.env = await terraformEnvironment(held.dir, held.emulator, held.marker);
    writeFileSync(join(held.dir, 'main.tf'), opts.mainTf);
    const init = await run('terraform', ['init', '-input=false', '-no-color'], { cwd: held.dir, env: held.env });
    if (init.code !== 0) throw new Error(init.output);
  });
  afterAll(async () => {
    await held.emulator?.close();
    if (held.dir) rmSync(held.dir, { recursive: true, force: true });
  });
  return held;
}

/** `count` infrastructure components named `<prefix> <index>` owned by the tenant `owner` (an HCL expression). */
export function infraComponentsHcl(label: string, count: number, owner: string, prefix: string): string {
  const slug = prefix.toLowerCase();
  return `
resource "tenantform_infra_component" "${label}" {
  count           = ${count}
  owner_tenant_id = ${owner}
  name            = "${prefix} \${count.index}"
  url             = "https://${slug}-\${count.index}.example.com"
  capabilities    = ["backup"]
  location_id     = "11111111-2222-4333-8444-555555555555"
}
`;
}
