/**
 * Where tenantform stands against the round-trip limit, in one run on one machine:
 *
 *  1. Plan of the mixed stack of 1,000 (bench/mix.ts) with 20 ms per request: requests and
 *     wall time of `tenantform plan` and of `terraform plan` with tenantform's provider on the
 *     same configuration and state, side by side (interleaved, median of the runs), and each
 *     one's ratio to the batching bound: the native plan's own requests sent `parallelism`
 *     at a time, each costing the latency. The native plan without latency shows what
 *     start-up, loading and planning cost apart from the requests.
 *  2. Apply scaling: 1,000 and 10,000 creates (emulator without latency), and the ratio, with
 *     the state in a local file and in PostgreSQL (started here, as the tests start it).
 *  3. `plan --refresh=false` of the 10,000: CPU per resource (loading, diffing, rendering:
 *     the difference to the 1,000 plan, so process start-up cancels out) and peak memory; and
 *     the same difference from 10,000 to 20,000, where V8 has optimized the code that runs per
 *     object: from 1,000 to 10,000 much of it still runs unoptimized.
 *
 * Needs a build (`npm run build`) and `terraform` on PATH for part 1.
 *
 *   npx tsx bench/speed.ts [runs] [large] [plan: the plan of the mix only]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { limitMemoryFile } from '../src/api/limit-memory';
import { startEmulator, type RunningEmulator } from '../src/emulator';
import { Client } from 'pg';
import { createDatabase, startPostgres, type RunningPostgres } from '../test/helpers/postgres';
import { createsStack, mixedStack, terraformJson } from './mix';
import { batchingBound, chooseNode, CLI, exec, expectCode, median, NODE, seconds, terraformBeside, type Outcome } from './processes';

const USAGE_HOOK = join(__dirname, 'usage-at-exit.cjs');
const runs = Number(process.argv[2] ?? 3);
const LARGE = Number(process.argv[3] ?? 10_000);
const SMALL = LARGE / 10;
/** `plan` as the third argument: the plan of the mix only. */
const ONLY_PLAN = process.argv[4] === 'plan';
const LATENCY_MS = 20;
const PARALLELISM = 10;

class Bench {
  requests = 0;
  constructor(
    readonly emulator: RunningEmulator,
    readonly dir: string,
  ) {}

  get env(): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: join(this.dir, 'home'),
      NO_COLOR: '1',
      TENANTFORM_BASE_URL: this.emulator.url,
      TENANTFORM_CLIENT_ID: this.emulator.clientId,
      TENANTFORM_CLIENT_SECRET: this.emulator.clientSecret,
    };
  }

  tenantform(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
    return exec(NODE, [CLI, ...args], cwd, { ...this.env, ...env });
  }

  /** A working directory with the stack as Terraform JSON. */
  workdir(name: string, resources: ReturnType<typeof mixedStack>, backend?: Record<string, unknown>): string {
    const cwd = join(this.dir, name);
    mkdirSync(cwd, { recursive: true });
    const doc = terraformJson(resources);
    if (backend) (doc.terraform as Record<string, unknown>).backend = backend;
    writeFileSync(join(cwd, 'main.tf.json'), JSON.stringify(doc));
    return cwd;
  }

  /** An empty pg state: each apply starts from nothing, as the local one does in a fresh folder. */
  async resetPg(backend: Record<string, unknown>): Promise<void> {
    const client = new Client({ connectionString: (backend.pg as { conn_str: string }).conn_str });
    await client.connect();
    try {
      await client.query('DROP SCHEMA IF EXISTS terraform_remote_state CASCADE');
    } finally {
      await client.end();
    }
  }

  async counted<T>(work: () => Promise<T>): Promise<{ value: T; requests: number }> {
    this.requests = 0;
    const value = await work();
    return { value, requests: this.requests };
  }
}

