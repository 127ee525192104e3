import { reconcilerErrors } from '../errors';

/** Dependencies by address: each entry lists the addresses it needs first. */
export type DependencyMap = ReadonlyMap<string, ReadonlySet<string>>;

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
    if (seen === 'visiting') throw reconcilerErrors.dependencyCycle(stack.slice(stack.indexOf(address)));
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

/**
 * Runs `work` for every address once all its dependencies succeeded, at most `parallelism`
 * at a time. An address whose dependency failed (or was skipped) is skipped, not run.
 * Returns the addresses that failed and those skipped.
 */
export async function runInOrder(
  deps: DependencyMap,
  parallelism: number,
  work: (address: string) => Promise<boolean>,
): Promise<{ failed: string[]; skipped: string[] }> {
  dependencyOrder(deps); // refuse cycles before anything runs
  const needs = (a: string) => [...(deps.get(a) ?? [])].filter((d) => deps.has(d));
  const waiting = new Set(deps.keys());
  const ok = new Set<string>();
  const failed = new Set<string>();
  const skipped = new Set<string>();
  let running = 0;
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      for (let changed = true; changed;) {
        changed = false;
        for (const a of waiting) {
          if (needs(a).some((d) => failed.has(d) || skipped.has(d))) {
            waiting.delete(a);
            skipped.add(a);
            changed = true;
          }
        }
      }
      for (const a of waiting) {
        if (running >= parallelism) break;
        if (!needs(a).every((d) => ok.has(d))) continue;
        waiting.delete(a);
        running++;
        work(a).then(
          (succeeded) => {
            running--;
            (succeeded ? ok : failed).add(a);
            pump();
          },
          (err: unknown) => reject(err),
        );
      }
      if (running === 0 && waiting.size === 0) resolve({ failed: [...failed], skipped: [...skipped] });
    };
    pump();
  });
}

/** Maps items with at most `limit` calls in flight; results keep the input order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}
