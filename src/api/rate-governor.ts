/**
 * One budget of requests per data center and API client, shared by every request the process
 * sends with those credentials (the platform limits each API client, whatever sends for it):
 *
 * - adaptive concurrency, additive increase and multiplicative decrease (AIMD, as TCP and the
 *   AWS SDK's adaptive retry mode): it starts where the run's parallelism says, or with what
 *   an earlier run in the working directory held in flight when the platform never pushed back
 *   on that run (heldInFlight: what TCP stacks share between connections to one host, RFC 2140's
 *   temporal sharing); until the platform first pushes back, each answer that is not a 429
 *   raises the number of requests allowed in flight by one (doubling it every round trip, as
 *   TCP's slow start), then by 1/limit (about one per round trip); each 429 halves it, once per
 *   round trip (the requests already in flight when it was halved do not halve it again);
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
 * The first limit: it reacts so only when a quarter or more of the last second's answers are
 * 429s (three at least), or six answers in a row are: going past a limit refuses most of what is
 * sent, while a 429 now and then is left to that request's own wait. 429s that come steadily
 * (three within three seconds, the first two seconds ago at least) are a run barely past a limit,
 * each refused request waiting its Retry-After so that they never become a quarter: they trim the
 * ceiling as below.
 *
 * After a limit met as a bucket runs dry (six 429s in a row: a few in a quiet second may be
 * chance), met a second time, met by a steady trickle, or kept from an earlier run, a trickle of
 * 429s says the ceiling has risen past the limit again: two 429s of requests sent since the
 * ceiling last changed trim it, at most once a second, to 90% of what the platform accepted over
 * the last second (with the platform's bucket empty, that is its rate), without halving or holding
 * anyone back (nor counting a `Retry-After` wait, when nothing was sent). From a trim, or from 90%
 * of a limit an earlier run met, the ceiling rises slowly, 1% of that rate a second, a rise that
 * doubles every 10 seconds (below 40 a second, spread over 400 requests instead, at most four times
 * as long: each probe past a limit costs a few 429s whatever the rate): a limit found is probed rarely, so that few requests are refused; a
 * ninth past that rate without a 429, the rate was measured short, and the ceiling probes from
 * there as after any limit. A ceiling learned at a first meeting, from a second that held
 * the platform's burst, may sit above the rate: the trim after it cuts by a tenth at least, and
 * the second trim in a row measures what the platform accepted since the first (its bucket empty
 * since then, which is its rate), as soon as that is a quarter second and ten answers. A platform
 * whose limit it is then refuses nothing more; 429s that call for a third trim in a row are
 * refusals at random, not a limit: the budget then stops trimming, takes 429s as before the first
 * limit, and rises as fast as without a trim. Requests wait their turn in the order they
 * asked for it.
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
 * Or this many 429s in a row: a bucket run dry refuses everything, and a busy second's successes
 * would delay the share; refusals at random (one in ten) are almost never six in a row.
 */
const LIMITED_IN_A_ROW = 6;
/**
 * At most this many in flight: the connections kept to a data center. A turn given beyond them
 * would wait in the pool, unseen: still sent after a 429 holds every request back, and timed as
 * if the platform were slow.
 */
export const MAX_CONCURRENCY = 64;
/**
 * A limit the run barely passes: this many 429s within `TRICKLE_MS`, the first of them
 * `TRICKLE_SPAN_MS` ago at least (a few every second, not one burst), trim the ceiling as after a limit.
 */
const TRICKLE_COUNT = 3;
const TRICKLE_MS = 3000;
const TRICKLE_SPAN_MS = 2000;
/** A limit sets the ceiling to this share of the rate accepted over the last second. */
const LEARNED_SHARE = 0.7;
/** The learned ceiling's rise per second: a share of it (one request at least), doubled every `PROBE_DOUBLING_MS` without a limit. */
const CEILING_RISE = 0.05;
const PROBE_DOUBLING_MS = 3000;
/** After a trim: the share of the rate trimmed to, the ceiling's rise per second near it, doubled every `NEAR_DOUBLING_MS`. */
const NEAR_RISE = 0.01;
const NEAR_DOUBLING_MS = 10_000;
/**
 * ...and at low rates, over at least this many requests: a probe past the limit costs a few 429s
 * whatever the rate, so at 10 a second the rise that 200 a second makes in ten seconds takes forty.
 */
