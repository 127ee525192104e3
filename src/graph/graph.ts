import { graphErrors } from './errors';

/** Dependencies by address: each entry lists the addresses it needs first. */
export type DependencyMap = ReadonlyMap<string, ReadonlySet<string>>;

/** How many run at once: a number, or a function read whenever one starts or ends (a bound that follows the platform). */
export type AtOnce = number | (() => number);

const atOnceNow = (bound: AtOnce): number => (typeof bound === 'number' ? bound : Math.max(1, bound()));

/**
 * Orders addresses so that each comes after everything it depends on (dependencies that are
 * not in the map are ignored). Ties keep the order of the map, so plans are stable.
 * Throws `dependency_cycle` naming the cycle.
 */
export function dependencyOrder(deps: DependencyMap): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (address: string): void => {
    const seen = state.get(address);
    if (seen === 'done') return;
    if (seen === 'visiting') throw graphErrors.dependencyCycle(stack.slice(stack.indexOf(address)));
    state.set(address, 'visiting');
    stack.push(address);
    for (const d of deps.get(address) ?? []) if (deps.has(d)) visit(d);
    stack.pop();
    state.set(address, 'done');
    order.push(address);
  };
  for (const address of deps.keys()) visit(address);
  return order;
}

/** The addresses and everything they depend on, transitively. */
export function withDependencies(addresses: Iterable<string>, deps: DependencyMap): Set<string> {
  const out = new Set<string>();
  const walk = (a: string): void => {
    if (out.has(a)) return;
    out.add(a);
    for (const d of deps.get(a) ?? []) walk(d);
  };
  for (const a of addresses) walk(a);
  return out;
}

/** What a scheduling did, counted: the work is linear when these stay within the nodes and edges. */
export interface SchedulerMeter {
  /** Dependency edges looked at (each at most twice: when counted, and when its dependency ends). */
  edges: number;
  /** Nodes taken from the ready queue or skipped. */
  nodes: number;
}

/**
 * Runs `work` for every address once all its dependencies succeeded, at most `parallelism`
 * at a time (read again as each one ends, when it is a function). An address whose dependency failed (or was skipped) is skipped, not run, and so is
 * everything after it; nothing else waits on a failure. Each address keeps a count of the
 * dependencies it still waits on, so that the work is proportional to the addresses and their
 * dependencies. Returns the addresses that failed and those skipped.
 */
export async function runInOrder(
  deps: DependencyMap,
  parallelism: AtOnce,
  work: (address: string) => Promise<boolean>,
  meter: SchedulerMeter = { edges: 0, nodes: 0 },
): Promise<{ failed: string[]; skipped: string[] }> {
  dependencyOrder(deps); // refuse cycles before anything runs
  const waitingOn = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  const ready: string[] = [];
  for (const [address, ds] of deps) {
    let n = 0;
    for (const d of ds) {
      meter.edges++;
      if (!deps.has(d) || d === address) continue;
      n++;
      const list = dependents.get(d);
      if (list) list.push(address);
      else dependents.set(d, [address]);
    }
    waitingOn.set(address, n);
    if (n === 0) ready.push(address);
  }
  const failed: string[] = [];
  const skipped = new Set<string>();
  let next = 0;
  let running = 0;
  let settled = 0;
  /** Skips everything that waits, directly or not, on `address`. */
  const skipAfter = (address: string): void => {
    const stack = [address];
    while (stack.length > 0) {
      for (const dependent of dependents.get(stack.pop()!) ?? []) {
        meter.edges++;
        if (skipped.has(dependent)) continue;
        skipped.add(dependent);
        meter.nodes++;
        settled++;
        stack.push(dependent);
      }
    }
  };
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      while (next < ready.length && running < atOnceNow(parallelism)) {
        const address = ready[next++];
        meter.nodes++;
        running++;
        work(address).then(
          (succeeded) => {
            running--;
            settled++;
            if (succeeded) {
              for (const dependent of dependents.get(address) ?? []) {
                meter.edges++;
                const left = waitingOn.get(dependent)! - 1;
                waitingOn.set(dependent, left);
                if (left === 0 && !skipped.has(dependent)) ready.push(dependent);
              }
            } else {
              failed.push(address);
              skipAfter(address);
            }
            pump();
          },
          (err: unknown) => reject(err),
        );
      }
      if (running === 0 && settled === deps.size) resolve({ failed, skipped: [...skipped] });
    };
    pump();
  });
}

/** Maps items with at most `limit` calls in flight; results keep the input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: AtOnce, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  const independent = new Map(items.map((_, i) => [String(i), new Set<string>()]));
  await runInOrder(independent, limit, async (key) => {
    const i = Number(key);
    out[i] = await fn(items[i]);
    return true;
  });
  return out;
}
