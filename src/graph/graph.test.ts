import { TenantformError } from '../errors';
import { dependencyOrder, mapLimited, runInOrder, withDependencies, type SchedulerMeter } from './graph';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));

describe('dependency graph', () => {
  it('orders dependencies first and keeps declaration order otherwise', () => {
    expect(dependencyOrder(graph({ c: ['b'], a: [], b: ['a', 'outside'] }))).toEqual(['a', 'b', 'c']);
    expect(dependencyOrder(graph({ x: [], y: [], z: [] }))).toEqual(['x', 'y', 'z']);
  });

  it('names the cycle', () => {
    let error: unknown;
    try {
      dependencyOrder(graph({ a: ['b'], b: ['c'], c: ['a'], d: [] }));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TenantformError);
    expect((error as TenantformError).detail).toContain('a -> b -> c -> a');
  });

  it('finds dependencies transitively', () => {
    const g = graph({ a: [], b: ['a'], c: ['b'], d: [] });
    expect([...withDependencies(['c'], g)].sort()).toEqual(['a', 'b', 'c']);
  });

  it('runs dependents after their dependencies, skips those of a failure, and bounds parallelism', async () => {
    const g = graph({ a: [], b: ['a'], c: ['b'], d: [], e: [], f: ['d'] });
    const started: string[] = [];
    let running = 0;
    let most = 0;
    const result = await runInOrder(g, 2, async (address) => {
      started.push(address);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return address !== 'b';
    });
    expect(result).toEqual({ failed: ['b'], skipped: ['c'] });
    expect(started.indexOf('b')).toBeGreaterThan(started.indexOf('a'));
    expect(started).not.toContain('c');
    expect(most).toBe(2);
  });

  it('maps with a bound and keeps order', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimited([5, 1, 3, 2], 2, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 30, 20]);
    expect(most).toBe(2);
  });

  /** An estate: `customers` tenants, each with four objects on it, two of them in a chain. */
  function estate(customers: number): Map<string, Set<string>> {
    const g = new Map<string, Set<string>>();
    for (let i = 0; i < customers; i++) {
      const tenant = `tenant[${i}]`;
      g.set(tenant, new Set());
      g.set(`items[${i}]`, new Set([tenant]));
      g.set(`setting[${i}]`, new Set([tenant]));
      g.set(`user[${i}]`, new Set([tenant]));
      g.set(`roles[${i}]`, new Set([tenant, `user[${i}]`]));
    }
    return g;
  }
  const edgesOf = (g: Map<string, Set<string>>) => [...g.values()].reduce((n, s) => n + s.size, 0);

  it.each([1_000, 20_000])('schedules %i customers with work proportional to the objects and their dependencies', async (customers) => {
    const g = estate(customers);
    const meter: SchedulerMeter = { edges: 0, nodes: 0 };
    const result = await runInOrder(g, 10, async () => true, meter);
    expect(result).toEqual({ failed: [], skipped: [] });
    // Each dependency is counted once and released once; each object is taken once.
    expect(meter.edges).toBe(2 * edgesOf(g));
    expect(meter.nodes).toBe(g.size);
  });

  it('a failed object skips only what depends on it, with each dependency looked at a bounded number of times', async () => {
    const g = estate(1_000);
    const meter: SchedulerMeter = { edges: 0, nodes: 0 };
    const result = await runInOrder(g, 10, async (a) => a !== 'tenant[7]' && a !== 'user[8]', meter);
    expect(result.failed.sort()).toEqual(['tenant[7]', 'user[8]']);
    expect(result.skipped.sort()).toEqual(['items[7]', 'roles[7]', 'roles[8]', 'setting[7]', 'user[7]']);
    expect(meter.nodes).toBe(g.size);
    expect(meter.edges).toBeLessThanOrEqual(2 * edgesOf(g));
  });
});
