import { parseInstanceAddress } from './addresses';
import { addressOf, type JournaledState, type JournalStore, type StateChange, type StateDocument, type StateResource } from './model';
import { stateErrors } from './errors';
import { isRecord } from '../plain-json';
import { quoted } from './file-schema';
import { journalChangeProblem } from './state-schema';
import { InstanceRecorder } from './instances';

/**
 * The apply journal: what an apply changes in the state, appended beside the state as it
 * happens (a file beside a local state, a table beside pg's), so that persisting one object
 * costs one short append instead of rewriting the whole state. One line per change (JSON),
 * after a header naming the state it continues (lineage and serial). Loading a state replays a
 * journal that continues it, which covers a crash at any point; the end of the apply writes the
 * state and removes the journal.
 *
 * Appends are grouped: changes made while an append is under way go out in the next one, so
 * many objects finishing together cost one fsync or one INSERT. Where a backend has no place
 * for a journal (http), the whole state is written instead, grouped the same way.
 */

interface Header {
  readonly tenantform_journal: 1;
  readonly lineage: string;
  readonly serial: number;
}

/** Below this many recorded objects, a pending create rewrites the whole state, as it always did. */
export const WHOLE_STATE_WRITE_LIMIT = 100;

export class StateJournal {
  /** Changes not yet written to the journal. */
  #unwritten: string[] = [];
  /** Every write, fsync and compaction, one after another. */
  #queue: Promise<void> = Promise.resolve();
  #failed: Error | undefined;
  /** A whole-state write queued and not started yet: whoever needs one joins it. */
  #queuedSave: Promise<void> | undefined;
  /** The same for the write that makes pending creates durable (see durablePending). */
  #queuedCompaction: Promise<void> | undefined;

  private constructor(
    private readonly state: JournaledState,
    /** Undefined where the backend keeps no journal: every change then writes the whole state. */
    private readonly store: JournalStore | undefined,
  ) {}

  /** Starts journaling the changes of `state` (saved first, so the journal continues a stored state). */
  static async begin(state: JournaledState): Promise<StateJournal> {
    const journal = new StateJournal(state, state.journal);
    if (journal.store === undefined) return journal;
    await journal.restart();
    state.observer = (change) => journal.#unwritten.push(JSON.stringify(change));
    return journal;
  }

  /** Resolves once every change made so far is stored (in the journal or in the state). */
  durable(): Promise<void> {
    if (this.store === undefined) return this.#save();
    return this.#enqueue(() => this.#append());
  }

  /** The whole state written; changes made while a write is under way go out together in the next one. */
  #save(): Promise<void> {
    this.#queuedSave ??= this.#enqueue(() => {
      this.#queuedSave = undefined;
      return this.state.save();
    });
    return this.#queuedSave;
  }

  /**
   * Durable before a create that cannot be repeated is sent. While the state is small the
   * whole state is written, exactly as without a journal; past that, the journal holds it.
   */
  durablePending(): Promise<void> {
    if (this.store === undefined || this.state.size >= WHOLE_STATE_WRITE_LIMIT) return this.durable();
    // Durable once the state is written: the create need not wait for the fresh journal. A write
    // queued and not started yet holds this pending create too: creates sent together wait for
    // one write, not one each in turn.
    this.#queuedCompaction ??= new Promise((resolve, reject) => {
      this.#enqueue(() => {
        this.#queuedCompaction = undefined;
        return this.#compact(resolve);
      }).catch(reject);
    });
    return this.#queuedCompaction;
  }

  /** Writes the whole state and removes the journal; changes are no longer journaled. */
  async finish(): Promise<void> {
    this.state.observer = undefined;
    this.#unwritten = [];
    // Even after a failed append: the state holds everything, and is written as before.
    const done = this.#queue.then(async () => {
      await this.state.save();
      // A journal left behind by a crash here is ignored: the state's serial moved past it.
      await this.store?.remove();
    });
    this.#queue = done.catch(() => undefined);
    await done;
  }

  #enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.#queue.then(() => {
      if (this.#failed) throw this.#failed;
      return step();
    });
    this.#queue = next.catch((err: Error) => {
      this.#failed ??= err;
    });
    return next;
  }

  async #append(): Promise<void> {
    if (this.#unwritten.length === 0) return;
    await this.store!.append(this.#unwritten.splice(0));
  }

  /**
   * The whole state written, then a fresh journal continuing it. Changes made while the state
   * is written may or may not be in it: they stay unwritten and go into the fresh journal
   * (replaying a change the state already has changes nothing).
   */
  async #compact(written: () => void): Promise<void> {
    this.#unwritten = [];
    await this.state.save();
    written();
    await this.restart();
    await this.#append();
  }

  private async restart(): Promise<void> {
    const header: Header = { tenantform_journal: 1, lineage: this.state.lineage, serial: this.state.serial };
    await this.store!.restart(JSON.stringify(header));
  }
}

