/**
 * One budget of requests per data center and API client, shared by every request the process
 * sends with those credentials (the platform limits each API client, whatever sends for it):
 *
 * - adaptive concurrency, additive increase and multiplicative decrease (AIMD, as TCP and the
 *   AWS SDK's adaptive retry mode): it starts where the run's parallelism says; until the
 *   platform first pushes back, each answer that is not a 429 raises the number of requests
 *   allowed in flight by one (doubling it every round trip, as TCP's slow start), then by 1/limit
 *   (about one per round trip); each 429 halves it, once per round trip (the requests already in
 *   flight when it was halved do not halve it again);
 * - the platform's answer time: when the usual round trip (smoothed, as TCP smooths it) grows
 *   past twice the fastest one seen and 10 ms more, requests queue at the platform rather than
 *   being served; the limit then falls by a tenth once per round trip, to no lower than where it
 *   started (a platform that is slow without refusing anything is not sent less than before);
 * - a learned rate: a 429 sets a ceiling of requests per second at 70% of the rate the platform
 *   accepted over the last second (or of the ceiling, when lower): what a burst sent beyond the
 *   limit says nothing of it, what went through says about what the limit and its burst allow.
 *   The ceiling then rises by 5% a second (at least one request per second a second), a rise that
 *   doubles every 3 seconds without another limit (as CUBIC probes, in TCP and the AWS SDK): a
 *   platform's limit is met again only every few seconds rather than at every burst, while a
 *   ceiling learned from 429s that were no limit (a platform refusing now and then, while the run
 *   had little to send) is left behind in seconds, not minutes. Concurrency alone cannot keep to
 *   a rate when answers come back in a few milliseconds;
 * - the platform's `Retry-After`: a 429 holds back every request not yet sent until then;
 * - an optional ceiling of requests per second (`requests_per_second`), a token bucket that
 *   lets a quiet client send one second's worth at once.
 *
 * It reacts so only when a quarter or more of the last second's answers are 429s (three at least): going past a
 * limit refuses most of what is sent, while a 429 now and then is left to that request's own
 * wait. Requests wait their turn in the order they asked for it.
 */

export interface GovernorOptions {
  /** Requests in flight at first. */
  readonly initial?: number;
  /** At most this many in flight, however well the platform keeps up. */
  readonly max?: number;
  /** A ceiling of requests per second; none when undefined. */
  readonly requestsPerSecond?: number;
  readonly now?: () => number;
}

export const DEFAULT_CONCURRENCY = 10;
/** The smoothed round trip counts as grown past `SLOWED_FACTOR` times the fastest one and `SLOWED_MARGIN_MS` more. */
const SLOWED_FACTOR = 2;
const SLOWED_MARGIN_MS = 10;
/** The weight of a new round trip in the smoothed one (TCP's). */
const RTT_GAIN = 1 / 8;
/** The share of 429s among the last second's answers, and their number, from which the budget takes them as a limit. */
const LIMITED_SHARE = 0.25;
const LIMITED_COUNT = 3;
/**
 * At most this many in flight: the connections kept to a data center. A turn given beyond them
 * would wait in the pool, unseen: still sent after a 429 holds every request back, and timed as
 * if the platform were slow.
 */
export const MAX_CONCURRENCY = 64;
/** The learned ceiling's rise per second: a share of it (one request at least), doubled every `PROBE_DOUBLING_MS` without a limit. */
const CEILING_RISE = 0.05;
const PROBE_DOUBLING_MS = 3000;

/** A request's place in the budget, from its turn until its answer. */
export interface Turn {
  /** When it was sent (the governor's clock). */
  readonly sentAt: number;
}

export class RateGovernor {
  #limit: number;
  /** Where the limit started: answers that slow down lower it no further. */
  readonly #initial: number;
  readonly #max: number;
  /** Each answer raises the limit by one until the platform first pushes back. */
  #slowStart = true;
  /** The fastest round trip seen, and the smoothed one (milliseconds). */
  #fastestRtt = Infinity;
  #smoothedRtt: number | undefined;
  readonly #now: () => number;
  #inFlight = 0;
  #heldUntil = 0;
  /** When the limit last fell for a 429, and for slow answers: each falls once per round trip, neither stops the other. */
  #lastHalving = -Infinity;
  #lastEasing = -Infinity;
  /** The ceiling the user set (`requests_per_second`). */
  #configuredRps: number | undefined;
  /** The ceiling learned from 429s. */
  #learnedRps: number | undefined;
  /** The rate the platform accepted when it last pushed back in this process (what a later run may start below). */
  #metRps: number | undefined;
  /** When the platform last pushed back, and when the ceiling last rose. */
  #limitedAt = 0;
  #learnedAt = 0;
  /** Tokens of the requests-per-second bucket, and when it was last filled. */
  #bucket = { tokens: 0, at: 0 };
  /** The answers of the last second: when, and whether each was a 429. */
  readonly #answers: Array<{ at: number; throttled: boolean }> = [];
  /** When each request of the last second was sent. */
  readonly #recent: number[] = [];
  readonly #queue: Array<() => void> = [];
  #timer: NodeJS.Timeout | undefined;
  /** Answers that were not 429s: the run makes progress while this grows. */
  #answered = 0;

