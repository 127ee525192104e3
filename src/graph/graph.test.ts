import { TenantformError } from '../errors';
import { dependencyOrder, mapLimited, runInOrder, withDependencies } from './graph';

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
});
