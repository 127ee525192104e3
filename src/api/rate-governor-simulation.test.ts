/**
 * The request budget against platforms played on a fake clock: a run with more to send than
 * any limit allows, each request answered in 20 ms. Under a token bucket (the emulator's own),
 * the budget finds the limit and keeps to it, the platform refusing few of the requests; against
 * a platform that refuses requests at random, whatever the rate, the budget does not mistake
 * that for a limit it must stay under.
 */
import { RateLimiter } from '../emulator/rate-limit';
import { RateGovernor } from './rate-governor';

const ROUND_TRIP_MS = 20;
/** Requests the run has ready at any moment: more than the budget lets go at once. */
const SENDERS = 100;

type Decision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Outcome {
  /** Requests sent, refused and accepted in each second. */
  readonly sentPerSecond: number[];
  readonly refusedPerSecond: number[];
  readonly acceptedPerSecond: number[];
  /** The rate the budget would have the next run start below (the limit memory). */
  readonly metLimit: number | undefined;
}

const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0);

/** Runs senders through one budget for `seconds` against a platform that decides each request. */
async function simulate(seconds: number, decide: () => Decision, senders = SENDERS, thinkMs = 0): Promise<Outcome> {
  const governor = new RateGovernor({ now: () => Date.now() });
  const [sent, refused, accepted]: number[][] = [[], [], []];
  const start = Date.now();
  const count = (counts: number[]) => {
    const second = Math.floor((Date.now() - start) / 1000);
    counts[second] = (counts[second] ?? 0) + 1;
  };
  let running = true;
  const sender = async () => {
    while (running) {
      // A run waiting on its dependencies between requests has no request ready meanwhile.
      if (thinkMs > 0) await new Promise((r) => setTimeout(r, thinkMs));
      const turn = await governor.turn();
      count(sent);
      await new Promise((r) => setTimeout(r, ROUND_TRIP_MS));
      const answer = decide();
      if (answer.allowed) {
        count(accepted);
        governor.answered(turn, { throttled: false });
      } else {
        count(refused);
        governor.answered(turn, { throttled: true, retryAfterMs: answer.retryAfterSeconds * 1000 });
        // The refused request waits what the platform asked, then asks for a turn again.
        await new Promise((r) => setTimeout(r, answer.retryAfterSeconds * 1000));
      }
    }
  };
  const sending = Array.from({ length: senders }, sender);
  await jest.advanceTimersByTimeAsync(seconds * 1000);
  running = false;
  // Senders still in line finish at the budget's pace.
  let finished = false;
  void Promise.all(sending).then(() => (finished = true));
  while (!finished) await jest.advanceTimersByTimeAsync(1000);
  const perSecond = (counts: number[]) => Array.from({ length: seconds }, (_, i) => counts[i] ?? 0);
  return { sentPerSecond: perSecond(sent), refusedPerSecond: perSecond(refused), acceptedPerSecond: perSecond(accepted), metLimit: governor.metLimit };
}

/** A deterministic sequence in [0, 1) (a linear congruential generator). */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe.each([10, 50, 200])('under a limit of %i requests a second (a bucket of one second)', (perSecond) => {
  test('once the limit is met, the run goes at it and the platform refuses at most 2% of what it is sent', async () => {
    const limiter = new RateLimiter(() => Date.now());
    const o = await simulate(120, () => limiter.take(['client'], { perSecond, burst: perSecond }));
    // The first meeting costs what is in flight then; the next 110 seconds are the budget's own.
    const [sent, refused, accepted] = [o.sentPerSecond, o.refusedPerSecond, o.acceptedPerSecond].map((counts) => sum(counts.slice(10)));
    expect(refused / sent).toBeLessThanOrEqual(0.02);
    expect(accepted / 110).toBeGreaterThanOrEqual(0.9 * perSecond);
    // All told, the first meeting included, a few percent.
    expect(sum(o.refusedPerSecond) / sum(o.sentPerSecond)).toBeLessThanOrEqual(0.04);
  });
});

test('over a quarter of an hour at 10 a second (the apply of an estate of thousands), the probes past the limit cost at most 1% of what is sent', async () => {
  const limiter = new RateLimiter(() => Date.now());
  const o = await simulate(900, () => limiter.take(['client'], { perSecond: 10, burst: 10 }));
  const [sent, refused, accepted] = [o.sentPerSecond, o.refusedPerSecond, o.acceptedPerSecond].map(sum);
  expect(refused / sent).toBeLessThanOrEqual(0.01);
  expect(accepted / 900).toBeGreaterThanOrEqual(9);
});

test('a limit the run barely passes, a 429 or two a second and never a quarter of the answers, is kept to', async () => {
  const limiter = new RateLimiter(() => Date.now());
  // Three senders with 180 ms between requests: about 15 a second against a limit of 10; each
  // refused one waits its Retry-After, which keeps the 429s to one or two a second.
  const o = await simulate(120, () => limiter.take(['client'], { perSecond: 10, burst: 10 }), 3, 180);
  const [sent, refused] = [o.sentPerSecond, o.refusedPerSecond].map((counts) => sum(counts.slice(20)));
  expect(refused / sent).toBeLessThanOrEqual(0.02);
  expect(sum(o.acceptedPerSecond.slice(20)) / 100).toBeGreaterThanOrEqual(9);
});

test('a platform that refuses one request in ten at random, whatever the rate, is not taken for a limit to stay under', async () => {
  const random = seeded(7);
  const o = await simulate(60, () => (random() < 0.1 ? { allowed: false, retryAfterSeconds: 1 } : { allowed: true }));
  // Each of the hundred waits a second after one request in ten: about 750 a second accepted at most.
  const last = o.acceptedPerSecond.slice(-10);
  expect(sum(last) / last.length).toBeGreaterThan(600);
});

// With a few requests ready at a time, a limit is met with fewer than six 429s in a row: no trims follow it.
describe.each([100])('refusals at random after a limit was met, %i requests ready at a time', (senders) => {
  test('the budget stops trimming its ceiling, goes as fast as where no limit was ever met, and keeps no limit for the next run', async () => {
    const randomOnly = seeded(11);
    const baseline = await simulate(40, () => (randomOnly() < 0.1 ? { allowed: false, retryAfterSeconds: 1 } : { allowed: true }), senders);
    const limiter = new RateLimiter(() => Date.now());
    const random = seeded(11);
    const start = Date.now();
    // A limit of 20 a second for the first three seconds, then one request in ten refused at random.
    const o = await simulate(
      40,
      (): Decision =>
        Date.now() - start < 3000
          ? limiter.take(['client'], { perSecond: 20, burst: 20 })
          : random() < 0.1
            ? { allowed: false, retryAfterSeconds: 1 }
            : { allowed: true },
      senders,
    );
    const lastTen = (counts: number[]) => sum(counts.slice(-10));
    expect(lastTen(o.acceptedPerSecond)).toBeGreaterThan(0.8 * lastTen(baseline.acceptedPerSecond));
    // Nor does it leave the next run a limit to start below.
    expect(o.metLimit).toBeUndefined();
  });
});
