import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { reconcilerErrors } from '../errors';

/** The lock's record, with the fields Terraform's local backend writes. */
export interface LockInfo {
  ID: string;
  Operation: string;
  Info: string;
  Who: string;
  Version: string;
  Created: string;
  Path: string;
}

export interface StateLock {
  readonly info: LockInfo;
  release(): void;
}

export function lockPath(statePath: string): string {
  return `${statePath}.lock.info`;
}

/**
 * Takes the lock of a state file: `<state>.lock.info`, created exclusively. A second run
 * fails with who holds it, since when, and how to remove a lock left by a crash. The lock is
 * released by `release()`, and on SIGINT or SIGTERM (the process then exits).
 */
export function acquireLock(statePath: string, operation: string, version: string): StateLock {
  const file = lockPath(statePath);
  const info: LockInfo = {
    ID: randomUUID(),
    Operation: operation,
    Info: '',
    Who: `${safeUser()}@${hostname()}`,
    Version: version,
    Created: new Date().toISOString(),
    Path: statePath,
  };
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw reconcilerErrors.stateLocked(statePath, readLock(statePath) ?? {});
    throw err;
  }
  try {
    writeSync(fd, `${JSON.stringify(info, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    try {
      if (readLock(statePath)?.ID === info.ID) unlinkSync(file);
    } catch {
      // Already gone (force-unlocked): nothing to release.
    }
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    release();
    process.stderr.write(`\nInterrupted (${signal}): the state lock was released. Run the command again to continue.\n`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return { info, release };
}

/** The current lock of a state file; undefined when it is not locked. */
export function readLock(statePath: string): Partial<LockInfo> | undefined {
  try {
    return JSON.parse(readFileSync(lockPath(statePath), 'utf8')) as Partial<LockInfo>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    // A lock being written, or damaged: it still locks.
    return {};
  }
}

/** Removes a lock left by a run that stopped, after checking its id. */
export function forceUnlock(statePath: string, id: string): LockInfo {
  const current = readLock(statePath);
  if (!current) throw reconcilerErrors.lockNotFound(statePath);
  if (current.ID !== id) throw reconcilerErrors.lockIdMismatch(statePath, id, current.ID);
  unlinkSync(lockPath(statePath));
  return current as LockInfo;
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}