/**
 * The document with the changes of a journal that continues it (same lineage and serial)
 * applied in order. A journal of another state, or of an older serial (its apply finished
 * and wrote the state), is ignored. A last line cut short by a crash is ignored.
 */
export async function replayJournal(store: JournalStore, doc: StateDocument): Promise<StateDocument> {
  const journal = await store.read();
  if (journal === undefined) return doc;
  const damaged = (line: number, reason: string) => stateErrors.journalDamaged(store.location, line, reason);
  const header = parseLine(journal.header);
  if (!isHeader(header)) throw damaged(1, `expected the journal's header ({"tenantform_journal":1, lineage, serial}), found ${quoted(journal.header)}`);
  // A journal older than the state was written over since (the apply ended after writing the state).
  if (header.lineage === doc.lineage && header.serial < doc.serial) return doc;
  if (header.lineage !== doc.lineage || header.serial !== doc.serial) {
    throw damaged(
      1,
      `it continues the state of lineage ${header.lineage} at serial ${header.serial}, not this one (lineage ${doc.lineage}, serial ${doc.serial})`,
    );
  }
  // Only complete lines are read (a torn last line is left out): every one of them must hold.
  const changes: StateChange[] = [];
  for (let i = 0; i < journal.lines.length; i++) {
    const change = parseLine(journal.lines[i]);
    const problem = change === undefined ? 'not a JSON line' : journalChangeProblem(change);
    if (problem !== undefined) throw damaged(i + 2, problem);
    changes.push(change as StateChange);
  }
  return applyChanges(doc, changes);
}

function isHeader(h: unknown): h is Header {
  return isRecord(h) && h.tenantform_journal === 1 && typeof h.lineage === 'string' && typeof h.serial === 'number';
}

function parseLine(line: string | undefined): unknown {
  try {
    return line ? JSON.parse(line) : undefined;
  } catch {
    return undefined;
  }
}

/** Removes an instance, or a whole block when the address names no instance (as journals before instances did). */
function removeFrom(resources: Map<string, StateResource>, recorder: InstanceRecorder, address: string): void {
  const parsed = parseInstanceAddress(address);
  const block = resources.get(parsed?.block ?? address);
  if (!parsed || parsed.key === undefined || !block) {
    resources.delete(parsed?.block ?? address);
    return;
  }
  const rest = recorder.withoutInstance(block, parsed.key);
  if (rest) resources.set(parsed.block, rest);
  else resources.delete(parsed.block);
}

function applyChanges(doc: StateDocument, changes: readonly StateChange[]): StateDocument {
  const resources = new Map(doc.resources.map((r) => [addressOf(r), r]));
  const pending = new Map((doc.tenantform_pending ?? []).map((p) => [p.address, p]));
  const protectedSet = new Set(doc.tenantform_protected ?? []);
  const recorder = new InstanceRecorder();
  for (const c of changes) {
    if (c.op === 'put') resources.set(addressOf(c.resource), c.resource);
    else if (c.op === 'put-instance') resources.set(addressOf(c.resource), recorder.withInstance(resources.get(addressOf(c.resource)), c.resource, c.instance));
    else if (c.op === 'remove') removeFrom(resources, recorder, c.address);
    else if (c.op === 'pending') pending.set(c.entry.address, c.entry);
    else if (c.op === 'unpending') pending.delete(c.address);
    else if (c.protect) protectedSet.add(c.address);
    else protectedSet.delete(c.address);
  }
  const out: StateDocument = { ...doc, resources: [...resources.values()] };
  delete out.tenantform_pending;
  delete out.tenantform_protected;
  if (pending.size > 0) out.tenantform_pending = [...pending.values()];
  if (protectedSet.size > 0) out.tenantform_protected = [...protectedSet].sort();
  return out;
}
