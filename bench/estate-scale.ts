/**
 * An MSP's estate at scale (bench/estate.ts: `for_each` over a map of customers, five objects
 * each, references to each customer's own tenant), on the emulator without latency, side by
 * side at two sizes ten times apart: apply from empty, plan (with refresh), plan
 * `--refresh=false`, drift and export of the partner's subtree; then the same estate adopted
 * by a stack that starts with no state and an import block per object (plan, apply, plan
 * again), which must send no create and end with an empty plan. For each, wall time, requests
 * and peak memory, and the ratio of the two sizes' wall times (linear is 10x). Last, the plan of
 * each size at 20 ms per request against the batching bound of its requests, with `terraform
 * plan` through tenantform's provider beside it (skipped when `terraform` is not on PATH).
 *
 * Needs a build (`npm run build`).
 *
 *   npx tsx bench/estate-scale.ts [customers of the smaller size, default 200]
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../src/emulator';
import { resourceKind } from '../src/resources/registry';
import { estateStack, PER_CUSTOMER } from './estate';
import { batchingBound, chooseNode, CLI, exec, expectCode, NODE, seconds, terraformBeside } from './processes';

const USAGE_HOOK = join(__dirname, 'usage-at-exit.cjs');
const SMALL = Number(process.argv[2] ?? 200);
const SIZES = [SMALL, SMALL * 10];
const LATENCY_MS = 20;
const PARALLELISM = 10;
const HAS_TERRAFORM = spawnSync('terraform', ['version'], { stdio: 'ignore' }).status === 0;
/** The largest estate `terraform plan` is run on: its own work grows faster than the objects (see the README), past half an hour at 10,000. */
const TERRAFORM_UP_TO = Number(process.env.BENCH_TERRAFORM_UP_TO ?? 5_000);

interface Measure {
  ms: number;
  requests: number;
  cpuMs: number;
  maxRssKb: number;
}

