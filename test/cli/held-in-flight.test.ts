/**
 * What a run held in flight, remembered by the working directory: the next run there starts with
 * that many requests at once instead of the 10 a fresh runner starts with, and a run the
 * platform pushed back on forgets it. Each command runs as a process, as in a pipeline's job: the
 * working directory is all that passes from one to the next.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, runProcess, startWorld, writeConfig, type World } from './helpers';

const MEMORY = ['.terraform', 'tenantform-rate-limits.json'];

/** What the working directory keeps for the emulator's data center and API client (one entry). */
function remembered(world: World): { in_flight?: number; per_second?: number } {
  const entries = Object.values(JSON.parse(readFileSync(join(world.dir, ...MEMORY), 'utf8')) as Record<string, { in_flight?: number }>);
  expect(entries).toHaveLength(1);
  return entries[0];
}

describe('requests held in flight, remembered by the working directory', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
    // Settings: a plan reads each one by itself (the platform lists no tenant's settings).
    const setting = (i: number) => ({
      application_id: '${data.tenantform_application.backup.id}',
      tenant_id: '${data.tenantform_tenant.northwind.id}',
      name: `held_${i}`,
      value: `"${i}"`,
    });
    writeConfig(world, configWith({ tenantform_tenant_setting: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`s${i}`, setting(i)])) }));
    expect((await runProcess(world, ['apply', '--auto-approve'])).code).toBe(0);
  });
  afterAll(() => world.close());

  it('a plan the platform keeps up with leaves how many requests it had in flight at once', async () => {
    // Each answer 50 ms after its request, however many are in flight: a platform that keeps up.
    world.emulator.setFaults({ latency_ms: 50 });
    try {
      expect((await runProcess(world, ['plan', '--detailed-exitcode'])).code).toBe(0);
    } finally {
      world.emulator.setFaults({ latency_ms: 0 });
    }
    // Ten at first; each answer lets one more go while there is more to send.
    expect(remembered(world).in_flight).toBeGreaterThan(10);
  });

  it('the next run starts with them: its first reads go out together, more than 10 before any is answered', async () => {
    // The first 11 reads are answered only once all 11 are in flight: a run starting at 10 would never get an answer.
    const eleven = world.emulator.gather((r) => r.method === 'GET', 11);
    const planned = await runProcess(world, ['plan', '--detailed-exitcode']);
    await eleven;
    expect(planned.code).toBe(0);
  });

  it('a run the platform pushed back on forgets them', async () => {
    world.emulator.setFaults({ limit_per_second: 20, limit_burst: 2 });
    try {
      expect((await runProcess(world, ['plan', '--detailed-exitcode'])).code).toBe(0);
    } finally {
      world.emulator.setFaults({ limit_per_second: 0, limit_burst: 0 });
    }
    expect(world.emulator.refusedByLimit()).toBeGreaterThan(0);
    expect(remembered(world).in_flight).toBeUndefined();
  });

  it('with nothing remembered (a fresh runner), a run starts at 10 and leaves what it came to hold', async () => {
    rmSync(join(world.dir, ...MEMORY));
    expect((await runProcess(world, ['plan', '--detailed-exitcode'])).code).toBe(0);
    expect(remembered(world).in_flight).toBeGreaterThan(10);
  });
});
