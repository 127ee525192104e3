/**
 * Start-up times of the command and of the Terraform provider. A CI job runs tenantform
 * several times, and Terraform launches the provider several times per command (plan 3,
 * apply 4, destroy 5), so each launch counts. In one run, interleaved so that a busy moment of
 * the machine weighs on all alike, it measures:
 *   - a bare `node -e` printing one line (the floor),
 *   - `tenantform --version` and a small `plan` (10 objects, refreshed from the emulator), each
 *     from two package folders: one with the bundle the package ships, one with the compiled
 *     modules it is made from (see packageFolder): the bundle keeps its place only by launching
 *     faster,
 *   - the same two commands through the single executable (`npm run release`, built here),
 *   - the provider's handshake line (what Terraform waits for before connecting),
 *   - the provider ready: handshake, mutual-TLS connection and the schema answered (what
 *     Terraform waits for before its first real step), then Shutdown; launched by Node from
 *     the package, and as the single executable,
 * and reports the medians, their ratio to bare node, the bundle's ratio to the modules, and the
 * single executable's size. Needs a build (`npm run build`).
 *
 *   npx tsx bench/startup.ts [launches]
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { buildExecutables } from '../scripts/release/build';
import { defaultCacheDir } from '../scripts/release/tools';
import { startEmulator } from '../src/emulator';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../src/provider/handshake';
import { terraformPlatform } from '../src/provider/install';
import { loadProtocol } from '../src/provider/protocol';
import { createServerIdentity, toPem } from '../src/provider/tls';
import { createsStack, terraformJson } from './mix';

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');
const MAIN = join(DIST, 'provider', 'main.js');

/**
 * A package folder as npm installs it, with the CLI in one of two forms: the bundle the package
 * ships (dist/bundle, run by the package's launcher, its source map read when a trace is
 * written), or the compiled modules it is made from (dist/cli, and the folders beside it), run by
 * a launcher of the same shape with Node's source maps on, as the package ran them before.
 */
function packageFolder(parent: string, form: 'bundle' | 'modules'): string {
  const pkg = join(parent, form);
  mkdirSync(join(pkg, 'bin'), { recursive: true });
  mkdirSync(join(pkg, 'dist'));
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  if (form === 'bundle') {
    copyFileSync(join(ROOT, 'bin', 'tenantform.js'), join(pkg, 'bin', 'tenantform.js'));
    symlinkSync(join(DIST, 'bundle'), join(pkg, 'dist', 'bundle'));
  } else {
    // Node runs a module from its real path: the compiled folders beside dist/cli are found there.
    symlinkSync(join(DIST, 'cli'), join(pkg, 'dist', 'cli'));
    writeFileSync(
      join(pkg, 'bin', 'tenantform.js'),
      `const m = require('node:module');
       if (typeof m.enableCompileCache === 'function') m.enableCompileCache();
       process.setSourceMapsEnabled(true);
       require(require('node:path').join(__dirname, '..', 'dist', 'cli', 'main.js')).main(process.argv.slice(2));\n`,
    );
  }
  return pkg;
}
const client = createServerIdentity();
// As Terraform launches it: with a client certificate, so the launch includes the TLS set-up.
const env = {
  ...process.env,
  [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
  PLUGIN_PROTOCOL_VERSIONS: '5,6',
  PLUGIN_CLIENT_CERT: client.certificatePem,
  TF_DISABLE_PLUGIN_TLS: '',
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const protocol = grpc.loadPackageDefinition(loadProtocol()) as any;

const elapsed = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e6;

/** Spawns, waits for the first stdout line, and hands it over with the start time. */
function launch(args: string[], command: string = process.execPath): Promise<{ line: string; started: bigint; child: ReturnType<typeof spawn> }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('\n')) resolve({ line: seen.trim(), started, child });
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!seen.includes('\n')) reject(new Error(`exited with ${code} before printing a line`));
    });
  });
}

const exited = (child: ReturnType<typeof spawn>) => new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));

async function bareNode(): Promise<number> {
  const { started, child } = await launch(['-e', 'process.stdout.write("1\\n")']);
  const ms = elapsed(started);
  await exited(child);
  return ms;
}

/** How a form of tenantform is started: Node on a package folder's launcher, or the single executable itself. */
const starter = (form: string) => (form.endsWith('.js') ? { command: process.execPath, first: [form] } : { command: form, first: [] });

/** The time from spawn to exit of `tenantform` (a package's launcher, or the executable); a failed command fails the run. */
function cli(tenantform: string, args: string[], cwd: string, cliEnv: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const { command, first } = starter(tenantform);
    const child = spawn(command, [...first, ...args], { cwd, env: cliEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const ms = elapsed(started);
      if (code === 0) resolve(ms);
      else reject(new Error(`tenantform ${args.join(' ')} (${tenantform}) exited with ${code}:\n${stderr}`));
    });
  });
}

