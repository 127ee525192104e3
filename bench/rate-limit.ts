/**
 * An MSP's estate (bench/estate.ts) under the platform's rate limit, side by side in one run: for
 * each limit (10, 50 and 200 requests a second per API client, and none), the apply from empty
 * and the plan of tenantform, and `terraform plan` through tenantform's provider, each with its
 * wall time, its requests, how many the platform refused, and its ratio to the bound (the time the
 * requests take at the limit, or 10 at a time at 20 ms each, whichever is longer), and how many
 * times faster tenantform's plan is than terraform's, and the most requests in flight at once. tenantform learns the limit from the 429s
 * and shares one budget per data center and client, so a run under a limit ends near the bound
 * with few refusals; `--requests-per-second` at the limit is measured beside it (no refusal at
 * all is expected there). tenantform runs without `--parallelism`, so that the budget sets how
 * much goes at once (and goes above 10 with no limit); terraform with its default, 10.
 *
 * Needs a build (`npm run build`) and `terraform` on PATH for the provider's column.
 *
 *   npx tsx bench/rate-limit.ts [customers, default 40] [limits, default 10,50,200,none]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../src/emulator';
import { estateStack, PER_CUSTOMER } from './estate';
import { batchingBound, chooseNode, CLI, exec, expectCode, NODE, seconds, terraformBeside } from './processes';

const CUSTOMERS = Number(process.argv[2] ?? 40);
/** The limits to measure: all four, or those named (`10,200,none`). */
const LIMITS = (process.argv[3]?.split(',') ?? ['10', '50', '200', 'none']).map((l) => (l === 'none' ? undefined : Number(l)));
const LATENCY_MS = 20;
const PARALLELISM = 10;
const HAS_TERRAFORM = spawnSync('terraform', ['version'], { stdio: 'ignore' }).status === 0;
/** Terraform 1.11's plan grows with the square of a resource's instances (see estate-scale.ts): not run above this. */
const TERRAFORM_UP_TO = Number(process.env.BENCH_TERRAFORM_UP_TO ?? 5_000);

interface Row {
  readonly label: string;
  readonly ms: number;
  readonly requests: number;
  readonly refused: number;
  /** The most requests the emulator handled at once. */
  readonly peak: number;
}

async function main(): Promise<void> {
  const node = await chooseNode();
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-rate-limit-'));
  let requests = 0;
  const emulator = await startEmulator({ port: 0, seed: 12, log: () => void requests++ });
  const env = {
    PATH: process.env.PATH,
    HOME: join(dir, 'home'),
    NO_COLOR: '1',
    TENANTFORM_BASE_URL: emulator.url,
    TENANTFORM_CLIENT_ID: emulator.clientId,
    TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
  };
  /** One command's figures: its wall time, the requests the emulator saw, and the refused ones among them. */
  const measure = async (label: string, command: string, args: string[], cwd: string, commandEnv: NodeJS.ProcessEnv, codes: number[]): Promise<Row> => {
    const [sent, refused] = [requests, emulator.refusedByLimit()];
    emulator.takePeakInFlight();
    const o = expectCode(await exec(command, args, cwd, commandEnv), codes, label);
    return { label, ms: o.ms, requests: requests - sent, refused: emulator.refusedByLimit() - refused, peak: emulator.takePeakInFlight() };
  };
  const lines: string[] = [];
  const say = (line: string): void => {
    lines.push(line);
    console.error(line);
  };
  say(node);
  say(
    `${CUSTOMERS} customers, ${CUSTOMERS * PER_CUSTOMER} objects, ${LATENCY_MS} ms per request; terraform -parallelism=${PARALLELISM}, tenantform its budget`,
  );
  if (CUSTOMERS * PER_CUSTOMER > TERRAFORM_UP_TO) say(`  terraform: not run above ${TERRAFORM_UP_TO} objects (BENCH_TERRAFORM_UP_TO)`);
  try {
    for (const [i, limit] of LIMITS.entries()) {
      const cwd = join(dir, `limit-${limit ?? 'none'}`);
      mkdirSync(cwd, { recursive: true });
      writeFileSync(join(cwd, 'main.tf.json'), JSON.stringify(estateStack(emulator, CUSTOMERS, `r${i}`)));
      emulator.setFaults({ latency_ms: LATENCY_MS, limit_per_second: limit ?? 0, limit_burst: limit ?? 0 });
      const rows: Row[] = [];
      const native = (label: string, args: string[], codes: number[]) => measure(label, NODE, [CLI, ...args, '--config', 'main.tf.json'], cwd, env, codes);
      rows.push(await native('tenantform apply', ['apply', '--auto-approve'], [0]));
      rows.push(await native('tenantform plan', ['plan', '--detailed-exitcode'], [0]));
      if (limit !== undefined)
        rows.push(await native('tenantform plan, rate given', ['plan', '--detailed-exitcode', '--requests-per-second', String(limit)], [0]));
      if (HAS_TERRAFORM && CUSTOMERS * PER_CUSTOMER <= TERRAFORM_UP_TO) {
        const terraform = await terraformBeside(cwd, join(cwd, 'with-terraform'), env);
        rows.push(
          await measure(
            'terraform plan + provider',
            'terraform',
            ['plan', '-detailed-exitcode', '-input=false', '-no-color', `-parallelism=${PARALLELISM}`],
            terraform.cwd,
            terraform.env,
            [0],
          ),
        );
      }
      say(`  limit ${limit === undefined ? 'none' : `${limit} requests/s`}:`);
      for (const r of rows) {
        const bound = Math.max(batchingBound(r.requests, PARALLELISM, LATENCY_MS), limit === undefined ? 0 : (r.requests / limit) * 1000);
        say(
          `    ${r.label.padEnd(28)} ${seconds(r.ms).padStart(9)} ${String(r.requests).padStart(6)} requests ${String(r.refused).padStart(5)} refused (${((100 * r.refused) / Math.max(1, r.requests)).toFixed(1)}%)  ${(r.ms / bound).toFixed(2)}x the bound, at most ${r.peak} at once`,
        );
      }
      const plans = ['tenantform plan', 'terraform plan + provider'].map((label) => rows.find((r) => r.label === label));
      if (plans[0] && plans[1]) say(`    tenantform plan ${(plans[1].ms / plans[0].ms).toFixed(1)}x faster than terraform plan`);
    }
  } finally {
    emulator.setFaults({ latency_ms: 0, limit_per_second: 0, limit_burst: 0 });
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
