import { backendErrors } from './errors';
import { describeHolder, newLockInfo } from './lock-info';
import type { HeldLock, StateBackend } from './types';

export interface LockOptions {
  /** false: no lock at all (`--lock=false`), as Terraform's `-lock=false`. */
  readonly lock: boolean;
  /** How long to retry a busy lock before failing (`--lock-timeout`), in milliseconds. */
  readonly timeoutMs: number;
  readonly operation: string;
  readonly version: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Takes the backend's lock (retrying while it is busy, up to the timeout, then failing
 * with the holder named), runs `work`, and releases it whatever happens, also on SIGINT or
 * SIGTERM.
 */
export async function withStateLock<T>(backend: StateBackend, opts: LockOptions, work: (lock: HeldLock | undefined) => Promise<T>): Promise<T> {
  if (!opts.lock) return work(undefined);
  const info = newLockInfo(opts.operation, opts.version, backend.location);
  const deadline = Date.now() + opts.timeoutMs;
  let held: HeldLock | undefined;
  for (let wait = 250; ; wait = Math.min(wait * 2, 2000)) {
    const attempt = await backend.tryLock(info);
    if ('held' in attempt) {
      held = attempt.held;
      break;
    }
    const holder = attempt.busy;
    if (Date.now() >= deadline) throw backendErrors.locked(backend.location, describeHolder(holder), holder.ID);
    await sleep(Math.min(wait, Math.max(0, deadline - Date.now())));
  }
  const lock = held;
  const onSignal = (signal: NodeJS.Signals): void => {
    void lock.release().finally(() => {
      process.stderr.write(`\nInterrupted (${signal}): the state lock was released. Run the command again to continue.\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(lock);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await lock.release();
  }
}

/** Parses Terraform's duration syntax for `--lock-timeout` (`0s`, `30s`, `5m`, `1m30s`, `500ms`). */
export function parseDuration(text: string): number | undefined {
  // As Go's time.ParseDuration (Terraform's -lock-timeout): a unit is required, except for 0.
  if (text === '0') return 0;
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined;
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2] as keyof typeof unit], 0);
}
