import { RateLimiter } from './rate-limit';

describe('the emulated rate limit', () => {
  test('a bucket lets its burst through at once, then one request per 1/rate seconds, and counts the refused', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const settings = { perSecond: 2, burst: 3 };
    const take = () => limiter.take(['client:a'], settings);
    expect([take(), take(), take()].every((r) => r.allowed)).toBe(true);
    expect(take()).toEqual({ allowed: false, retryAfterSeconds: 1 });
    now += 500; // half a second: one token
    expect(take().allowed).toBe(true);
    expect(take().allowed).toBe(false);
    expect(limiter.refused).toBe(2);
  });

  test('each key has its bucket; a request needs a token from every key it names, and takes none when refused', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const settings = { perSecond: 1, burst: 1 };
    expect(limiter.take(['address:x', 'client:a'], settings).allowed).toBe(true);
    // Another client from the same address: the address's bucket is empty.
    expect(limiter.take(['address:x', 'client:b'], settings).allowed).toBe(false);
    // Another address for client b: its own bucket was left untouched by the refusal.
    expect(limiter.take(['address:y', 'client:b'], settings).allowed).toBe(true);
    now += 1000;
    expect(limiter.take(['address:x', 'client:a'], settings).allowed).toBe(true);
  });

  test('off at 0 requests per second', () => {
    const limiter = new RateLimiter(() => 0);
    for (let i = 0; i < 100; i++) expect(limiter.take(['client:a'], { perSecond: 0, burst: 0 }).allowed).toBe(true);
    expect(limiter.refused).toBe(0);
  });
});
