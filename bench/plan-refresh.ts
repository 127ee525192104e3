/**
 * How refresh scales: `tenantform plan` (the built CLI, as a user runs it) over a stack of
 * infrastructure components and tenant settings on the emulator with per-request latency,
 * run side by side in one process with parallelism 1 and the default 10. Reports for each
 * the median wall time, the requests the platform answered, and the ratio between them.
 * Needs a build (`npm run build`).
 *
 *   npx tsx bench/plan-refresh.ts [components] [runs]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../src/emulator';

const CLI = join(__dirname, '..', 'bin', 'tenantform.js');
const components = Number(process.argv[2] ?? 40);
const runs = Number(process.argv[3] ?? 3);
const LATENCY_MS = 20;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  let requests = 0;
  const emulator = await startEmulator({ port: 0, seed: 11, log: () => requests++ });
  const dir = mkdtempSync(join(tmpdir(), 'tenantform-bench-'));
  try {
    const world = emulator.world();
    const owner = world.tenants['Northwind Partner'].id;
    const backup = world.applications.backup.id;
    const resource: Record<string, Record<string, unknown>> = { tenantform_infra_component: {}, tenantform_tenant_setting: {} };
    for (let i = 0; i < components; i++) {
      resource.tenantform_infra_component[`site_${i}`] = {
        owner_tenant_id: owner,
        name: `Site ${i}`,
        url: `https://site-${i}.example`,
        capabilities: ['backup'],
      };
      resource.tenantform_tenant_setting[`setting_${i}`] = { application_id: backup, tenant_id: owner, name: `bench_${i}`, value: String(i) };
    }
    const config = join(dir, 'main.tf.json');
    const state = join(dir, 'bench.tfstate');
    writeFileSync(config, JSON.stringify({ resource }));
    const env = {
      ...process.env,
      NO_COLOR: '1',
      TENANTFORM_BASE_URL: emulator.url,
      TENANTFORM_CLIENT_ID: emulator.clientId,
      TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
    };
    // Asynchronous: the emulator answers from this process, which must not block.
    const cli = (args: string[]) =>
      new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args, '--config', config, '--state', state], { env, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (status) => resolve({ status, stderr }));
      });
    const applied = await cli(['apply', '--auto-approve']);
    if (applied.status !== 0) throw new Error(`apply failed: ${applied.stderr}`);
    emulator.setFaults({ latency_ms: LATENCY_MS });

    const results = new Map<number, { ms: number[]; requests: number[] }>([
      [1, { ms: [], requests: [] }],
      [10, { ms: [], requests: [] }],
    ]);
    for (let run = 0; run < runs; run++) {
      for (const [parallelism, r] of results) {
        requests = 0;
        const started = process.hrtime.bigint();
        const plan = await cli(['plan', '--detailed-exitcode', '--parallelism', String(parallelism)]);
        r.ms.push(Number(process.hrtime.bigint() - started) / 1e6);
        r.requests.push(requests);
        if (plan.status !== 0) throw new Error(`plan found changes or failed (exit ${plan.status}): ${plan.stderr}`);
      }
    }
    const serial = median(results.get(1)!.ms);
    console.log(`plan of ${components * 2} objects, ${LATENCY_MS} ms per request, median of ${runs} runs`);
    for (const [parallelism, r] of results) {
      const ms = median(r.ms);
      console.log(
        `  parallelism ${String(parallelism).padStart(2)}: ${ms.toFixed(0).padStart(6)} ms, ${median(r.requests)} requests, ${(ms / serial).toFixed(2)}x of parallelism 1`,
      );
    }
  } finally {
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
