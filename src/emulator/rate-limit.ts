/**
 * The platform's rate limit as the emulator plays it: a token bucket per API client and one per
 * source address, refilled continuously. A request takes a token from both; without one it is
 * refused with 429 and a `Retry-After` of the whole seconds until the next token (at least 1,
 * as the header counts in seconds). Off while `limit_per_second` is 0.
 */
export interface RateLimitSettings {
  /** Tokens added per second; 0 turns the limit off. */
  readonly perSecond: number;
  /** Tokens a bucket holds at most (the burst a quiet client may send at once). */
  readonly burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  /** Requests refused by the limit since the emulator started. */
  refused = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Takes a token from each key's bucket; the seconds to wait when any is empty (nothing taken then). */
  take(keys: readonly string[], settings: RateLimitSettings): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    if (settings.perSecond <= 0) return { allowed: true };
    const capacity = Math.max(1, settings.burst);
    const t = this.now();
    const buckets = keys.map((key) => {
      const b = this.buckets.get(key) ?? { tokens: capacity, at: t };
      b.tokens = Math.min(capacity, b.tokens + ((t - b.at) / 1000) * settings.perSecond);
      b.at = t;
      this.buckets.set(key, b);
      return b;
    });
    const short = buckets.filter((b) => b.tokens < 1);
    if (short.length > 0) {
      this.refused++;
      const waitMs = Math.max(...short.map((b) => ((1 - b.tokens) / settings.perSecond) * 1000));
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    }
    for (const b of buckets) b.tokens -= 1;
    return { allowed: true };
  }
}