async function provider(form: string): Promise<{ handshake: number; ready: number }> {
  const { command, first } = starter(form);
  const { line, started, child } = await launch(first, command);
  const handshake = elapsed(started);
  const [, , , address, , certificate] = line.split('|');
  const credentials = grpc.credentials.createSsl(
    Buffer.from(toPem('CERTIFICATE', Buffer.from(certificate, 'base64'))),
    Buffer.from(client.privateKeyPem),
    Buffer.from(client.certificatePem),
  );
  const options = { 'grpc.ssl_target_name_override': 'localhost', 'grpc.default_authority': 'localhost' };
  const stub = new protocol.tfplugin6.Provider(address, credentials, options);
  await new Promise((resolve, reject) => stub.GetProviderSchema({}, (err: Error | null, v: unknown) => (err ? reject(err) : resolve(v))));
  const ready = elapsed(started);
  const controller = new protocol.plugin.GRPCController(address, credentials, options);
  await new Promise((resolve) => controller.Shutdown({}, resolve));
  await exited(child);
  stub.close();
  controller.close();
  return { handshake, ready };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(): Promise<void> {
  const launches = Number(process.argv[2] ?? 10);
  for (const built of [MAIN, join(DIST, 'cli', 'main.js'), join(DIST, 'bundle', 'tenantform.js')]) {
    if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-startup-'));
  const emulator = await startEmulator({ port: 0, seed: 11, log: () => undefined });
  try {
    const platform = terraformPlatform();
    const built = await buildExecutables({ platforms: [platform], workDir: join(dir, 'single-executable'), cacheDir: defaultCacheDir() });
    const executable = built.get(platform)!;
    const forms = {
      bundle: join(packageFolder(dir, 'bundle'), 'bin', 'tenantform.js'),
      modules: join(packageFolder(dir, 'modules'), 'bin', 'tenantform.js'),
      'single executable': executable,
    };
    const providers = { 'node, package': MAIN, 'single executable': executable };
    const cliEnv = {
      PATH: process.env.PATH,
      HOME: dir,
      NO_COLOR: '1',
      TENANTFORM_BASE_URL: emulator.url,
      TENANTFORM_CLIENT_ID: emulator.clientId,
      TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
    };
    const stack = join(dir, 'stack');
    mkdirSync(stack);
    writeFileSync(join(stack, 'main.tf.json'), JSON.stringify(terraformJson(createsStack(emulator, 10))));
    const files = ['--config', 'main.tf.json', '--state', 'terraform.tfstate'];
    await cli(forms.bundle, ['apply', '--auto-approve', ...files], stack, cliEnv);
    const commands = { '--version': ['--version'], 'plan (10 objects)': ['plan', ...files] };

    const bare: number[] = [];
    const handshake = new Map<string, number[]>();
    const ready = new Map<string, number[]>();
    const times = new Map<string, number[]>();
    const record = (key: string, ms: number) => times.set(key, [...(times.get(key) ?? []), ms]);
    for (let i = 0; i < launches; i++) {
      bare.push(await bareNode());
      for (const [command, args] of Object.entries(commands)) {
        for (const [form, pkg] of Object.entries(forms)) record(`${command} ${form}`, await cli(pkg, args, stack, cliEnv));
      }
      for (const [form, launched] of Object.entries(providers)) {
        const p = await provider(launched);
        handshake.set(form, [...(handshake.get(form) ?? []), p.handshake]);
        ready.set(form, [...(ready.get(form) ?? []), p.ready]);
      }
    }
    const b = median(bare);
    const row = (label: string, values: number[]) =>
      `${label.padEnd(50)} median ${median(values).toFixed(1).padStart(6)} ms   min ${Math.min(...values)
        .toFixed(1)
        .padStart(6)} ms   ${(median(values) / b).toFixed(2)}x bare node`;
    console.log(`${launches} launches each, interleaved (Node ${process.versions.node})`);
    console.log(row('bare `node -e` (one line)', bare));
    for (const command of Object.keys(commands)) {
      const bundle = times.get(`${command} bundle`)!;
      const modules = times.get(`${command} modules`)!;
      console.log(row(`tenantform ${command}: bundle`, bundle));
      console.log(row(`tenantform ${command}: modules`, modules));
      console.log(row(`tenantform ${command}: single executable`, times.get(`${command} single executable`)!));
      console.log(`${''.padEnd(50)} bundle / modules ${(median(bundle) / median(modules)).toFixed(2)}`);
    }
    for (const form of Object.keys(providers)) {
      console.log(row(`provider (${form}): handshake line`, handshake.get(form)!));
      console.log(row(`provider (${form}): schema answered`, ready.get(form)!));
    }
    console.log(`single executable: ${(statSync(executable).size / 1e6).toFixed(1)} MB (Node ${process.versions.node} and the application)`);
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
