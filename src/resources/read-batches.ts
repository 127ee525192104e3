import type { OperationContext, ResourceKind, State } from './declaration';
import type { Limiter } from './limiter';
import { readResource, readResourcesInBatch, type OperationResult } from './operations';

/** One recorded object to read back. */
export interface ReadRequest {
  readonly kind: ResourceKind;
  readonly address: string;
  readonly state: State;
}

/**
 * Reads recorded objects in as few requests as the platform allows: objects a kind can read
 * together go in one `readMany` request (grouped by `batchKey`, at most `batchSize` each), the
 * rest one by one, all of them sharing `limiter`, so batches and single reads overlap. A batch
 * that fails is read again one object at a time, which reports each object's own error.
 * Results are in the order of `requests`.
 */
export async function readInBatches(
  requests: readonly ReadRequest[],
  ctx: OperationContext,
  limiter: Limiter,
): Promise<Array<OperationResult<State | null>>> {
  const results = new Array<OperationResult<State | null>>(requests.length);
  const readAlone = (i: number) =>
    limiter.run(async () => {
      const r = requests[i];
      results[i] = await readResource({ kind: r.kind, address: r.address, ctx, state: r.state });
    });
  const readTogether = async (batch: number[]) => {
    const items = batch.map((i) => ({ address: requests[i].address, state: requests[i].state }));
    const read = await limiter.run(() => readResourcesInBatch({ kind: requests[batch[0]].kind, ctx, items }));
    if (read) read.forEach((r, n) => (results[batch[n]] = r));
    else await Promise.all(batch.map(readAlone));
  };
  const work: Array<Promise<void>> = [];
  for (const batch of batches(requests)) work.push(batch.length > 1 || requests[batch[0]].kind.batchKey ? readTogether(batch) : readAlone(batch[0]));
  await Promise.all(work);
  return results;
}

/**
 * Indices of the requests, grouped into what one request can read: per kind and batch key,
 * cut at the kind's batch size. Kinds without `readMany` get one group per object. Larger
 * groups come first, so that the longest requests start early.
 */
function batches(requests: readonly ReadRequest[]): number[][] {
  const groups = new Map<string, number[]>();
  const singles: number[][] = [];
  requests.forEach((r, i) => {
    if (!r.kind.readMany) {
      singles.push([i]);
      return;
    }
    const key = `${r.kind.type}\0${r.kind.batchKey?.(r.state) ?? ''}`;
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  });
  const out: number[][] = [];
  for (const group of groups.values()) {
    const size = requests[group[0]].kind.batchSize ?? group.length;
    for (let at = 0; at < group.length; at += size) out.push(group.slice(at, at + size));
  }
  return [...out.sort((a, b) => b.length - a.length), ...singles];
}
