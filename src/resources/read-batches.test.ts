import { attr } from './attributes';
import { defineResource, type OperationContext, type State } from './declaration';
import { Limiter } from './limiter';
import { readInBatches } from './read-batches';

/**
 * The scheduling of batched and single reads, over an in-memory kind: what is checked here
 * (how many calls run at once, which objects share a call) is not visible over HTTP.
 */
function recordingKind(opts: { failBatchWith?: string } = {}) {
  const calls: string[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const track = async <T>(ids: string[], answer: () => T): Promise<T> => {
    calls.push(ids);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 5));
    inFlight--;
    return answer();
  };
  const kind = defineResource({
    type: 'test_object',
    description: 'A test object.',
    schemaVersion: 0,
    attributes: { id: attr.string({ mode: 'required', description: 'Id.' }), group: attr.string({ mode: 'required', description: 'Group.' }) },
    importId: { format: 'id', parse: (id) => ({ id }) },
    identity: (s) => String(s.id),
    example: { name: 'x', config: {} },
    batchKey: (s) => String(s.group),
    batchSize: 3,
    read: (_ctx, s) =>
      track([String(s.id)], () => {
        if (String(s.id).startsWith('bad')) throw new Error(`cannot read ${String(s.id)}`);
        return String(s.id).startsWith('gone') ? null : { ...s };
      }),
    readMany: (_ctx, states) =>
      track(
        states.map((s) => String(s.id)),
        () => {
          if (opts.failBatchWith && states.some((s) => String(s.id).startsWith(opts.failBatchWith!))) throw new Error('batch refused');
          return states.map((s) => (String(s.id).startsWith('gone') ? null : { ...s }));
        },
      ),
    create: async (_ctx, p) => p,
    update: async (_ctx, _prior, p) => p,
    delete: async () => undefined,
  });
  return { kind, calls, maxInFlight: () => maxInFlight };
}

const ctx = {} as OperationContext; // the in-memory kind never uses the client
const request = (kind: ReturnType<typeof recordingKind>['kind'], id: string, group: string) => ({
  kind,
  address: `test_object.${id}`,
  state: { id, group } as State,
});

describe('readInBatches', () => {
  it('reads per batch key, cuts at the batch size, keeps the order and the bound', async () => {
    const k = recordingKind();
    const ids = ['a1', 'a2', 'a3', 'a4', 'b1', 'gone1', 'c1'];
    const groups = ['a', 'a', 'a', 'a', 'b', 'b', 'c'];
    const results = await readInBatches(
      ids.map((id, i) => request(k.kind, id, groups[i])),
      ctx,
      new Limiter(2),
    );
    expect(results.map((r) => (r.value === null ? null : (r.value as State).id))).toEqual(['a1', 'a2', 'a3', 'a4', 'b1', null, 'c1']);
    expect(k.calls.map((c) => c.join(',')).sort()).toEqual(['a1,a2,a3', 'a4', 'b1,gone1', 'c1']);
    expect(k.maxInFlight()).toBe(2);
  });

  it("reads each object alone when its batch fails, with each object's own error", async () => {
    const k = recordingKind({ failBatchWith: 'bad' });
    const results = await readInBatches(
      ['ok1', 'bad1', 'ok2'].map((id) => request(k.kind, id, 'g')),
      ctx,
      new Limiter(10),
    );
    expect(k.calls.map((c) => c.join(','))).toEqual(['ok1,bad1,ok2', 'ok1', 'bad1', 'ok2']);
    expect(results[0]).toEqual({ value: { id: 'ok1', group: 'g' }, diagnostics: [] });
    expect(results[1].value).toBeUndefined();
    expect(results[1].diagnostics).toEqual([expect.objectContaining({ severity: 'error', address: 'test_object.bad1', detail: 'cannot read bad1' })]);
    expect(results[2].value).toEqual({ id: 'ok2', group: 'g' });
  });
});
