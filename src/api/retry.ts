/**
 * The retry policy.
 *
 * - 429: wait what the platform asks (`Retry-After` in seconds or as an HTTP date, else
 *   `context.retry_after`), else back off as below.
 * - 500, 502, 503, 504, dropped connections and timeouts: exponential backoff with full jitter
 *   (a random wait between 0 and `min(maxDelayMs, baseDelayMs * 2^(attempt-1))`).
 * - Requests that are safe to repeat are retried: GET, PUT, DELETE, and a POST that the
 *   caller marks idempotent. Any other request is retried only when the platform did nothing
 *   with it (a 429, a 5xx answered with the platform's own error body, a refused connection);
 *   when its answer was lost it is reported at once, saying so: the caller looks for the object.
 * - Total elapsed time bounds the retries (30 s by default); the attempt count only backs it up.
 */
import { isRetryableStatus, PlatformError } from './errors';
import type { TransportFailure } from './http';
import { noteUncertainWrite } from './write-outcome';

export interface RetryOptions {
  /** Attempts in all, the first included (1 = never retry). */
  maxAttempts: number;
  /** No retry is started when it would end later than this after the first attempt began. */
  maxElapsedMs: number;
  /** First backoff ceiling; doubles per attempt. */
  baseDelayMs: number;
  /** Largest backoff ceiling. A longer `Retry-After` is still honoured within `maxElapsedMs`. */
  maxDelayMs: number;
  /** Random source in [0, 1), for tests. */
  random?: () => number;
  /** Sleep, for tests. */
  sleep?: (ms: number) => Promise<void>;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({
  maxAttempts: 50,
  maxElapsedMs: 30_000,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
});

export function resolveRetryOptions(partial: Partial<RetryOptions> | undefined): RetryOptions {
  const o: RetryOptions = { ...DEFAULT_RETRY, ...(partial ?? {}) };
  if (!Number.isInteger(o.maxAttempts) || o.maxAttempts < 1) throw new Error('retry.maxAttempts must be an integer of at least 1');
  for (const k of ['maxElapsedMs', 'baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(o[k]) || o[k] < 0) throw new Error(`retry.${k} must be a number of at least 0`);
  }
  return o;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Parses a `Retry-After` header: delay seconds (`120`) or an HTTP date. Returns milliseconds,
 * never negative, or `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Full-jitter exponential backoff before attempt `attempt + 1`. */
export function backoffDelay(attempt: number, options: RetryOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const random = options.random ?? Math.random;
  return Math.floor(random() * ceiling);
}

/** The wait before repeating after `err` on attempt `attempt`. */
export function retryDelay(err: PlatformError, attempt: number, options: RetryOptions): number {
  if (err.status === 429 && err.retryAfterMs !== undefined) return err.retryAfterMs;
  return backoffDelay(attempt, options);
}

/** Marks an error that has already been through a retry loop of its own (a token request). */
const final = new WeakSet<PlatformError>();

export function markNoFurtherRetry(err: PlatformError): PlatformError {
  final.add(err);
  return err;
}

function isFinal(err: PlatformError): boolean {
  return final.has(err);
}

export interface RetryContext {
  idempotent: boolean;
  /** The request changes something (not a GET): a lost answer leaves its outcome unknown. */
  write?: boolean;
  options: RetryOptions;
  now?: () => number;
  /** Called before each wait, with what is left of the request's retry time after it. */
  onRetry?: (err: PlatformError, attempt: number, delayMs: number, leftMs: number) => void;
  /**
   * Answers (not 429) the data center has given so far, to any request: while it grows, a
   * request refused by the rate limit waits its turn again instead of running out of retries.
   */
  progress?: () => number;
}

/**
 * Runs `op` (given the attempt number, from 1) until it succeeds or the policy gives up. Only
 * `PlatformError`s are considered; anything else is a programming error and is rethrown as is.
 * The error finally thrown records the attempts made and why there was no further one.
 */
export async function withRetry<T>(op: (attempt: number) => Promise<T>, ctx: RetryContext): Promise<T> {
  const now = ctx.now ?? Date.now;
  const sleep = ctx.options.sleep ?? defaultSleep;
  let started = now();
  // Attempts that count against `maxAttempts`: a 429 while others make progress does not.
  let counted = 0;
  let progressBefore = ctx.progress?.() ?? 0;
  for (let attempt = 1; ; attempt++) {
    counted++;
    try {
      return await op(attempt);
    } catch (e) {
      if (!(e instanceof PlatformError)) throw e;
      // Sent, and no answer says whether it was applied: a repetition may meet its own effect.
      if (ctx.write && e.retryable && !e.notProcessed) noteUncertainWrite();
      if (isFinal(e)) throw e;
      if (!e.retryable) throw e.markFinal(attempt, 'not_retryable');
      if (!ctx.idempotent && !e.notProcessed) throw e.markFinal(attempt, 'not_idempotent');
      const progressNow = ctx.progress?.() ?? 0;
      if (e.status === 429 && progressNow > progressBefore) {
        // The platform is busy, not stuck: the run goes on, so this request keeps its place.
        started = now();
        counted = 0;
      }
      progressBefore = progressNow;
      if (counted >= ctx.options.maxAttempts) throw e.markFinal(attempt, 'max_attempts');
      const delay = retryDelay(e, attempt, ctx.options);
      const leftMs = ctx.options.maxElapsedMs - (now() - started) - delay;
      if (leftMs < 0) throw e.markFinal(attempt, 'max_elapsed');
      ctx.onRetry?.(e, attempt, delay, leftMs);
      await sleep(delay);
    }
  }
}

/**
 * Whether an error answer means the platform did nothing: a 429, or a 5xx in the platform's own
 * error body (its handlers answer so before acting). A 5xx of something in front of the
 * platform (a proxy's page) may follow work already done.
 */
export function answeredUnprocessed(status: number, bodyShape: string): boolean {
  return status === 429 || (status >= 500 && isRetryableStatus(status) && bodyShape !== 'unrecognised');
}

/**
 * The error fields of a transport failure: a refused connection never reached the platform, nor
 * did a request that failed with its connection before any of it was written (`unsent`).
 */
export function transportErrorFields(
  t: TransportFailure,
  timeoutMs: number,
  unsent = false,
): { code: string; message: string; retryable: boolean; notProcessed: boolean } {
  if (unsent && t.kind !== 'refused' && t.kind !== 'unresolved') {
    return {
      code: 'connection_closed_unsent',
      message: `the connection closed before the request was written: it was not sent (${t.code})`,
      retryable: true,
      notProcessed: true,
    };
  }
  switch (t.kind) {
    case 'timeout':
      return { code: 'timeout', message: `no complete response within ${timeoutMs} ms (${t.code})`, retryable: true, notProcessed: false };
    case 'refused':
      return { code: 'connection_refused', message: `the connection was refused: the request was not sent (${t.code})`, retryable: true, notProcessed: true };
    case 'unresolved':
      return {
        code: 'host_not_found',
        message: `the base URL's host name${t.host ? ` ${t.host}` : ''} does not resolve: the request was not sent (${t.code}). Check TENANTFORM_BASE_URL, or base_url in the provider block`,
        // A name the resolver says does not exist is a typo, not a moment: only a passing failure (EAI_AGAIN) is tried again.
        retryable: t.code !== 'ENOTFOUND',
        notProcessed: true,
      };
    default:
      return { code: 'connection_dropped', message: `the connection closed before a complete response (${t.code})`, retryable: true, notProcessed: false };
  }
}