async function planMix(b: Bench): Promise<void> {
  const cwd = b.workdir('mix', mixedStack(b.emulator));
  const native = ['--config', 'main.tf.json', '--state', 'terraform.tfstate'];
  expectCode(await b.tenantform(['apply', '--auto-approve', ...native], cwd), [0], 'apply of the mix');

  const terraform = await terraformBeside(cwd, b.dir, b.env);
  const nativeRuns: Array<{ ms: number; requests: number }> = [];
  const budgetRuns: Array<{ ms: number; requests: number }> = [];
  const coldRuns: Array<{ ms: number; requests: number }> = [];
  const terraformRuns: Array<{ ms: number; requests: number }> = [];
  const fixedMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    b.emulator.setFaults({ latency_ms: LATENCY_MS });
    const n = await b.counted(() => b.tenantform(['plan', '--detailed-exitcode', '--parallelism', String(PARALLELISM), ...native], cwd));
    nativeRuns.push({ ms: expectCode(n.value, [0], 'tenantform plan').ms, requests: n.requests });
    // Without --parallelism: the request budget sets how much goes at once, as a user runs it,
    // in the working directory of the apply and the plans before (which remembers what they held in flight)...
    const own = await b.counted(() => b.tenantform(['plan', '--detailed-exitcode', ...native], cwd));
    budgetRuns.push({ ms: expectCode(own.value, [0], 'tenantform plan').ms, requests: own.requests });
    // ...and on a fresh runner, with nothing remembered: the budget starts at 10.
    rmSync(limitMemoryFile(cwd), { force: true });
    const cold = await b.counted(() => b.tenantform(['plan', '--detailed-exitcode', ...native], cwd));
    coldRuns.push({ ms: expectCode(cold.value, [0], 'tenantform plan').ms, requests: cold.requests });
    const t = await b.counted(() =>
      exec('terraform', ['plan', '-detailed-exitcode', '-input=false', '-no-color', `-parallelism=${PARALLELISM}`], terraform.cwd, terraform.env),
    );
    terraformRuns.push({ ms: expectCode(t.value, [0], 'terraform plan').ms, requests: t.requests });
    // The same plan without latency: what start-up, loading and planning cost on their own.
    b.emulator.setFaults({ latency_ms: 0 });
    fixedMs.push(expectCode(await b.tenantform(['plan', '--detailed-exitcode', ...native], cwd), [0], 'tenantform plan').ms);
  }

  const nativeRequests = median(nativeRuns.map((r) => r.requests));
  const bound = batchingBound(nativeRequests, PARALLELISM, LATENCY_MS);
  console.log(`Plan of the mixed stack of 1,000 objects, ${LATENCY_MS} ms per request, parallelism ${PARALLELISM}, median of ${runs} interleaved runs`);
  console.log(`  batching bound: ${nativeRequests} requests, ${PARALLELISM} at a time = ${seconds(bound)}`);
  const row = (label: string, rs: Array<{ ms: number; requests: number }>) => {
    const ms = median(rs.map((r) => r.ms));
    const requests = median(rs.map((r) => r.requests));
    console.log(
      `  ${label.padEnd(30)} ${String(requests).padStart(5)} requests (${(requests / 1000).toFixed(2)} per object)  ${seconds(ms).padStart(8)}  ${(ms / bound).toFixed(2)}x the bound`,
    );
    return ms;
  };
  const nativeMs = row(`tenantform plan, ${PARALLELISM} at once`, nativeRuns);
  const budgetMs = row('tenantform plan, its budget', budgetRuns);
  const coldMs = row('  the same, nothing remembered', coldRuns);
  const terraformMs = row('terraform plan + provider', terraformRuns);
  console.log(
    `  tenantform plan is ${(terraformMs / nativeMs).toFixed(1)}x faster than terraform plan at ${PARALLELISM} at once, ${(terraformMs / budgetMs).toFixed(1)}x with its budget (${(terraformMs / coldMs).toFixed(1)}x with nothing remembered)`,
  );
  const fixed = median(fixedMs);
  console.log(
    `  tenantform plan without latency: ${seconds(fixed)}; the requests add ${seconds(nativeMs - fixed)}, ${((nativeMs - fixed) / bound).toFixed(2)}x the bound`,
  );
}

