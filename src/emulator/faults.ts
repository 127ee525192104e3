/**
 * Fault injection: latency, 429 with Retry-After, 5xx, dropped connections and short token
 * lifetimes. Decisions come from a seeded generator and every /api request draws the same
 * number of values, so the same requests under the same seed meet the same faults.
 */
import { SeededRandom, deriveSeed } from './prng';

export interface Faults {
  latency_ms: number;
  rate_429: number;
  retry_after_seconds: number;
  rate_5xx: number;
  drop_rate: number;
  /** Requests processed whose answer is then lost (the connection closes instead). */
  lost_answer_rate: number;
  token_lifetime_seconds: number;
  /** The platform's rate limit: requests per second per API client and per source address (0: none; see rate-limit.ts). */
  limit_per_second: number;
  /** The requests a quiet client may send at once under the limit (0: as many as `limit_per_second`). */
  limit_burst: number;
}

/** platform-interface: token lifetime (two hours by default). */
export const DEFAULT_FAULTS: Faults = {
  latency_ms: 0,
  rate_429: 0,
  retry_after_seconds: 1,
  rate_5xx: 0,
  drop_rate: 0,
  lost_answer_rate: 0,
  token_lifetime_seconds: 7200,
  limit_per_second: 0,
  limit_burst: 0,
};

export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'drop' }
  | { kind: 'lose_answer' }
  | { kind: 'too_many_requests'; retryAfterSeconds: number }
  | { kind: 'server_error'; status: number };

const SERVER_ERROR_STATUSES = [500, 502, 503, 504];

/** Checks a partial fault setting; returns the problem, or undefined when it is valid. */
export function faultProblem(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'faults must be an object';
  for (const [key, value] of Object.entries(input)) {
    if (!(key in DEFAULT_FAULTS)) return `unknown fault setting ${key}`;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${key} must be a number >= 0`;
    if (key.startsWith('rate_') || key.endsWith('_rate')) {
      if (value > 1) return `${key} must be between 0 and 1`;
    }
  }
  return undefined;
}

export class FaultInjector {
  private current: Faults;
  private readonly rng: SeededRandom;

  constructor(seed: number, initial: Partial<Faults> = {}) {
    this.rng = new SeededRandom(deriveSeed(seed, 0xfa17));
    const problem = faultProblem(initial);
    if (problem !== undefined) throw new Error(`Invalid faults: ${problem}`);
    this.current = { ...DEFAULT_FAULTS, ...initial };
  }

  get faults(): Faults {
    return { ...this.current };
  }

  /** Members that are absent stay unchanged. Throws on invalid values. */
  set(partial: Partial<Faults>): void {
    const problem = faultProblem(partial);
    if (problem !== undefined) throw new Error(problem);
    this.current = { ...this.current, ...partial };
  }

  /** One decision per /api request (token endpoint excepted). */
  decide(): FaultDecision {
    const drop = this.rng.next();
    const throttle = this.rng.next();
    const fail = this.rng.next();
    const which = this.rng.int(SERVER_ERROR_STATUSES.length);
    if (drop < this.current.drop_rate) return { kind: 'drop' };
    // The same draw decides a lost answer, so adding the setting leaves other decisions as they were.
    if (drop < this.current.drop_rate + this.current.lost_answer_rate) return { kind: 'lose_answer' };
    if (throttle < this.current.rate_429) return { kind: 'too_many_requests', retryAfterSeconds: this.current.retry_after_seconds };
    if (fail < this.current.rate_5xx) return { kind: 'server_error', status: SERVER_ERROR_STATUSES[which] };
    return { kind: 'none' };
  }
}
