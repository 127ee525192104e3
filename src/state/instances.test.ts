import { findInstance, InstanceRecorder } from './instances';
import type { StateBlock, StateInstance, StateResource } from './model';

const header: StateBlock = { mode: 'managed', type: 'tenantform_tenant', name: 'customer', each: 'map', provider: 'p' };

/** An instance that counts how often its key is read. */
function counted(key: string | number, reads: { n: number }): StateInstance {
  const instance = { schema_version: 0, attributes: { key }, sensitive_attributes: [] } as StateInstance;
  Object.defineProperty(instance, 'index_key', {
    get: () => {
      reads.n++;
      return key;
    },
    enumerable: true,
  });
  return instance;
}

function keysOf(r: StateResource | undefined): Array<string | number | undefined> {
  return r?.instances.map((i) => i.index_key) ?? [];
}

function recordAll(recorder: InstanceRecorder, keys: ReadonlyArray<string>, reads = { n: 0 }): StateResource {
  let block: StateResource | undefined;
  for (const key of keys) block = recorder.withInstance(block, header, counted(key, reads));
  return block!;
}

describe('recording instances into a block', () => {
  const keys = Array.from({ length: 1000 }, (_, i) => `c${String(i).padStart(4, '0')}`);

  it('records an instance without copying the others or reading every key, once the block is its own', () => {
    const recorder = new InstanceRecorder();
    const reads = { n: 0 };
    const block = recordAll(recorder, keys, reads);
    reads.n = 0;
    const next = recorder.withInstance(block, header, counted('c0500x', reads));
    expect(next.instances).toBe(block.instances);
    // A binary search: about twice log2(1000), not the thousand a scan reads.
    expect(reads.n).toBeLessThan(40);
    expect(next.instances[501].index_key).toBe('c0500x');
  });

  it('copies a list it did not make once, and leaves the original as it was', () => {
    const recorder = new InstanceRecorder();
    const theirs: StateResource = { ...header, instances: [counted('b', { n: 0 }), counted('d', { n: 0 })] };
    const first = recorder.withInstance(theirs, header, counted('c', { n: 0 }));
    const second = recorder.withInstance(first, header, counted('a', { n: 0 }));
    expect(keysOf(theirs)).toEqual(['b', 'd']);
    expect(first.instances).not.toBe(theirs.instances);
    expect(second.instances).toBe(first.instances);
    expect(keysOf(second)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('replaces the instance of the same key in place, also in a list out of order', () => {
    const recorder = new InstanceRecorder();
    const sorted = recorder.withInstance(recordAll(recorder, ['a', 'b', 'c']), header, { ...counted('b', { n: 0 }), attributes: { v: 2 } });
    expect(keysOf(sorted)).toEqual(['a', 'b', 'c']);
    expect(sorted.instances[1].attributes).toEqual({ v: 2 });
    const unsorted: StateResource = { ...header, instances: ['c', 'a', 'b'].map((k) => counted(k, { n: 0 })) };
    const replaced = recorder.withInstance(unsorted, header, { ...counted('a', { n: 0 }), attributes: { v: 3 } });
    expect(keysOf(replaced)).toEqual(['c', 'a', 'b']);
    expect(replaced.instances[1].attributes).toEqual({ v: 3 });
  });

  it('drops the instances of another kind of block, and orders count indexes as numbers', () => {
    const recorder = new InstanceRecorder();
    const list = { ...header, each: 'list' as const };
    let block = recorder.withInstance(recordAll(recorder, ['a']), list, counted(10, { n: 0 }));
    block = recorder.withInstance(block, list, counted(9, { n: 0 }));
    expect(keysOf(block)).toEqual([9, 10]);
  });

  it('removes an instance in place, and the block with its last one', () => {
    const recorder = new InstanceRecorder();
    const reads = { n: 0 };
    const block = recordAll(recorder, keys, reads);
    reads.n = 0;
    const rest = recorder.withoutInstance(block, 'c0500');
    expect(rest!.instances).toBe(block.instances);
    expect(reads.n).toBeLessThan(40);
    expect(keysOf(rest)).toEqual(keys.filter((k) => k !== 'c0500'));
    expect(keysOf(recorder.withoutInstance(rest!, 'none'))).toHaveLength(999);
    const unsorted: StateResource = { ...header, instances: ['c', 'a', 'b'].map((k) => counted(k, { n: 0 })) };
    expect(keysOf(recorder.withoutInstance(unsorted, 'a'))).toEqual(['c', 'b']);
    expect(keysOf(unsorted)).toEqual(['c', 'a', 'b']);
    expect(recorder.withoutInstance(recordAll(recorder, ['only']), 'only')).toBeUndefined();
  });
});

describe('finding an instance of a block', () => {
  const keys = Array.from({ length: 1000 }, (_, i) => `c${String(i).padStart(4, '0')}`);

  it('finds each of a block in order by binary search: looking up all of them stays linear', () => {
    const reads = { n: 0 };
    const list = keys.map((k) => counted(k, reads));
    expect(findInstance(list, 'c0000')).toBe(list[0]);
    reads.n = 0;
    for (const [i, key] of keys.entries()) expect(findInstance(list, key)).toBe(list[i]);
    // About twice log2(1000) reads each, not the 500 of a scan on average.
    expect(reads.n / keys.length).toBeLessThan(40);
    expect(findInstance(list, 'c0500x')).toBeUndefined();
  });

  it('skips a deposed object of the key, and scans a list out of order', () => {
    const current = { ...counted('b', { n: 0 }), attributes: { v: 'current' } };
    const deposed = { ...counted('b', { n: 0 }), deposed: '00000001', attributes: { v: 'deposed' } } as StateInstance;
    expect(findInstance([counted('a', { n: 0 }), deposed, current], 'b')).toBe(current);
    const unsorted = ['c', 'a', 'b'].map((k) => counted(k, { n: 0 }));
    expect(findInstance(unsorted, 'a')).toBe(unsorted[1]);
    expect(findInstance(unsorted, 'd')).toBeUndefined();
  });

  it('finds what the recorder records, as it records it', () => {
    const recorder = new InstanceRecorder();
    let block: StateResource | undefined;
    for (const key of ['m', 'c', 'x', 'a']) {
      block = recorder.withInstance(block, header, counted(key, { n: 0 }));
      expect(findInstance(block.instances, key)?.index_key).toBe(key);
    }
    expect(findInstance(block!.instances, 'c')?.index_key).toBe('c');
  });
});
