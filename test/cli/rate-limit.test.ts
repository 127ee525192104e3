/**
 * The command under the platform's rate limit, as a process: an apply that meets it completes,
 * says that it waits instead of going quiet, and makes each object once; the next run in the folder
 * starts below the limit it met; a ceiling given in the
 * provider block is checked before anything is sent.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

describe('tenantform under the rate limit', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('an apply that meets the limit waits for it, says so, and makes each object once', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `Limited storage ${i}`);
    writeConfig(world, configWith({ tenantform_infra_component: Object.fromEntries(names.map((n, i) => [`c${i}`, infra(n)])) }));
    world.emulator.setFaults({ limit_per_second: 4, limit_burst: 2 });
    try {
      const applied = await run(world, ['apply', '--auto-approve']);
      expect(applied.stderr).toMatch(/Waiting for the platform's rate limit: \d+ s/);
      expect(applied.code).toBe(0);
      expect(applied.stdout).toContain('Apply complete! Resources: 12 added, 0 changed, 0 destroyed.');
    } finally {
      world.emulator.setFaults({ limit_per_second: 0, limit_burst: 0 });
    }
    expect(world.emulator.refusedByLimit()).toBeGreaterThan(0);
    const created = world.requests.filter((l) => /^POST \/api\/2\/infra 201/.test(l));
    expect(created).toHaveLength(12);
  });

  it('the next run in the folder starts below the limit the apply met, kept in .terraform/ without naming the data center or the API client', async () => {
    const text = readFileSync(join(world.dir, '.terraform', 'tenantform-rate-limits.json'), 'utf8');
    expect(text).not.toContain(world.emulator.clientId);
    expect(text).not.toContain(new URL(world.emulator.url).host);
    const [remembered] = Object.values(JSON.parse(text) as Record<string, { per_second: number }>);
    expect(remembered.per_second).toBeGreaterThan(0);
    const planned = await run(world, ['plan', '--detailed-exitcode'], { TF_LOG: 'info' });
    expect(planned.code).toBe(0);
    expect(planned.stderr).toContain('starting below the rate limit an earlier run met here');
    expect(planned.stderr).toContain(`per_second=${remembered.per_second}`);
    // Another folder met no limit: its run starts with none.
    mkdirSync(join(world.dir, 'elsewhere'), { recursive: true });
    writeConfig(world, configWith({}), 'elsewhere/main.tf.json');
    const elsewhere = await run(world, ['-chdir=elsewhere', 'plan'], { TF_LOG: 'info' });
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stderr).not.toContain('starting below the rate limit');
  });

  it('--requests-per-second keeps an apply under a limit it is told, so that the platform refuses nothing', async () => {
    const names = Array.from({ length: 6 }, (_, i) => `Paced storage ${i}`);
    // A folder of its own: the other tests' stack is the main folder's.
    mkdirSync(join(world.dir, 'paced'), { recursive: true });
    writeConfig(world, configWith({ tenantform_infra_component: Object.fromEntries(names.map((n, i) => [`p${i}`, infra(n)])) }), 'paced/main.tf.json');
    const refusedBefore = world.emulator.refusedByLimit();
    // The platform's limit is well above the rate asked for, and its burst above the client's (its rate) and a token request.
    world.emulator.setFaults({ limit_per_second: 5, limit_burst: 3 });
    try {
      const applied = await run(world, ['-chdir=paced', 'apply', '--auto-approve', '--requests-per-second', '2']);
      expect(applied.code).toBe(0);
      expect(applied.stderr).not.toContain("Waiting for the platform's rate limit");
    } finally {
      world.emulator.setFaults({ limit_per_second: 0, limit_burst: 0 });
    }
    expect(world.emulator.refusedByLimit()).toBe(refusedBefore);
    const refused = await run(world, ['-chdir=paced', 'plan', '--requests-per-second', '0']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--requests-per-second must be a number of requests greater than 0.');
  });

  it('a requests_per_second that is no rate is refused naming the provider block, before any request', async () => {
    const before = world.requests.length;
    writeConfig(world, { ...configWith({}), provider: { tenantform: [{ requests_per_second: -3 }] } });
    const planned = await run(world, ['plan']);
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain('provider.tenantform');
    expect(planned.stderr).toMatch(/requests_per_second must be a number of requests per second above 0/);
    expect(world.requests.slice(before)).toEqual([]);
  });
});