async function main(): Promise<void> {
  console.log(await chooseNode());
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-estate-'));
  let requests = 0;
  let creates = 0;
  const emulator = await startEmulator({
    port: 0,
    seed: 11,
    log: (line) => {
      requests++;
      if (line.startsWith('POST /api/') && !line.startsWith('POST /api/2/idp/token')) creates++;
    },
  });
  const partner = emulator.world().tenants['Northwind Partner'].id;
  const env = {
    PATH: process.env.PATH,
    HOME: join(dir, 'home'),
    NO_COLOR: '1',
    TENANTFORM_BASE_URL: emulator.url,
    TENANTFORM_CLIENT_ID: emulator.clientId,
    TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
  };
  const run = (cwd: string, args: string[], codes: number[]): Promise<Measure> =>
    new Promise((resolve, reject) => {
      const usage = join(cwd, 'usage.json');
      const before = requests;
      const started = process.hrtime.bigint();
      // Standard output goes to a file, which a step's check may read.
      const stdout = openSync(join(cwd, 'stdout.txt'), 'w');
      const child = spawn(NODE, [CLI, ...args], {
        cwd,
        env: { ...env, NODE_OPTIONS: `--require ${USAGE_HOOK}`, BENCH_USAGE_FILE: usage },
        stdio: ['ignore', stdout, 'pipe'],
      });
      closeSync(stdout);
      let errors = '';
      child.stderr!.on('data', (c: Buffer) => (errors = (errors + c.toString()).slice(-4000)));
      child.once('error', reject);
      child.once('close', (code) => {
        if (!codes.includes(code ?? -1)) return reject(new Error(`tenantform ${args[0]} exited with ${code}:\n${errors}`));
        const { cpuMs, maxRssKb } = JSON.parse(readFileSync(usage, 'utf8')) as { cpuMs: number; maxRssKb: number };
        resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, requests: requests - before, cpuMs, maxRssKb });
      });
    });

  const steps: Array<{ label: string; args: string[]; codes: number[] }> = [
    { label: 'apply from empty', args: ['apply', '--auto-approve', '--config', 'main.tf.json'], codes: [0] },
    { label: 'plan', args: ['plan', '--detailed-exitcode', '--config', 'main.tf.json'], codes: [0] },
    { label: 'plan --refresh=false', args: ['plan', '--refresh=false', '--detailed-exitcode', '--config', 'main.tf.json'], codes: [0] },
    { label: 'drift', args: ['drift', '--config', 'main.tf.json', '--ignore-unmanaged'], codes: [0] },
    {
      label: 'export of the subtree',
      args: ['export', '--tenant', partner, '--format', 'json', '--out', 'exported.tf.json', '--state', 'exported.tfstate', '--setting', 'retention_days'],
      codes: [0],
    },
    // The exported configuration and state: nothing to change, and every object of the subtree, own settings included, declared.
    { label: 'exported: plan', args: ['plan', '--detailed-exitcode', '--config', 'exported.tf.json', '--state', 'exported.tfstate'], codes: [0] },
    { label: 'exported: drift', args: ['drift', '--format', 'json', '--config', 'exported.tf.json', '--state', 'exported.tfstate'], codes: [0] },
    { label: 'adopt: plan (imports)', args: ['plan', '--detailed-exitcode', '--config', 'adopt.tf.json', '--state', 'adopt.tfstate'], codes: [2] },
    { label: 'adopt: apply', args: ['apply', '--auto-approve', '--config', 'adopt.tf.json', '--state', 'adopt.tfstate'], codes: [0] },
    { label: 'adopt: plan again', args: ['plan', '--detailed-exitcode', '--config', 'adopt.tf.json', '--state', 'adopt.tfstate'], codes: [0] },
  ];
  const results: Measure[][] = [];
  const latencyLines: string[] = [];
  // Kept for the summary, and shown at once on standard error as the other steps' progress is.
  const latencyLine = (line: string): void => {
    latencyLines.push(line);
    console.error(line);
  };
  /** The estate's plan at LATENCY_MS per request, tenantform's and terraform's, against the bound of tenantform's requests. */
  const planAtLatency = async (cwd: string, objects: number, withoutLatencyMs: number): Promise<void> => {
    emulator.setFaults({ latency_ms: LATENCY_MS });
    try {
      const before = requests;
      const native = expectCode(
        await exec(NODE, [CLI, 'plan', '--detailed-exitcode', '--parallelism', String(PARALLELISM), '--config', 'main.tf.json'], cwd, env),
        [0],
        'tenantform plan',
      );
      const nativeRequests = requests - before;
      const bound = batchingBound(nativeRequests, PARALLELISM, LATENCY_MS);
      const line = (label: string, ms: number, n: number) =>
        `    ${label.padEnd(26)} ${String(n).padStart(7)} requests ${seconds(ms).padStart(10)}  ${(ms / bound).toFixed(2)}x the bound`;
      latencyLine(`  ${objects} objects: batching bound ${seconds(bound)} (${nativeRequests} requests, ${PARALLELISM} at a time)`);
      latencyLine(line('tenantform plan', native.ms, nativeRequests));
      latencyLine(
        `    the same plan without latency takes ${seconds(withoutLatencyMs)}: the requests add ${seconds(native.ms - withoutLatencyMs)}, ${((native.ms - withoutLatencyMs) / bound).toFixed(2)}x the bound`,
      );
      if (!HAS_TERRAFORM) return void latencyLine('    terraform plan: not measured, terraform is not on PATH');
      if (objects > TERRAFORM_UP_TO) return void latencyLine(`    terraform plan: not run above ${TERRAFORM_UP_TO} objects (BENCH_TERRAFORM_UP_TO)`);
      const terraform = await terraformBeside(cwd, join(cwd, 'with-terraform'), env);
      const sent = requests;
      const planned = expectCode(
        await exec('terraform', ['plan', '-detailed-exitcode', '-input=false', '-no-color', `-parallelism=${PARALLELISM}`], terraform.cwd, terraform.env),
        [0],
        'terraform plan',
      );
      latencyLine(line('terraform plan + provider', planned.ms, requests - sent));
    } finally {
      emulator.setFaults({ latency_ms: 0 });
    }
  };
  try {
    for (const customers of SIZES) {
      const cwd = join(dir, String(customers));
      mkdirSync(cwd, { recursive: true });
      writeFileSync(join(cwd, 'main.tf.json'), JSON.stringify(estateStack(emulator, customers, `e${customers}x`)));
      const row: Measure[] = [];
      for (const step of steps) {
        // The estate applied: the same configuration with an import block per recorded object, and no state.
        if (step.label.startsWith('adopt: plan (')) writeFileSync(join(cwd, 'adopt.tf.json'), JSON.stringify(withImportBlocks(cwd)));
        const createsBefore = creates;
        row.push(await run(cwd, step.args, step.codes));
        const m = row[row.length - 1];
        // Progress on standard error: a run at 100,000 objects takes most of an hour.
        console.error(
          `${customers * PER_CUSTOMER} objects, ${step.label}: ${seconds(m.ms)}, ${(m.cpuMs / 1000).toFixed(1)} s CPU, ${m.requests} requests, peak ${(m.maxRssKb / 1024).toFixed(0)} MB`,
        );
        if (step.label.startsWith('adopt') && creates > createsBefore) throw new Error(`${step.label} sent ${creates - createsBefore} creates`);
        if (step.label === 'exported: drift') {
          const { coverage } = JSON.parse(readFileSync(join(cwd, 'stdout.txt'), 'utf8')) as { coverage: { percent: number; unmanaged: number } | null };
          if (coverage?.percent !== 100) throw new Error(`drift of the exported subtree covers ${JSON.stringify(coverage)}, not 100%`);
        }
      }
      results.push(row);
      await planAtLatency(cwd, customers * PER_CUSTOMER, row[steps.findIndex((s) => s.label === 'plan')].ms);
    }
    const objects = SIZES.map((c) => c * PER_CUSTOMER);
    console.log(`Estate of ${objects[0]} and ${objects[1]} objects (${PER_CUSTOMER} per customer, for_each, no latency)`);
    steps.forEach((step, i) => {
      const [a, b] = [results[0][i], results[1][i]];
      console.log(
        `  ${step.label.padEnd(22)} ${(a.ms / 1000).toFixed(2).padStart(7)} s ${(b.ms / 1000).toFixed(2).padStart(8)} s  ` +
          `${(b.ms / a.ms).toFixed(1).padStart(5)}x wall, ${(b.cpuMs / a.cpuMs).toFixed(1).padStart(5)}x CPU (${(b.cpuMs / 1000).toFixed(1)} s), ` +
          `${String(a.requests).padStart(6)} / ${String(b.requests).padStart(6)} requests, peak ${(b.maxRssKb / 1024).toFixed(0)} MB`,
      );
    });
    console.log(`Plan at ${LATENCY_MS} ms per request, parallelism ${PARALLELISM}`);
    for (const line of latencyLines) console.log(line);
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The estate's configuration with one import block per object its state records (its identity as the import id). */
function withImportBlocks(cwd: string): Record<string, unknown> {
  const config = JSON.parse(readFileSync(join(cwd, 'main.tf.json'), 'utf8')) as Record<string, unknown>;
  const state = JSON.parse(readFileSync(join(cwd, 'terraform.tfstate'), 'utf8')) as {
    resources: Array<{ mode: string; type: string; name: string; instances: Array<{ index_key?: string; attributes: Record<string, unknown> }> }>;
  };
  const imports = state.resources
    .filter((r) => r.mode === 'managed')
    .flatMap((r) =>
      r.instances.map((i) => ({
        to: `${r.type}.${r.name}${i.index_key === undefined ? '' : `[${JSON.stringify(i.index_key)}]`}`,
        id: resourceKind(r.type)!.identity(i.attributes),
      })),
    );
  const { terraform: _backend, ...rest } = config;
  return { ...rest, import: imports };
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
