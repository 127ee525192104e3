import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { backendErrors } from './errors';
import { isBlank } from '../plain-json';
import { localStateFile, refuseIrregularFile, writeAtomically } from '../state/state-file';
import { FcntlLocker } from './fcntl';
import { parseLockInfo, type LockHolder, type LockInfo } from './lock-info';
import type { JournalStore } from '../state/model';
import type { ForceUnlockOutcome, HeldLock, LockAttempt, StateBackend } from './types';

/** Where Terraform's local backend records who holds the lock: `.<state file name>.lock.info` beside it. */
export function lockInfoPath(statePath: string): string {
  return join(dirname(statePath), `.${basename(statePath)}.lock.info`);
}

/**
 * Where Perl cannot run, locking a local state refuses (a lock that `terraform` cannot see is
 * no lock to a Terraform user), unless this variable is set to `tenantform-only`: the
 * lock-info file, created exclusively, is then the lock, excluding other tenantform runs only.
 */
export const TENANTFORM_ONLY_LOCK = { variable: 'TENANTFORM_LOCAL_LOCK', value: 'tenantform-only' } as const;

/**
 * Terraform's `local` backend. The lock is Terraform's: a POSIX record lock (fcntl) on the
 * state file, held for the whole run, with the LockInfo written to `.<name>.lock.info` for
 * whoever finds it busy. As in Terraform, the record lock alone decides: a lock-info file
 * left by a crash does not lock. While the record lock is held, the state is written into the
 * locked file itself, as Terraform does: a Terraform run waiting for the lock (-lock-timeout)
 * holds that file open, and would otherwise read and write a file replaced under it.
 */
export class LocalBackend implements StateBackend {
  readonly type = 'local';
  private locker?: Promise<FcntlLocker | undefined>;
  private held?: { token?: string; info: LockInfo };
  private readonly file;
  private readonly tenantformOnlyLock: boolean;

  constructor(
    readonly path: string,
    env: NodeJS.ProcessEnv,
  ) {
    // A locked file keeps its inode: the lock (and a terraform waiting on it) stays on it.
    this.file = localStateFile(path, (text) => (this.held?.token === undefined ? writeAtomically(path, text, { backup: false }) : rewriteLocked(path, text)));
    this.tenantformOnlyLock = env[TENANTFORM_ONLY_LOCK.variable] === TENANTFORM_ONLY_LOCK.value;
  }

  get location(): string {
    return this.path;
  }

  get journal(): JournalStore | undefined {
    return this.file.journal;
  }

  read(): Promise<string | undefined> {
    return this.file.read();
  }

  async write(text: string): Promise<void> {
    if (this.held?.token === undefined) return writeAtomically(this.path, text);
    await writeInPlace(this.path, text);
  }

  async tryLock(info: LockInfo): Promise<LockAttempt> {
    await refuseIrregularFile(this.path);
    const locker = await this.fcntl();
    if (!locker && !this.tenantformOnlyLock) {
      const why =
        process.platform === 'win32'
          ? 'Terraform locks a local state on Windows with LockFileEx, which tenantform cannot take.'
          : 'Terraform locks a local state with a POSIX record lock (fcntl), which tenantform takes through Perl, and perl could not be started: install Perl (its core Fcntl module is all the lock needs).';
      throw backendErrors.lockUnavailable(this.location, why, `${TENANTFORM_ONLY_LOCK.variable}=${TENANTFORM_ONLY_LOCK.value}`);
    }
    await fs.mkdir(dirname(this.path), { recursive: true });
    if (!locker) return this.tryLockInfoFile(info);
    const { answer, token } = await locker.lock(this.path);
    if (answer === 'busy') return { busy: (await this.recordedHolder()) ?? {} };
    await fs.writeFile(lockInfoPath(this.path), `${JSON.stringify(info)}\n`, { mode: 0o600 });
    this.held = { token, info };
    return { held: this.handle(info) };
  }

  async currentLock(): Promise<LockHolder | undefined> {
    if (this.held) return this.held.info;
    const locker = await this.fcntl();
    if (!locker) return this.recordedHolder();
    if ((await locker.test(this.path)) === 'ok') return undefined;
    return (await this.recordedHolder()) ?? {};
  }

  async forceUnlock(id: string): Promise<ForceUnlockOutcome> {
    const recorded = await this.recordedHolder();
    if (!recorded) throw backendErrors.lockNotFound(this.location);
    if (recorded.ID !== id) throw backendErrors.lockIdMismatch(this.location, id, recorded.ID);
    const locker = await this.fcntl();
    if (locker && (await locker.test(this.path)) === 'busy') throw backendErrors.lockHeldByLiveProcess(this.location, recorded);
    await fs.rm(lockInfoPath(this.path), { force: true });
    return { removed: recorded };
  }

  async close(): Promise<void> {
    const locker = await this.locker;
    locker?.close();
    this.locker = undefined;
  }

  private fcntl(): Promise<FcntlLocker | undefined> {
    this.locker ??= process.platform === 'win32' ? Promise.resolve(undefined) : FcntlLocker.start();
    return this.locker;
  }

  private async recordedHolder(): Promise<LockHolder | undefined> {
    try {
      return parseLockInfo(await fs.readFile(lockInfoPath(this.path), 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      return {};
    }
  }

  private async tryLockInfoFile(info: LockInfo): Promise<LockAttempt> {
    try {
      await fs.writeFile(lockInfoPath(this.path), `${JSON.stringify(info)}\n`, { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { busy: (await this.recordedHolder()) ?? {} };
      throw err;
    }
    this.held = { info };
    return { held: this.handle(info) };
  }

  private handle(info: LockInfo): HeldLock {
    return {
      info,
      release: async () => {
        const held = this.held;
        if (held?.info.ID !== info.ID) return;
        this.held = undefined;
        // A lock-info file replaced since (force-unlock, then another run) is not ours to remove.
        if ((await this.recordedHolder())?.ID === info.ID) await fs.rm(lockInfoPath(this.path), { force: true });
        // Locking created the state file; left empty (nothing was written), it goes again, as with Terraform.
        const left = await fs.lstat(this.path).catch(() => undefined);
        if (left?.isFile() === true && left.size === 0) await fs.rm(this.path, { force: true });
        if (held.token !== undefined) await (await this.fcntl())?.unlock(held.token);
      },
    };
  }
}

/**
 * Rewrites the locked file in place, recoverably: the previous state is kept as
 * `<file>.backup`, and the new one is first written whole (synced) to `<file>.writing`,
 * which stays behind only if the rewrite itself is interrupted.
 */
async function writeInPlace(path: string, text: string): Promise<void> {
  const previous = await fs.readFile(path, 'utf8').catch(() => '');
  if (!isBlank(previous)) await writeAtomically(`${path}.backup`, previous, { backup: false });
  const recovery = `${path}.writing`;
  await writeAtomically(recovery, text, { backup: false });
  await rewriteLocked(path, text);
  await fs.rm(recovery, { force: true });
}

/** The locked file's content replaced, durably. */
async function rewriteLocked(path: string, text: string): Promise<void> {
  const handle = await fs.open(path, 'r+');
  try {
    await handle.truncate(0);
    await handle.write(text, 0, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}
