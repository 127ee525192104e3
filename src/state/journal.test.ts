import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import infraComponent from '../resources/kinds/infra-component';
import { StateJournal } from './journal';
import { journalPath } from './state-file';
import { StateStore } from './state';

const component = (id: string) => ({
  id,
  owner_tenant_id: 't',
  name: id,
  url: 'https://x',
  capabilities: ['backup'],
  location_id: null,
  content_url: null,
  content_mobile_url: null,
  backend_type: null,
  version: 1,
  platform_owned: false,
  readonly: false,
});
const ids = (store: StateStore) => store.objects().map((o) => o.attributes.id);

describe('apply journal', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tenantform-journal-'));
    path = join(dir, 'terraform.main.tfstate');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A journal with c1 removed, c2 and c3 recorded, one pending create, as a crash leaves it. */
  async function crashedApply(): Promise<void> {
    const store = await StateStore.open(path);
    store.put('tenantform_infra_component.c1', infraComponent, component('c1'), []);
    await store.save();
    const journal = await StateJournal.begin(store);
    store.remove('tenantform_infra_component.c1');
    store.put('tenantform_infra_component.c2', infraComponent, component('c2'), []);
    await journal.durable();
    store.addPending('tenantform_infra_component.c4', { name: 'c4' });
    store.put('tenantform_infra_component.c3', infraComponent, component('c3'), []);
    store.setProtected('tenantform_infra_component.c3', true);
    await journal.durable();
    // No finish(): the process is gone.
  }

  it('makes creates sent together durable with one write of the state, not one each in turn', async () => {
    const store = await StateStore.open(path);
    store.put('tenantform_infra_component.c1', infraComponent, component('c1'), []);
    const journal = await StateJournal.begin(store);
    const save = jest.spyOn(store, 'save');
    const durable = Array.from({ length: 10 }, (_, i) => {
      store.addPending(`tenantform_infra_component.n${i}`, { name: `n${i}` });
      return journal.durablePending();
    });
    await Promise.all(durable);
    expect(save).toHaveBeenCalledTimes(1);
    expect((await StateStore.open(path)).pending()).toHaveLength(10);
    // A create after that write started waits for a write of its own.
    store.addPending('tenantform_infra_component.late', { name: 'late' });
    await journal.durablePending();
    expect(save).toHaveBeenCalledTimes(2);
    expect((await StateStore.open(path)).pending()).toHaveLength(11);
  });

  it('replays the changes of an unfinished apply on the next load, a torn last line ignored', async () => {
    await crashedApply();
    expect(JSON.parse(readFileSync(path, 'utf8')).resources).toHaveLength(1);
    appendFileSync(journalPath(path), '{"op":"remove","addr');
    const loaded = await StateStore.open(path);
    expect(ids(loaded)).toEqual(['c2', 'c3']);
    expect(loaded.pending().map((p) => p.address)).toEqual(['tenantform_infra_component.c4']);
    expect(loaded.isProtected('tenantform_infra_component.c3')).toBe(true);
  });

  it('refuses a damaged journal, naming the file and the line, instead of reading past the damage', async () => {
    await crashedApply();
    const file = journalPath(path);
    const original = readFileSync(file, 'utf8');
    const lines = original.split('\n');
    const refusal = async () => {
      try {
        await StateStore.open(path);
      } catch (err) {
        return err as Error & { code?: string; detail?: string };
      }
      throw new Error('the damaged journal was read');
    };

    // One byte of the header changed.
    writeFileSync(file, original.replace('"tenantform_journal":1', '"tenantform_journal":7'));
    expect(await refusal()).toMatchObject({ code: 'journal_damaged', detail: expect.stringContaining(`${file}, line 1:`) });

    // A complete line in the middle that is not JSON.
    writeFileSync(file, [lines[0], lines[1].slice(0, -3), ...lines.slice(2)].join('\n'));
    expect(await refusal()).toMatchObject({ code: 'journal_damaged', detail: expect.stringContaining(`${file}, line 2: not a JSON line`) });

    // JSON that is no change: the line and what is wrong in it.
    writeFileSync(
      file,
      [
        lines[0],
        '{"op":"put-instance","resource":{"mode":"managed","type":"tenantform_infra_component","name":"c9"},"instance":{"schema_version":0}}',
        ...lines.slice(1),
      ].join('\n'),
    );
    expect(await refusal()).toMatchObject({
      code: 'journal_damaged',
      detail: expect.stringContaining('line 2: at instance.attributes: expected an object of attributes'),
    });

    // A journal of another state.
    writeFileSync(file, original.replace(/"lineage":"[^"]+"/, '"lineage":"another"'));
    expect(await refusal()).toMatchObject({ code: 'journal_damaged', detail: expect.stringContaining('it continues the state of lineage another') });
  });

  it('ignores a journal once the state was written after it, and removes it when the apply finishes', async () => {
    await crashedApply();
    const loaded = await StateStore.open(path);
    await loaded.save(); // the replayed changes are now in the state; the journal is behind it
    loaded.remove('tenantform_infra_component.c2');
    await loaded.save();
    expect(ids(await StateStore.open(path))).toEqual(['c3']);

    const journal = await StateJournal.begin(loaded);
    loaded.put('tenantform_infra_component.c5', infraComponent, component('c5'), []);
    await journal.durable();
    await journal.finish();
    expect(existsSync(journalPath(path))).toBe(false);
    expect(JSON.parse(readFileSync(path, 'utf8')).resources.map((r: { name: string }) => r.name)).toEqual(['c3', 'c5']);
  });

  it('journals a recorded object exactly as the state stores it (sensitive values only hashed)', async () => {
    const store = await StateStore.open(path);
    await store.save();
    const journal = await StateJournal.begin(store);
    store.put('tenantform_infra_component.c1', infraComponent, component('c1'), ['data.tenantform_tenant.a']);
    await journal.durable();
    const line = JSON.parse(readFileSync(journalPath(path), 'utf8').split('\n')[1]);
    const { instances, ...block } = JSON.parse(JSON.stringify(store.snapshot().resources[0]));
    expect(line).toEqual({ op: 'put-instance', resource: block, instance: instances[0] });
  });

  it('journals the instances of a large for_each block one line each, and replays them in order', async () => {
    const store = await StateStore.open(path);
    await store.save();
    const journal = await StateJournal.begin(store);
    const keys = Array.from({ length: 300 }, (_, i) => `tenant-${String(i).padStart(3, '0')}`).reverse();
    for (const key of keys) store.put(`tenantform_infra_component.each["${key}"]`, infraComponent, component(key), []);
    store.remove('tenantform_infra_component.each["tenant-150"]');
    await journal.durable();

    const lines = readFileSync(journalPath(path), 'utf8').trim().split('\n').slice(1);
    expect(lines).toHaveLength(301);
    // Each line carries one instance: the journal grows with the instances, not with their square.
    const longest = Math.max(...lines.map((l) => l.length));
    expect(longest).toBeLessThan(2_000);
    expect(JSON.parse(lines[300])).toEqual({ op: 'remove', address: 'tenantform_infra_component.each["tenant-150"]' });

    const replayed = await StateStore.open(path);
    const expected = keys.filter((k) => k !== 'tenant-150').sort();
    expect(ids(replayed)).toEqual(expected);
    expect(replayed.snapshot().resources[0].instances.map((i) => i.index_key)).toEqual(expected);
    expect(replayed.snapshot().resources[0].each).toBe('map');
  });

  it('replays a removal by block address, as journals written before instances were journaled have it', async () => {
    const store = await StateStore.open(path);
    store.put('tenantform_infra_component.many[0]', infraComponent, component('m0'), []);
    store.put('tenantform_infra_component.many[1]', infraComponent, component('m1'), []);
    store.put('tenantform_infra_component.one', infraComponent, component('one'), []);
    await store.save();
    const journal = await StateJournal.begin(store);
    await journal.durable();
    appendFileSync(journalPath(path), `${JSON.stringify({ op: 'remove', address: 'tenantform_infra_component.many' })}\n`);
    expect(ids(await StateStore.open(path))).toEqual(['one']);
  });
});
