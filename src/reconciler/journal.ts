import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { reconcilerErrors } from '../errors';
import { addressOf, writeAtomically, type StateChange, type StateDocument, type StateStore } from './state';

/**
 * The apply journal: what an apply changes in the state, appended beside the state file as
 * it happens, so that persisting one object costs one short append instead of rewriting the
 * whole state. One line per change (JSON), after a header naming the state it continues
 * (lineage and serial). Loading a state replays a journal that continues it, which covers a
 * crash at any point; the end of the apply writes the state and removes the journal.
 *
 * Appends are grouped: changes made while an fsync is under way go out in the next one, so
 * many objects finishing together cost one fsync.
 */

interface Header {
  readonly tenantform_journal: 1;
  readonly lineage: string;
  readonly serial: number;
}

/** Below this many recorded objects, a pending create rewrites the whole state, as it always did. */
export const WHOLE_STATE_WRITE_LIMIT = 100;

export function journalPath(statePath: string): string {
  return join(dirname(statePath), `${basename(statePath)}.journal`);
}

export class StateJournal {
  /** Changes not yet written to the journal file. */
  #unwritten: string[] = [];
  /** Every write, fsync and compaction, one after another. */
  #queue: Promise<void> = Promise.resolve();
  #failed: Error | undefined;

  private constructor(
    private readonly state: StateStore,
    /** Undefined for a state kept elsewhere than a local file: every change then writes the whole state. */
    private readonly path: string | undefined,
  ) {}

  /** Starts journaling the changes of `state` (saved first, so the journal continues a state on disk). */
  static async begin(state: StateStore): Promise<StateJournal> {
    const journal = new StateJournal(state, state.journalPath);
    if (journal.path === undefined) return journal;
    await journal.restart();
    state.observer = (change) => journal.#unwritten.push(JSON.stringify(change));
    return journal;
  }

  /** Resolves once every change made so far is on disk (in the journal or in the state file). */
  durable(): Promise<void> {
    if (this.path === undefined) return this.#enqueue(() => this.state.save());
    return this.#enqueue(() => this.#append());
  }

  /**
   * Durable before a create that cannot be repeated is sent. While the state is small the
   * whole state is written, exactly as without a journal; past that, the journal holds it.
   */
  durablePending(): Promise<void> {
    if (this.path === undefined || this.state.size >= WHOLE_STATE_WRITE_LIMIT) return this.durable();
    // Durable once the state is written: the create need not wait for the fresh journal.
    return new Promise((resolve, reject) => {
      this.#enqueue(() => this.#compact(resolve)).catch(reject);
    });
  }

  /** Writes the whole state and removes the journal; changes are no longer journaled. */
  async finish(): Promise<void> {
    this.state.observer = undefined;
    this.#unwritten = [];
    // Even after a failed append: the state holds everything, and is written as before.
    const done = this.#queue.then(async () => {
      await this.state.save();
      // A journal left behind by a crash here is ignored: the state's serial moved past it.
      if (this.path !== undefined) await fs.rm(this.path, { force: true });
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
    const lines = this.#unwritten.splice(0);
    const handle = await fs.open(this.path!, 'a', 0o600);
    try {
      await handle.writeFile(`${lines.join('\n')}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
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
    await writeAtomically(this.path!, `${JSON.stringify(header)}\n`, { backup: false });
  }
}

/**
 * The document with the changes of a journal that continues it (same lineage and serial)
 * applied in order. A journal of another state, or of an older serial (its apply finished
 * and wrote the state), is ignored. A last line cut short by a crash is ignored.
 */
export async function replayJournal(journalFile: string, doc: StateDocument): Promise<StateDocument> {
  let text: string;
  try {
    text = await fs.readFile(journalFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return doc;
    throw reconcilerErrors.stateUnreadable(journalFile, (err as Error).message);
  }
  const lines = text.split('\n');
  const header = parseLine(lines[0]) as Header | undefined;
  if (header?.tenantform_journal !== 1 || header.lineage !== doc.lineage || header.serial !== doc.serial) return doc;
  // Only complete lines count: the text after the last newline may be a torn write.
  const changes = lines.slice(1, -1).map(parseLine);
  const cut = changes.findIndex((c) => c === undefined);
  return applyChanges(doc, (cut < 0 ? changes : changes.slice(0, cut)) as StateChange[]);
}

function parseLine(line: string | undefined): unknown {
  try {
    return line ? JSON.parse(line) : undefined;
  } catch {
    return undefined;
  }
}

function applyChanges(doc: StateDocument, changes: readonly StateChange[]): StateDocument {
  const resources = new Map(doc.resources.map((r) => [addressOf(r), r]));
  const pending = new Map((doc.tenantform_pending ?? []).map((p) => [p.address, p]));
  const protectedSet = new Set(doc.tenantform_protected ?? []);
  for (const c of changes) {
    if (c.op === 'put') resources.set(addressOf(c.resource), c.resource);
    else if (c.op === 'remove') resources.delete(c.address);
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