  constructor(options: GovernorOptions = {}) {
    this.#max = Math.max(1, options.max ?? MAX_CONCURRENCY);
    this.#limit = Math.min(this.#max, Math.max(1, options.initial ?? DEFAULT_CONCURRENCY));
    this.#initial = this.#limit;
    this.#now = options.now ?? (() => performance.now());
    this.setRequestsPerSecond(options.requestsPerSecond);
  }

  /** The ceiling of requests per second (undefined: none). The lowest one asked for holds. */
  setRequestsPerSecond(perSecond: number | undefined): void {
    if (perSecond === undefined || !(perSecond > 0)) return;
    if (this.#configuredRps !== undefined && this.#configuredRps <= perSecond) return;
    this.#configuredRps = perSecond;
    this.#bucket = { tokens: Math.max(1, perSecond), at: this.#now() };
  }

  /** The ceiling of requests per second in force (undefined: none). */
  get requestsPerSecond(): number | undefined {
    const ceilings = [this.#configuredRps, this.#learnedRps].filter((r): r is number => r !== undefined);
    return ceilings.length === 0 ? undefined : Math.min(...ceilings);
  }

  /**
   * Starts below a limit an earlier run met (`perSecond` accepted then): the ceiling it would have
   * learned, rising from now as after any limit.
   */
  startBelow(perSecond: number): void {
    if (!(perSecond > 0) || this.#learnedRps !== undefined) return;
    const now = this.#now();
    this.#learnedRps = Math.max(1, 0.7 * perSecond);
    this.#limitedAt = now;
    this.#learnedAt = now;
  }

  /** The rate the platform accepted when it last pushed back in this process; undefined when it never did. */
  get metLimit(): number | undefined {
    return this.#metRps;
  }

  /** Requests allowed in flight now. */
  get limit(): number {
    return Math.floor(this.#limit);
  }

  /** Milliseconds until the platform's last `Retry-After` ends (0 when none holds). */
  get heldForMs(): number {
    return Math.max(0, this.#heldUntil - this.#now());
  }

  /** How many answers other than 429 have arrived: a request compares it before and after waiting. */
  get progress(): number {
    return this.#answered;
  }

  /** Waits for a turn to send a request: its place in flight is taken when the turn comes. */
  async turn(): Promise<Turn> {
    if (this.#queue.length === 0 && this.#waitMs() === 0) this.#take();
    else await new Promise<void>((granted) => this.#enqueue(granted));
    return { sentAt: this.#now() };
  }

  /** The answer of a request sent on `turn`: a 429 (with the wait it asks for) or anything else. */
  answered(turn: Turn, outcome: { throttled: false } | { throttled: true; retryAfterMs?: number }): void {
    this.#inFlight--;
    const now = this.#now();
    this.#answers.push({ at: now, throttled: outcome.throttled });
    while (this.#answers.length > 0 && this.#answers[0].at <= now - 1000) this.#answers.shift();
    if (outcome.throttled && this.#limited()) {
      this.#slowStart = false;
      if (turn.sentAt >= this.#lastHalving) {
        this.#limit = Math.max(1, this.#limit / 2);
        this.#lastHalving = now;
        const acceptedLastSecond = this.#answers.filter((a) => !a.throttled).length;
        this.#metRps = Math.max(1, Math.min(acceptedLastSecond, this.#learnedRps ?? Infinity));
        this.#learnedRps = Math.max(1, 0.7 * this.#metRps);
        this.#limitedAt = now;
        this.#learnedAt = now;
        this.#bucket = { tokens: Math.min(this.#bucket.tokens, 1), at: now };
      }
      if (outcome.retryAfterMs !== undefined) this.#heldUntil = Math.max(this.#heldUntil, now + outcome.retryAfterMs);
    } else if (!outcome.throttled) {
      this.#answered++;
      if (this.#slowed(now - turn.sentAt)) {
        this.#slowStart = false;
        if (turn.sentAt >= Math.max(this.#lastEasing, this.#lastHalving) && this.#limit > this.#initial) {
          this.#limit = Math.max(this.#initial, this.#limit * 0.9);
          this.#lastEasing = now;
        }
      } else {
        this.#limit = Math.min(this.#max, this.#limit + (this.#slowStart ? 1 : 1 / this.#limit));
      }
      if (this.#learnedRps !== undefined) this.#raiseCeiling(now);
    }
    this.#drain();
  }

  /** The learned ceiling's rise since it last rose: the integral of its rate, which doubles every `PROBE_DOUBLING_MS`. */
  #raiseCeiling(now: number): void {
    const doubled = (at: number) => 2 ** ((at - this.#limitedAt) / PROBE_DOUBLING_MS);
    const seconds = ((PROBE_DOUBLING_MS / Math.LN2) * (doubled(now) - doubled(this.#learnedAt))) / 1000;
    this.#learnedRps! += seconds * Math.max(1, CEILING_RISE * this.#learnedRps!);
    this.#learnedAt = now;
  }

  /** Takes in a round trip; whether the usual one has grown well past the fastest (requests queue at the platform). */
  #slowed(rtt: number): boolean {
    this.#fastestRtt = Math.min(this.#fastestRtt, rtt);
    this.#smoothedRtt = this.#smoothedRtt === undefined ? rtt : this.#smoothedRtt + RTT_GAIN * (rtt - this.#smoothedRtt);
    return this.#smoothedRtt > SLOWED_FACTOR * this.#fastestRtt + SLOWED_MARGIN_MS;
  }

  /**
   * Whether the answers of the last second show a limit rather than a passing refusal: a quarter or
   * more of them 429s, three at least. Going past a limit refuses most of what is sent; a platform that turns
   * away a request now and then is answered by that request's own wait, not by slowing everyone.
   */
  #limited(): boolean {
    const throttled = this.#answers.filter((a) => a.throttled).length;
    return throttled >= LIMITED_COUNT && throttled / this.#answers.length >= LIMITED_SHARE;
  }

  /** A request that got no answer (a transport failure): its place is free, nothing is learned. */
  abandoned(): void {
    this.#inFlight--;
    this.#drain();
  }

  #take(): void {
    this.#inFlight++;
    const now = this.#now();
    this.#recent.push(now);
    this.#sentWithin(now);
    if (this.requestsPerSecond !== undefined) this.#bucket.tokens -= 1;
  }

  /** Requests sent in the second before `now` (older ones forgotten). */
  #sentWithin(now: number): number {
    let old = 0;
    while (old < this.#recent.length && this.#recent[old] <= now - 1000) old++;
    if (old > 0) this.#recent.splice(0, old);
    return this.#recent.length;
  }

  /** Milliseconds before the next request may go; 0 when it may go now, Infinity when only an answer frees a place. */
  #waitMs(): number {
    const now = this.#now();
    if (this.#heldUntil > now) return this.#heldUntil - now;
    if (this.#inFlight >= Math.floor(this.#limit)) return Infinity;
    const perSecond = this.requestsPerSecond;
    if (perSecond !== undefined) {
      // A learned ceiling spreads requests evenly; the configured one allows a second's worth at once.
      const capacity = this.#learnedRps !== undefined && this.#learnedRps <= perSecond ? 1 : Math.max(1, perSecond);
      const b = this.#bucket;
      b.tokens = Math.min(capacity, b.tokens + ((now - b.at) / 1000) * perSecond);
      b.at = now;
      if (b.tokens < 1) return ((1 - b.tokens) / perSecond) * 1000;
    }
    return 0;
  }

  #enqueue(resolve: () => void): void {
    this.#queue.push(resolve);
    this.#drain();
  }

  /** Lets waiting requests go while the budget allows; sets a timer for a wait that only time ends. */
  #drain(): void {
    while (this.#queue.length > 0) {
      const wait = this.#waitMs();
      if (wait === 0) {
        this.#take();
        this.#queue.shift()!();
        continue;
      }
      if (wait !== Infinity && this.#timer === undefined) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#drain();
        }, Math.ceil(wait));
      }
      return;
    }
  }
}

const governors = new Map<string, RateGovernor>();
/** The limits earlier runs met, by data center and API client (see limit-memory.ts); none unless the command keeps them. */
let recall: (origin: string, clientId: string) => number | undefined = () => undefined;

/** The budget of one data center (its origin) and API client, shared by every client of this process. */
export function governorFor(origin: string, clientId: string): RateGovernor {
  const key = `${origin} ${clientId}`;
  let governor = governors.get(key);
  if (governor === undefined) {
    governor = new RateGovernor();
    const met = recall(origin, clientId);
    if (met !== undefined) governor.startBelow(met);
    governors.set(key, governor);
  }
  return governor;
}

/** Where the budgets made from now on look up a limit an earlier run met. */
export function recallLimitsWith(lookup: typeof recall): void {
  recall = lookup;
}

/** The limits met in this process: data center, API client and the rate accepted then. */
export function metLimits(): Array<{ origin: string; clientId: string; perSecond: number }> {
  return [...governors.entries()].flatMap(([key, g]) => {
    const [origin, clientId] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
    return g.metLimit === undefined ? [] : [{ origin, clientId, perSecond: g.metLimit }];
  });
}
