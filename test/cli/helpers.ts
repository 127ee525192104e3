import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PlatformClient } from '../../src/api';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator';
import { onRequest } from '../helpers/moments';
import { runInProcess } from '../helpers/command-in-process';
export { onRequest };

/** The built command: `npm run build` first (CI's `npm test` does). */
export const CLI = join(__dirname, '../../bin/tenantform.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** An emulator started in this process and a temporary directory for configuration and state. */
export interface World {
  readonly emulator: RunningEmulator;
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly client: PlatformClient;
  /** `METHOD /path status` of every request the emulator answered. */
  readonly requests: string[];
  tenant(name: string): string;
  application(type: string): string;
  close(): Promise<void>;
}

/** What running the CLI needs of a world: its folder and its environment. */
export type CliWorld = Pick<World, 'dir' | 'env'>;

export async function startWorld(options: Omit<EmulatorOptions, 'log'> = {}): Promise<World> {
  const requests: string[] = [];
  const emulator = await startEmulator({ port: 0, seed: 7, ...options, log: (line) => requests.push(line) });
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-cli-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    TENANTFORM_BASE_URL: emulator.url,
    TENANTFORM_CLIENT_ID: emulator.clientId,
    TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
  };
  const client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  const world = emulator.world();
  return {
    emulator,
    dir,
    env,
    client,
    requests,
    tenant: (name) => world.tenants[name].id,
    application: (type) => world.applications[type].id,
    close: async () => {
      await client.close();
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts the command; the emulator keeps answering because this process is never blocked. */
export function start(world: CliWorld, args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: world.dir, env: { ...world.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const result = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, result };
}

/** Where a command is interrupted: the `nth` request that `matches`, at its arrival or its answer (see onRequest). */
export interface Moment {
  moment: 'arrival' | 'answer';
  matches: (r: { method: string; path: string }) => boolean;
  nth: number;
}

/** Runs the command and sends it `signal` at a moment the emulator records; `atMoment` runs just before. */
export async function runInterrupted(world: World, args: string[], at: Moment, signal: NodeJS.Signals, atMoment?: () => void): Promise<CliResult> {
  let child: ChildProcess | undefined;
  const stop = onRequest(at.moment, at.matches, at.nth, () => {
    atMoment?.();
    child?.kill(signal);
  });
  try {
    const started = start(world, args);
    child = started.child;
    return await started.result;
  } finally {
    stop();
  }
}

/** Runs the command in this process (see test/helpers/command-in-process.ts): most tests are about what it does, not its process. */
export function run(world: CliWorld, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runInProcess(world.dir, { ...world.env, ...env }, args);
}

/** Runs the built command as a process: for what only a process shows (its exit, its launcher, its start-up). */
export function runProcess(world: CliWorld, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return start(world, args, env).result;
}

/** Writes a Terraform JSON configuration (as cdktf would synthesize it) and returns its file name. */
/** Every file under `dir` (`.terraform/` and the like too), by its path from `dir`. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

export function writeConfig(world: CliWorld, config: unknown, file = 'main.tf.json'): string {
  writeFileSync(join(world.dir, file), JSON.stringify(config, null, 2));
  return file;
}

/** A location id for infrastructure components (the emulator accepts any uuid). */
export const LOCATION_ID = '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f';

export function infra(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    owner_tenant_id: '${data.tenantform_tenant.northwind.id}',
    name,
    url: `https://${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example.com`,
    capabilities: ['backup'],
    location_id: LOCATION_ID,
    ...extra,
  };
}

/** Renames an infrastructure component through the platform's interface, as someone would by hand. */
export async function renameInfraByHand(client: PlatformClient, id: string, name: string): Promise<void> {
  const [live] = await client.getInfra([id]);
  await client.updateInfra(id, { name, location_id: live.location_id!, url: live.url, capabilities: live.capabilities, version: live.version });
}

/** The data sources most configurations use. */
export const COMMON_DATA = {
  tenantform_tenant: {
    northwind: { '//': { metadata: { path: 'stack/northwind' } }, name: 'Northwind Partner' },
    acme: { name: 'Acme Manufacturing', parent_id: '${data.tenantform_tenant.northwind.id}' },
    globex: { name: 'Globex Retail', parent_id: '${data.tenantform_tenant.northwind.id}' },
  },
  tenantform_application: { backup: { type: 'backup' }, monitoring: { type: 'monitoring' } },
};

export function configWith(resources: Record<string, Record<string, unknown>>): Record<string, unknown> {
  // No resources, no `resource` object: Terraform refuses an empty one (Missing block label), and cdktf writes none.
  const resource = Object.keys(resources).length > 0 ? { resource: resources } : {};
  return { '//': { metadata: { backend: 'local' } }, provider: { tenantform: [{}] }, data: COMMON_DATA, ...resource };
}

/** Acme's agents on the stable channel, updated automatically at weekend nights. */
export const ACME_AGENT_UPDATES = {
  tenant_id: '${data.tenantform_tenant.acme.id}',
  update_channel: 'STABLE',
  automatic: true,
  maintenance_window: { time_from: '22:00:00', time_to: '06:00:00', days_of_week: ['SATURDAY', 'SUNDAY'] },
};

/** A monthly usage report and a subscription to tenant events, both of Northwind. */
export const NORTHWIND_REPORT_AND_EVENTS = {
  tenantform_usage_report: {
    monthly: {
      result_action: 'save',
      parameters: { tenant_id: '${data.tenantform_tenant.northwind.id}', kind: 'usage_summary', level: 'accounts', formats: ['csv'] },
      schedule: { type: 'monthly' },
    },
  },
  tenantform_event_subscription: {
    tenant_events: {
      topic_id: 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0',
      types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'],
      tenant_depth: 'ALL',
      tenant_id: '${data.tenantform_tenant.northwind.id}',
    },
  },
};
/**
 * Runs the command on a terminal (a pseudo-terminal from util-linux `script`), typing `answer`
 * at its prompt. stdout and stderr arrive together, as on a screen.
 */
export function runOnTerminal(world: CliWorld, args: string[], answer: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, CLI, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: world.dir, env: { ...world.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdin.end(`${answer}\n`);
  // A terminal ends lines with CR LF.
  const unix = (text: string) => text.replace(/\r\n/g, '\n');
  return new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout: unix(stdout), stderr: unix(stderr) })));
}

/** Synthesizes examples/msp-onboarding into `dir` (what `cdktf synth` does: the app with CDKTF_OUTDIR) and returns the stack file. */
export function synthesizeExample(dir: string): string {
  const root = join(__dirname, '../..');
  const out = join(dir, 'cdktf.out');
  execFileSync(process.execPath, [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'examples/msp-onboarding/main.ts')], {
    cwd: root,
    env: { ...process.env, CDKTF_OUTDIR: out, CHECKPOINT_DISABLE: '1' },
    stdio: 'ignore',
  });
  return join(out, 'stacks/msp-onboarding/cdk.tf.json');
}