async function applyScaling(b: Bench, pg: RunningPostgres): Promise<void> {
  console.log(`Apply of plain creates (half infrastructure components, half settings), no latency`);
  const places: Array<{ label: string; dir: string; backend?: Record<string, unknown>; args: string[] }> = [
    { label: 'local state file', dir: 'creates', args: ['--state', 'terraform.tfstate'] },
    { label: 'pg backend', dir: 'creates-pg', backend: { pg: { conn_str: await createDatabase(pg, 'bench') } }, args: [] },
  ];
  for (const place of places) {
    const walls: number[] = [];
    for (const n of [SMALL, LARGE]) {
      if (place.backend) await b.resetPg(place.backend);
      const cwd = b.workdir(`${place.dir}-${n}`, createsStack(b.emulator, n), place.backend);
      const applied = await b.counted(() => b.tenantform(['apply', '--auto-approve', '--config', 'main.tf.json', ...place.args], cwd));
      expectCode(applied.value, [0], `apply of ${n} (${place.label})`);
      walls.push(applied.value.ms);
      console.log(`  ${place.label.padEnd(17)} ${String(n).padStart(6)} creates: ${seconds(applied.value.ms).padStart(8)}, ${applied.requests} requests`);
    }
    console.log(`  ${place.label.padEnd(17)} ${LARGE} / ${SMALL}: ${(walls[1] / walls[0]).toFixed(1)}x the wall time for 10x the objects`);
  }
}

async function planWithoutRefresh(b: Bench): Promise<void> {
  // The 20,000 are applied here, untimed (the 1,000 and 10,000 are the apply scaling's).
  const largest = 2 * LARGE;
  const applied = await b.tenantform(
    ['apply', '--auto-approve', '--config', 'main.tf.json', '--state', 'terraform.tfstate'],
    b.workdir(`creates-${largest}`, createsStack(b.emulator, largest)),
  );
  expectCode(applied, [0], `apply of ${largest}`);
  // CPU time varies from run to run on a shared machine: the median of `runs` runs of each size.
  const usage: Array<{ cpuMs: number; maxRssKb: number }> = [];
  for (const n of [SMALL, LARGE, largest]) {
    const cwd = join(b.dir, `creates-${n}`);
    const file = join(cwd, 'usage.json');
    const env = { NODE_OPTIONS: `--require ${USAGE_HOOK}`, BENCH_USAGE_FILE: file };
    const samples: Array<{ cpuMs: number; maxRssKb: number }> = [];
    for (let i = 0; i < runs; i++) {
      expectCode(
        await b.tenantform(['plan', '--refresh=false', '--detailed-exitcode', '--config', 'main.tf.json', '--state', 'terraform.tfstate'], cwd, env),
        [0],
        'plan --refresh=false',
      );
      samples.push(JSON.parse(readFileSync(file, 'utf8')));
    }
    usage.push({ cpuMs: median(samples.map((s) => s.cpuMs)), maxRssKb: median(samples.map((s) => s.maxRssKb)) });
  }
  const perObject = (usage[1].cpuMs - usage[0].cpuMs) / (LARGE - SMALL);
  const perObjectOptimized = (usage[2].cpuMs - usage[1].cpuMs) / (largest - LARGE);
  console.log(`Plan --refresh=false (loading, diffing, rendering; no request), median of ${runs} runs`);
  console.log(`  CPU: ${usage[0].cpuMs.toFixed(0)} ms at ${SMALL}, ${usage[1].cpuMs.toFixed(0)} ms at ${LARGE}: ${perObject.toFixed(3)} ms per object`);
  console.log(`  CPU: ${usage[2].cpuMs.toFixed(0)} ms at ${largest}: ${perObjectOptimized.toFixed(3)} ms per object from ${LARGE} to ${largest}`);
  console.log(`  peak memory at ${LARGE}: ${(usage[1].maxRssKb / 1024).toFixed(0)} MB, at ${largest}: ${(usage[2].maxRssKb / 1024).toFixed(0)} MB`);
}

async function main(): Promise<void> {
  console.log(await chooseNode());
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-bench-'));
  const bench = new Bench(await startEmulator({ port: 0, seed: 11, log: () => bench.requests++ }), dir);
  const pg = await startPostgres();
  try {
    await planMix(bench);
    if (ONLY_PLAN) return;
    await applyScaling(bench, pg);
    await planWithoutRefresh(bench);
  } finally {
    await bench.emulator.close();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
