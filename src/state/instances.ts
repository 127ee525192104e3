import type { StateBlock, StateInstance, StateResource } from './model';

/**
 * Records instances into the blocks of one state document, one at a time. The first change to
 * a block copies its list of instances; the copy, which nothing else holds, then changes in
 * place, and while it is in Terraform's order an instance finds its place by binary search.
 * Recording a block's instances one by one thus stays linear in them: a copy and a scan per
 * instance made an apply of 100,000 `for_each` instances quadratic.
 */
/**
 * Whether a block's list of instances is in Terraform's order, found once per list. It does not
 * change: a list read from a document is never changed (the recorder copies it first), and the
 * recorder keeps its own lists in the order they were found in.
 */
const inOrder = new WeakMap<readonly StateInstance[], boolean>();

function isInOrder(list: readonly StateInstance[]): boolean {
  let sorted = inOrder.get(list);
  if (sorted === undefined) {
    sorted = list.every((instance, i) => i === 0 || compareKeys(list[i - 1].index_key, instance.index_key) <= 0);
    inOrder.set(list, sorted);
  }
  return sorted;
}

/**
 * The current (not deposed) instance of `key` in a block's list: by binary search when the list
 * is in Terraform's order, as written lists are, so that looking up each of a block's 20,000
 * instances stays linear in them.
 */
export function findInstance(list: readonly StateInstance[], key: StateInstance['index_key']): StateInstance | undefined {
  const current = (i: StateInstance) => i.index_key === key && !('deposed' in i);
  if (!isInOrder(list)) return list.find(current);
  for (let at = lowerBound(list, key); at < list.length && compareKeys(list[at].index_key, key) === 0; at++) if (current(list[at])) return list[at];
  return undefined;
}

export class InstanceRecorder {
  /** The lists this recorder made: they change in place. */
  readonly #owned = new WeakSet<StateInstance[]>();

  /**
   * The block `header` with `instance` recorded in it: in the place of the instance with the
   * same key, or where Terraform's order puts it. Instances of another kind of block (count
   * before, for_each now) are dropped.
   */
  withInstance(existing: StateResource | undefined, header: StateBlock, instance: StateInstance): StateResource {
    const { list, sorted } = this.#own(existing && existing.each === header.each ? existing.instances : []);
    const key = instance.index_key;
    if (sorted) {
      const at = lowerBound(list, key);
      const same = indexOfKeyFrom(list, at, key);
      if (same >= 0) list[same] = instance;
      else list.splice(at, 0, instance);
    } else {
      const same = list.findIndex((i) => i.index_key === key);
      if (same >= 0) list[same] = instance;
      else list.splice(lowerBound(list, key), 0, instance);
    }
    return { ...header, instances: list };
  }

  /** The block without the instances of `key`; undefined when none is left. */
  withoutInstance(existing: StateResource, key: StateInstance['index_key']): StateResource | undefined {
    const { list, sorted } = this.#own(existing.instances);
    // In Terraform's order, the instances of a key sit among those the order puts level with it.
    const from = sorted ? lowerBound(list, key) : 0;
    let kept = from;
    let at = from;
    for (; at < list.length && (!sorted || compareKeys(list[at].index_key, key) === 0); at++) if (list[at].index_key !== key) list[kept++] = list[at];
    if (kept < at) list.splice(kept, at - kept);
    return list.length > 0 ? { ...existing, instances: list } : undefined;
  }

  #own(instances: StateInstance[]): { list: StateInstance[]; sorted: boolean } {
    if (this.#owned.has(instances)) return { list: instances, sorted: isInOrder(instances) };
    const list = [...instances];
    this.#owned.add(list);
    inOrder.set(list, isInOrder(instances));
    return { list, sorted: isInOrder(list) };
  }
}

/** The first position whose key does not come before `key` in Terraform's order. */
function lowerBound(list: readonly StateInstance[], key: StateInstance['index_key']): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareKeys(list[middle].index_key, key) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The position of `key` among the instances from `at` that the order puts level with it; -1 when it is not there. */
function indexOfKeyFrom(list: readonly StateInstance[], at: number, key: StateInstance['index_key']): number {
  for (let i = at; i < list.length && compareKeys(list[i].index_key, key) === 0; i++) if (list[i].index_key === key) return i;
  return -1;
}

function compareKeys(x: StateInstance['index_key'], y: StateInstance['index_key']): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
}