const NEAR_REQUESTS = 400;
/** ...but never more than four times as slow (the spread of 10 a second): a rate found that low may be no limit at all. */
const MAX_NEAR_STRETCH = 4;
/** A trim sets the ceiling to this share of the rate accepted over the last second; near it, the slow rise holds. */
const TRIM = 0.9;
/** A trim needs this many 429s of requests sent since the last one, and a second since it. */
const TRIM_COUNT = 2;
const TRIM_INTERVAL_MS = 1000;
/**
 * The trim right after another may come sooner: the platform's bucket has been empty since the
 * last (it refused then), so what it accepted since then is its rate, over at least this long.
 */
const NEXT_TRIM_MS = 250;
/** ...and once it has accepted this many since: fewer would measure a slow rate by chance. */
const NEXT_TRIM_ACCEPTED = 10;

/** A request's place in the budget, from its turn until its answer. */
export interface Turn {
  /** When it was sent (the governor's clock). */
  readonly sentAt: number;
  /** The ceiling learned from 429s when it was sent (undefined: none). */
  readonly ceiling?: number;
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
  /** The rate an earlier run met (startBelow): the ceiling rises slowly near it, as near a rate a trim found. */
  #recalledRps: number | undefined;
  /** Whether the ceiling last rose near a rate found (slowly). */
  #wasNear = false;
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
  /** Whether any answer was a 429. */
  #everThrottled = false;
  /** The most requests in flight at once before the platform first pushed back. */
  #peakInFlight = 0;
  /** Trims since the platform last pushed back hard, those since the ceiling last rose past the rate trimmed to, when the last was, and the 429s of requests sent since then. */
  #trims = 0;
  #trimsInARow = 0;
  #lastTrim = -Infinity;
  #refusedSinceTrim = 0;
  /** The platform refuses at random: 429s are left to each request's own wait, no trim follows them. */
  #noisy = false;
  /** The last limit was met as a bucket runs dry (six 429s in a row), or by an earlier run: 429s after it trim the ceiling. */
  #bucketMet = false;
  /** When each 429 of the last `TRICKLE_MS` was answered. */
  readonly #throttledAt: number[] = [];
  /** 429s answered since the last answer that was not one. */
  #throttledInARow = 0;
  /** When the first request was sent. */
  #firstSentAt: number | undefined;

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
   * Starts below a limit an earlier run met (`perSecond` accepted then): at 90% of it, rising
   * slowly from there as after a trim (the earlier run's trims measured it).
   */
  startBelow(perSecond: number): void {
    if (!(perSecond > 0) || this.#learnedRps !== undefined) return;
    this.#bucketMet = true;
    this.#recalledRps = perSecond;
    const now = this.#now();
    this.#learnedRps = Math.max(1, TRIM * perSecond);
    this.#limitedAt = now;
    this.#learnedAt = now;
  }

  /**
   * The rate the platform accepted when it last pushed back in this process; undefined when it
   * never did, or when its 429s turned out to be refusals at random (no limit to start below).
   */
  get metLimit(): number | undefined {
    return this.#noisy ? undefined : this.#metRps;
  }

  /**
   * Starts with `inFlight` allowed in flight, an earlier run's heldInFlight, when that is more than
   * the start: slow start goes on from there. Answers that slow down still lower it to where the
   * run itself would have started, no further.
   */
  startWith(inFlight: number): void {
    if (this.#answered > 0 || this.#everThrottled || !(inFlight > this.#limit)) return;
    this.#limit = Math.min(this.#max, Math.floor(inFlight));
  }

  /**
   * What a later run may start with: the most requests the run had in flight at once before the
   * platform first pushed back (answers as fast as at first: past that, answers that slowed down
   * say more in flight only queue); null when the run met a 429 or started below a rate limit
   * (the later run starts where its parallelism says); undefined when the run had no answer (it
   * says nothing either way). What the budget allowed beyond what the run sent is not proven (a
   * run capped by `--parallelism`, or with little to send).
   */
  get heldInFlight(): number | null | undefined {
    if (this.#answered === 0 && !this.#everThrottled) return undefined;
    return this.#everThrottled || this.#learnedRps !== undefined ? null : this.#peakInFlight;
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
    return { sentAt: this.#now(), ceiling: this.#learnedRps };
  }

  /** The answer of a request sent on `turn`: a 429 (with the wait it asks for) or anything else. */
  answered(turn: Turn, outcome: { throttled: false } | { throttled: true; retryAfterMs?: number }): void {
    this.#inFlight--;
    const now = this.#now();
    this.#answers.push({ at: now, throttled: outcome.throttled });
    this.#throttledInARow = outcome.throttled ? this.#throttledInARow + 1 : 0;
    if (outcome.throttled) {
      this.#throttledAt.push(now);
      this.#everThrottled = true;
    }
    // A bucket run dry refuses all that is in flight: a few 429s in a quiet second may be chance.
    if (this.#throttledInARow >= LIMITED_IN_A_ROW) this.#bucketMet = true;
    while (this.#answers.length > 0 && this.#answers[0].at <= now - 1000) this.#answers.shift();
    // Once a limit is met, 429s trim the ceiling (unless they show refusals at random).
    const trimming = this.#learnedRps !== undefined && this.#bucketMet && !this.#noisy;
    if (outcome.throttled && !trimming && this.#limited()) {
      this.#slowStart = false;
      if (turn.sentAt >= this.#lastHalving) {
        // A limit met a second time is a limit, however its 429s came: few in flight meet it with successes between them.
        if (this.#metRps !== undefined) this.#bucketMet = true;
        this.#limit = Math.max(1, this.#limit / 2);
        this.#lastHalving = now;
        const acceptedLastSecond = this.#answers.filter((a) => !a.throttled).length;
        this.#metRps = Math.max(1, Math.min(acceptedLastSecond, this.#learnedRps ?? Infinity));
        this.#learnedRps = Math.max(1, LEARNED_SHARE * this.#metRps);
        this.#limitedAt = now;
        this.#learnedAt = now;
        this.#bucket = { tokens: Math.min(this.#bucket.tokens, 1), at: now };
        this.#trims = 0;
        this.#trimsInARow = 0;
        this.#lastTrim = now;
        this.#refusedSinceTrim = 0;
      }
      if (outcome.retryAfterMs !== undefined) this.#heldUntil = Math.max(this.#heldUntil, now + outcome.retryAfterMs);
    } else if (outcome.throttled) {
      if (trimming) this.#trickled(turn, now);
      else if (this.#steadyTrickle(now)) {
        // A run barely past a limit: each refused request waits its Retry-After, so 429s never become a quarter of the answers.
        this.#bucketMet = true;
        this.#trimTo(now, Math.min(this.#learnedRps ?? Infinity, this.#acceptedRate(now, now - 1000)));
      }
    } else {
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

  /**
   * A 429 that is no hard limit, while a ceiling is learned: two of requests sent since the last
   * trim trim the ceiling, once a second; the need for a third trim in a row shows refusals at random.
   */
  #trickled(turn: Turn, now: number): void {
    if (turn.sentAt < this.#lastTrim) return;
    // After two trims in a row the ceiling sits below the platform's rate: nothing sent a second later below it is refused by a limit.
    const settledBelow = this.#trimsInARow >= 2 && turn.sentAt >= this.#lastTrim + TRIM_INTERVAL_MS && (turn.ceiling ?? Infinity) < this.#metRps!;
    if (settledBelow) {
      this.#noisy = true;
      return;
    }
    this.#refusedSinceTrim++;
    if (this.#refusedSinceTrim < TRIM_COUNT) return;
    const acceptedSinceTrim = this.#answers.filter((a) => !a.throttled && a.at > this.#lastTrim).length;
    const due = now >= this.#lastTrim + TRIM_INTERVAL_MS;
    const soon = !due && this.#trimsInARow === 1 && now >= this.#lastTrim + NEXT_TRIM_MS && acceptedSinceTrim >= NEXT_TRIM_ACCEPTED;
    if (!due && !soon) return;
    const measuredSince = soon ? this.#lastTrim : now - 1000;
    // Under a limit, the second trim in a row is exact (measured with the bucket empty): a third shows refusals at random.
    if (this.#trimsInARow >= 2) {
      this.#noisy = true;
      return;
    }
    // A trim only ever lowers the ceiling: the rate found is the lower of the ceiling and what went through.
    this.#trimTo(now, Math.min(this.#learnedRps!, this.#acceptedRate(now, measuredSince)));
  }

  /**
   * Answers other than 429 per second since `since` (within the last second), or since the first
   * request or the end of the last `Retry-After` when more recent: while held, nothing was sent.
   */
  #acceptedRate(now: number, since: number): number {
    const from = Math.max(since, this.#firstSentAt ?? now, Math.min(this.#heldUntil, now));
    return (this.#answers.filter((a) => !a.throttled && a.at > from).length * 1000) / Math.max(100, now - from);
  }

  /** Whether 429s have come steadily, a few every second for a few seconds, without ever being a quarter of the answers. */
  #steadyTrickle(now: number): boolean {
    while (this.#throttledAt.length > 0 && this.#throttledAt[0] <= now - TRICKLE_MS) this.#throttledAt.shift();
    return !this.#noisy && this.#throttledAt.length >= TRICKLE_COUNT && this.#throttledAt[0] <= now - TRICKLE_SPAN_MS;
  }

  /** Sets the ceiling to 90% of `rate`, the rate the platform was found to accept. */
  #trimTo(now: number, rate: number): void {
    if (!(rate > 0)) return;
    this.#metRps = rate;
    this.#learnedRps = Math.max(1, TRIM * this.#metRps);
    this.#trims++;
    this.#trimsInARow++;
    this.#lastTrim = now;
    this.#refusedSinceTrim = 0;
    this.#limitedAt = now;
    this.#learnedAt = now;
    this.#bucket = { tokens: Math.min(this.#bucket.tokens, 1), at: now };
  }

  /**
   * The learned ceiling's rise since it last rose: the integral of its rate, which doubles every
   * `PROBE_DOUBLING_MS` (every `NEAR_DOUBLING_MS` near a rate a trim found).
   */
  #raiseCeiling(now: number): void {
    const found = this.#trims > 0 ? this.#metRps! : this.#recalledRps;
    // Near the rate found, on either side; well past it without a 429, that rate was measured short: probe afresh.
    const near = !this.#noisy && found !== undefined && this.#learnedRps! >= TRIM * found && this.#learnedRps! <= found / TRIM;
    if (this.#wasNear && !near) this.#limitedAt = now;
    this.#wasNear = near;
    // Near it, the rise is slowed by as much as the doubling is stretched: the same probe, over more requests.
    const stretch = near ? Math.min(MAX_NEAR_STRETCH, Math.max(1, (NEAR_REQUESTS * 1000) / (found * NEAR_DOUBLING_MS))) : 1;
    const doublingMs = near ? NEAR_DOUBLING_MS * stretch : PROBE_DOUBLING_MS;
    const perSecond = near ? (NEAR_RISE * found) / stretch : Math.max(1, CEILING_RISE * this.#learnedRps!);
    const doubled = (at: number) => 2 ** ((at - this.#limitedAt) / doublingMs);
    const seconds = ((doublingMs / Math.LN2) * (doubled(now) - doubled(this.#learnedAt))) / 1000;
    this.#learnedRps! += seconds * perSecond;
    this.#learnedAt = now;
    if (this.#metRps !== undefined && this.#learnedRps! > this.#metRps) this.#trimsInARow = 0;
  }

  /** Takes in a round trip; whether the usual one has grown well past the fastest (requests queue at the platform). */
  #slowed(rtt: number): boolean {
    this.#fastestRtt = Math.min(this.#fastestRtt, rtt);
    this.#smoothedRtt = this.#smoothedRtt === undefined ? rtt : this.#smoothedRtt + RTT_GAIN * (rtt - this.#smoothedRtt);
    return this.#smoothedRtt > SLOWED_FACTOR * this.#fastestRtt + SLOWED_MARGIN_MS;
  }

  /**
   * Whether the answers show a limit rather than a passing refusal: a quarter or more of the last
   * second's 429s (three at least), or six in a row. Going past
   * a limit refuses most of what is sent; a platform that turns away a request now and then is
   * answered by that request's own wait, not by slowing everyone.
   */
  #limited(): boolean {
    const throttled = this.#answers.filter((a) => a.throttled).length;
    if (throttled >= LIMITED_COUNT && throttled / this.#answers.length >= LIMITED_SHARE) return true;
    return !this.#noisy && this.#throttledInARow >= LIMITED_IN_A_ROW;
  }

  /** A request that got no answer (a transport failure): its place is free, nothing is learned. */
  abandoned(): void {
    this.#inFlight--;
    this.#drain();
  }

  #take(): void {
    this.#inFlight++;
    if (this.#slowStart) this.#peakInFlight = Math.max(this.#peakInFlight, this.#inFlight);
    const now = this.#now();
    this.#firstSentAt ??= now;
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

/** What earlier runs left for a data center and API client: the rate limit they met, the requests they held in flight. */
export interface Recalled {
  readonly perSecond?: number;
  readonly inFlight?: number;
}

/** What earlier runs left, by data center and API client (see limit-memory.ts); nothing unless the command keeps it. */
let recall: (origin: string, clientId: string) => Recalled = () => ({});

/** The budget of one data center (its origin) and API client, shared by every client of this process; `options` make it when there is none yet. */
export function governorFor(origin: string, clientId: string, options: GovernorOptions = {}): RateGovernor {
  const key = `${origin} ${clientId}`;
  let governor = governors.get(key);
  if (governor === undefined) {
    governor = new RateGovernor(options);
    const { perSecond, inFlight } = recall(origin, clientId);
    if (perSecond !== undefined) governor.startBelow(perSecond);
    else if (inFlight !== undefined) governor.startWith(inFlight);
    governors.set(key, governor);
  }
  return governor;
}

/** Drops every budget: a command starts with none (what an earlier command in the same process learned is in the limit memory). */
export function forgetBudgets(): void {
  governors.clear();
}

/** Where the budgets made from now on look up a limit an earlier run met. */
export function recallLimitsWith(lookup: typeof recall): void {
  recall = lookup;
}

/**
 * What this process's budgets leave for later runs, by data center and API client: the rate
 * accepted when a limit was met, and the requests held in flight (null: to forget).
 */
export function budgetsLeft(): Array<{ origin: string; clientId: string; perSecond?: number; inFlight?: number | null }> {
  return [...governors.entries()].flatMap(([key, g]) => {
    const [origin, clientId] = [key.slice(0, key.indexOf(' ')), key.slice(key.indexOf(' ') + 1)];
    const [perSecond, inFlight] = [g.metLimit, g.heldInFlight];
    if (perSecond === undefined && inFlight === undefined) return [];
    return [{ origin, clientId, ...(perSecond !== undefined ? { perSecond } : {}), ...(inFlight !== undefined ? { inFlight } : {}) }];
  });
}
