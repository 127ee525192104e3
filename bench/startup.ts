/**
 * Start-up times of the command and of the Terraform provider. A CI job runs tenantform
 * several times, and Terraform launches the provider several times per command (plan 3,
 * apply 4, destroy 5), so each launch counts. In one run, interleaved so that a busy moment of
 * the machine weighs on all alike, it measures:
 *   - a bare `node -e` printing one line (the floor),
 *   - `tenantform --version` as installed: the launcher, the bundle and its code cache,
 *   - the same bundle required without the code cache, and the compiled modules of dist/cli,
 *   - the provider's handshake line (what Terraform waits for before connecting),
 *   - the provider ready: handshake, mutual-TLS connection and the schema answered (what
 *     Terraform waits for before its first real step), then Shutdown.
 * and reports the medians and their ratio to bare node. Needs a build (`npm run build`).
 *
 *   npx tsx bench/startup.ts [launches]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../src/provider/handshake';
import { loadProtocol } from '../src/provider/protocol';
import { createServerIdentity, toPem } from '../src/provider/tls';

const DIST = join(__dirname, '..', 'dist');
const MAIN = join(DIST, 'provider', 'main.js');
const LAUNCHER = join(__dirname, '..', 'bin', 'tenantform.js');
/** `tenantform --version` three ways: as installed, the bundle without its code cache, the compiled modules. */
const CLI_LAUNCHES = {
  'tenantform --version': [LAUNCHER, '--version'],
  '  bundle without code cache': ['-e', `require(${JSON.stringify(join(DIST, 'tenantform.cjs'))}).main(['--version'])`],
  '  compiled modules (dist/cli)': ['-e', `require(${JSON.stringify(join(DIST, 'cli', 'main.js'))}).main(['--version'])`],
};
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
function launch(args: string[]): Promise<{ line: string; started: bigint; child: ReturnType<typeof spawn> }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
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

async function cli(args: string[]): Promise<number> {
  const { started, child } = await launch(args);
  const ms = elapsed(started);
  await exited(child);
  return ms;
}

async function provider(): Promise<{ handshake: number; ready: number }> {
  const { line, started, child } = await launch([MAIN]);
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
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
  const bare: number[] = [];
  const handshake: number[] = [];
  const ready: number[] = [];
  const clis = new Map<string, number[]>(Object.keys(CLI_LAUNCHES).map((k) => [k, []]));
  for (let i = 0; i < launches; i++) {
    bare.push(await bareNode());
    for (const [label, args] of Object.entries(CLI_LAUNCHES)) clis.get(label)!.push(await cli(args));
    const p = await provider();
    handshake.push(p.handshake);
    ready.push(p.ready);
  }
  const b = median(bare);
  const row = (label: string, values: number[]) =>
    `${label.padEnd(34)} median ${median(values).toFixed(1).padStart(6)} ms   min ${Math.min(...values).toFixed(1).padStart(6)} ms   ${(median(values) / b).toFixed(2)}x bare node`;
  console.log(`${launches} launches each, interleaved`);
  console.log(row('bare `node -e` (one line)', bare));
  for (const [label, values] of clis) console.log(row(label, values));
  console.log(row('provider: handshake line', handshake));
  console.log(row('provider: schema answered (mTLS)', ready));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
