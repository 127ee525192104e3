/**
 * Start-up time of the Terraform provider: Terraform launches it several times per command
 * (plan 3, apply 4, destroy 5), so each launch counts. Measures the time from spawn to the
 * handshake line, beside a bare `node -e` launch in the same run, and reports the medians
 * and their ratio. Needs a build (`npm run build`).
 *
 *   npx tsx bench/provider-startup.ts [launches]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../src/provider/handshake';
import { createServerIdentity } from '../src/provider/tls';

const MAIN = join(__dirname, '..', 'dist', 'provider', 'main.js');

/** Milliseconds from spawn to the first line on stdout; the process is then stopped. */
function timeToFirstLine(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (!seen.includes('\n')) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      child.kill('SIGTERM');
      child.once('exit', () => resolve(ms));
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!seen.includes('\n')) reject(new Error(`exited with ${code} before printing a line`));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main(): Promise<void> {
  const launches = Number(process.argv[2] ?? 10);
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);
  // As Terraform launches it: with a client certificate, so the launch includes the TLS set-up.
  const env = {
    ...process.env,
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: '5,6',
    PLUGIN_CLIENT_CERT: createServerIdentity().certificatePem,
    TF_DISABLE_PLUGIN_TLS: '',
  };
  const provider: number[] = [];
  const bare: number[] = [];
  // Interleaved, so that a busy moment of the machine weighs on both alike.
  for (let i = 0; i < launches; i++) {
    bare.push(await timeToFirstLine(['-e', 'process.stdout.write("1\\n")'], env));
    provider.push(await timeToFirstLine([MAIN], env));
  }
  const p = median(provider);
  const b = median(bare);
  console.log(`launches: ${launches}`);
  console.log(`bare node -e   median ${b.toFixed(1)} ms  (min ${Math.min(...bare).toFixed(1)})`);
  console.log(`provider       median ${p.toFixed(1)} ms  (min ${Math.min(...provider).toFixed(1)})`);
  console.log(`ratio provider / bare node: ${(p / b).toFixed(2)}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
