import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { stateErrors } from './errors';
import { fileKind } from '../input-file';
import { isBlank } from '../plain-json';
import type { JournalStore, StateStorage } from './model';

/** A state kept in a local file: read as it is, replaced atomically and durably. */

/** A state file read and written as it is, without a lock. */
export function localStateFile(path: string): StateStorage {
  return {
    location: path,
    journal: journalFile(path),
    read: async () => {
      await refuseIrregularFile(path);
      const text = await readStateText(path);
      // Terraform creates the file empty when it takes its lock on a new state.
      const state = text === undefined || isBlank(text) ? undefined : text;
      const interrupted = await readStateText(`${path}.writing`);
      if (interrupted !== undefined && !isBlank(interrupted)) refuseInterruptedWrite(path, state, interrupted);
      return state;
    },
    write: (text) => writeAtomically(path, text),
  };
}

/**
 * `<path>.writing` is left behind only by a rewrite of the locked file that was interrupted (see
 * the local backend). When it is newer than the state (or the state is empty or damaged), the
 * state must not be read as it is: objects recorded only in the newer one would be created again.
 * A `.writing` no newer than the state (written over since, by Terraform say) changes nothing.
 */
function refuseInterruptedWrite(path: string, state: string | undefined, interrupted: string): void {
  const header = (text: string | undefined): { lineage?: unknown; serial?: unknown } | undefined => {
    try {
      return text === undefined ? undefined : (JSON.parse(text) as { lineage?: unknown; serial?: unknown });
    } catch {
      return undefined;
    }
  };
  const newer = header(interrupted);
  if (newer === undefined || typeof newer.serial !== 'number') return; // not a state: nothing to recover from it
  const current = header(state);
  if (state === undefined) throw stateErrors.stateWriteInterrupted(path, 'is empty', newer.serial);
  if (current === undefined) throw stateErrors.stateWriteInterrupted(path, 'is damaged', newer.serial);
  if (current.lineage === newer.lineage && typeof current.serial === 'number' && newer.serial > current.serial) {
    throw stateErrors.stateWriteInterrupted(path, `is at the older serial ${current.serial}`, newer.serial);
  }
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
