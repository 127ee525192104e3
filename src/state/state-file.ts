import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { stateErrors } from './errors';
import { fileKind } from '../input-file';
import { isBlank, parsePlainJson } from '../plain-json';
import { stateProblem } from './state-schema';
import type { JournalStore, StateStorage } from './model';

/** A state kept in a local file: read as it is, replaced atomically and durably. */

/**
 * A state file read and written as it is, without a lock. `putInPlace` writes a state recovered
 * from an interrupted rewrite over the file (a locked file is rewritten in place, not replaced).
 */
export function localStateFile(
  path: string,
  putInPlace: (text: string) => Promise<void> = (text) => writeAtomically(path, text, { backup: false }),
): StateStorage {
  return {
    location: path,
    journal: journalFile(path),
    read: async () => {
      await refuseIrregularFile(path);
      const text = await readStateText(path);
      // Terraform creates the file empty when it takes its lock on a new state.
      const state = text === undefined || isBlank(text) ? undefined : text;
      const writing = `${path}.writing`;
      const interrupted = await readStateText(writing);
      if (interrupted === undefined || isBlank(interrupted)) return state;
      const recovered = await recoverableWrite(path, state, interrupted);
      if (recovered === undefined) return state;
      await putInPlace(interrupted);
      await fs.rm(writing, { force: true });
      process.stderr.write(
        `Warning: the last write of ${path} was interrupted. ${writing} held the complete state being written ` +
          `(serial ${recovered.serial}, the same lineage), newer than ${state === undefined ? 'the empty state' : 'the state'}: it is now in place.\n`,
      );
      return interrupted;
    },
    write: (text) => writeAtomically(path, text),
  };
}

/** Lineage and serial of a state's text; undefined when it is not JSON. */
function header(text: string | undefined): { lineage?: unknown; serial?: unknown } | undefined {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as { lineage?: unknown; serial?: unknown });
  } catch {
    return undefined;
  }
}

function isCompleteState(text: string): boolean {
  try {
    return stateProblem(parsePlainJson(text)) === undefined;
  } catch {
    return false;
  }
}

/**
 * `<path>.writing` is left behind only by a rewrite of the locked file that was interrupted (see
 * the local backend). When it is a complete state newer than the state (or, the state being empty
 * or damaged, than `<path>.backup`, the state the rewrite replaced), and of the same lineage, it is
 * what the state should be: its serial is returned. When it is newer but that is not proven, the
 * state must not be read as it is (objects recorded only in the newer one would be created again):
 * refused. A `.writing` no newer than the state (written over since, by Terraform say) changes nothing.
 */
async function recoverableWrite(path: string, state: string | undefined, interrupted: string): Promise<{ serial: number } | undefined> {
  const newer = header(interrupted);
  if (newer === undefined || typeof newer.serial !== 'number') return undefined; // not a state: nothing to recover from it
  const serial = newer.serial;
  const current = header(state);
  const proven = (before: { lineage?: unknown; serial?: unknown } | undefined): boolean =>
    before !== undefined && before.lineage === newer.lineage && typeof before.serial === 'number' && serial >= before.serial && isCompleteState(interrupted);
  if (state !== undefined && current !== undefined) {
    if (current.lineage !== newer.lineage || typeof current.serial !== 'number' || serial <= current.serial) return undefined;
    if (proven(current)) return { serial };
    throw stateErrors.stateWriteInterrupted(path, `is at the older serial ${current.serial}`, serial);
  }
  if (proven(header(await readStateText(`${path}.backup`)))) return { serial };
  throw stateErrors.stateWriteInterrupted(path, state === undefined ? 'is empty' : 'is damaged', serial);
}

/** The text of a state-side file (the state, its journal); undefined when there is none. */
export async function readStateText(path: string): Promise<string | undefined> {
  try {
    // Decoded at once: read with an encoding, the text is built piece by piece and copied again to be parsed.
    return (await fs.readFile(path)).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw stateErrors.stateUnreadable(path, (err as Error).message);
  }
}

/**
 * Refuses a path that names something other than a regular file (a device, a FIFO, a directory,
 * a symbolic link): tenantform replaces the files it writes, and removes a state it left empty.
 */
export async function refuseIrregularFile(path: string): Promise<void> {
  let kind: string | undefined;
  try {
    const st = await fs.lstat(path);
    if (st.isFile()) return;
    kind = fileKind(st);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw stateErrors.stateUnreadable(path, (err as Error).message);
  }
  throw stateErrors.notARegularFile(path, kind);
}

/** Temporary file in the same directory, fsync, rename; with `backup`, the file it replaces becomes `<path>.backup`. */
export async function writeAtomically(path: string, text: string, opts: { backup: boolean } = { backup: true }): Promise<void> {
  await refuseIrregularFile(path);
  const dir = dirname(path);
  await fs.mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  await writeSynced(temp, text);
  try {
    if (opts.backup) {
      await fs.copyFile(path, `${temp}.backup`);
      await fs.rename(`${temp}.backup`, `${path}.backup`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await fs.rename(temp, path);
  await syncDirectory(dir);
}

/** Writes text and waits until it is on disk: `wx` a new file, `a` appended to one. */
export async function writeSynced(path: string, text: string, flag: 'wx' | 'a' = 'wx'): Promise<void> {
  const handle = await fs.open(path, flag, 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}

export function journalPath(statePath: string): string {
  return join(dirname(statePath), `${basename(statePath)}.journal`);
}

/** The journal file beside a local state file. */
export function journalFile(statePath: string): JournalStore {
  const path = journalPath(statePath);
  return {
    location: path,
    restart: (header) => writeAtomically(path, `${header}\n`, { backup: false }),
    append: (lines) => writeSynced(path, `${lines.join('\n')}\n`, 'a'),
    read: async () => {
      const text = await readStateText(path);
      if (text === undefined) return undefined;
      const lines = text.split('\n');
      // Only complete lines count: the text after the last newline may be a torn write.
      return { header: lines[0], lines: lines.slice(1, -1) };
    },
    remove: () => fs.rm(path, { force: true }),
  };
}
