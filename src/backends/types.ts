import type { LockHolder, LockInfo } from './lock-info';

/** A lock a backend granted; `release` gives it back (idempotent). */
export interface HeldLock {
  readonly info: LockInfo;
  release(): Promise<void>;
}

/**
 * What a force-unlock did: a lock removed whose holder the backend recorded, or an unlock the
 * server accepted without saying whether a lock with that ID existed (the http protocol says no more).
 */
export type ForceUnlockOutcome = { removed: LockHolder } | { accepted: { ID: string } };

/** The outcome of one attempt to lock: held, or busy with what is known of the holder. */
export type LockAttempt = { held: HeldLock } | { busy: LockHolder };

/**
 * Where a stack's state lives: one of Terraform's backends, spoken the way Terraform
 * speaks it, so that `terraform` and tenantform on the same backend share state and lock.
 */
export interface StateBackend {
  /** The backend type as written in `terraform.backend` (local, pg, http). */
  readonly type: string;
  /** Where the state is, for messages: never holds a password. */
  readonly location: string;
  /** The state document's text, or undefined when there is none yet. */
  read(): Promise<string | undefined>;
  /** Replaces the state whole. */
  write(text: string): Promise<void>;
  /** One attempt to take the lock; never waits. */
  tryLock(info: LockInfo): Promise<LockAttempt>;
  /** The current holder, when the backend can tell without taking the lock. */
  currentLock(): Promise<LockHolder | undefined>;
  /** Removes a lock left by a run that stopped, after checking its ID. */
  forceUnlock(id: string): Promise<ForceUnlockOutcome>;
  /**
   * Present when tenantform only reads this backend (through terraform): it takes no lock and
   * writes nothing; `notice` says so in one line, for the reports read without the lock.
   */
  readonly readOnly?: { readonly notice: string };
  /** Closes connections and helpers; releases nothing else. */
  close(): Promise<void>;
}
