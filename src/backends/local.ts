import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { backendErrors } from '../errors';
import { localStateFile, writeAtomically } from '../reconciler/state';
import { FcntlLocker } from './fcntl';
import { parseLockInfo, type LockHolder, type LockInfo } from './lock-info';
import type { HeldLock, LockAttempt, StateBackend } from './types';

/** Where Terraform's local backend records who holds the lock: `.<state file name>.lock.info` beside it. */
export function lockInfoPath(statePath: string): string {
  return join(dirname(statePath), `.${basename(statePath)}.lock.info`);
}

/**
 * Terraform's `local` backend. The lock is Terraform's: a POSIX record lock (fcntl) on the
 * state file, held for the whole run, with the LockInfo written to `.<name>.lock.info` for
 * whoever finds it busy. As in Terraform, the record lock alone decides: a lock-info file
 * left by a crash does not lock. The state is still replaced atomically (temporary file and
 * rename): the new file is locked before it takes the old one's place, so that there is no
 * moment when the state file is unlocked.
 *
 * Where Perl cannot run (the record lock's helper), the lock-info file, created exclusively,
 * is the lock; it then excludes other tenantform runs only, not Terraform.
 */
export class LocalBackend implements StateBackend {
  readonly type = 'local';
  private locker?: Promise<FcntlLocker | undefined>;
  private held?: { token?: string; info: LockInfo };
  private readonly file;

  constructor(readonly path: string) {
    this.file = localStateFile(path);
  }

  get location(): string {
    return this.path;
  }

  read(): Promise<string | undefined> {
    return this.file.read();
  }

  async write(text: string): Promise<void> {
    const held = this.held;
    const locker = held?.token !== undefined ? await this.fcntl() : undefined;
    if (!held || !locker) return writeAtomically(this.path, text);
    await writeAtomically(this.path, text, {
      backup: true,
      beforeRename: async (temp) => {
        const { answer, token } = await locker.lock(temp);
        if (answer !== 'ok') throw new Error(`cannot lock the new state file ${temp}`);
        const previous = held.token!;
        held.token = token;
        // The old file's lock goes once the new one has taken its place.
        return () => locker.unlock(previous);
      },
    });
  }

  async tryLock(info: LockInfo): Promise<LockAttempt> {
    const locker = await this.fcntl();
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

  async forceUnlock(id: string): Promise<LockHolder> {
    const recorded = await this.recordedHolder();
    if (!recorded) throw backendErrors.lockNotFound(this.location);
    if (recorded.ID !== id) throw backendErrors.lockIdMismatch(this.location, id, recorded.ID);
    const locker = await this.fcntl();
    if (locker && (await locker.test(this.path)) === 'busy') throw backendErrors.lockHeldByLiveProcess(this.location, recorded);
    await fs.rm(lockInfoPath(this.path), { force: true });
    return recorded;
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
        if ((await fs.stat(this.path).catch(() => undefined))?.size === 0) await fs.rm(this.path, { force: true });
        if (held.token !== undefined) await (await this.fcntl())?.unlock(held.token);
      },
    };
  }
}
