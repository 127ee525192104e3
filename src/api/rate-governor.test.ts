import { RateGovernor, type Turn } from './rate-governor';

/** A governor on a clock the test moves. */
function governed(options: { initial?: number; requestsPerSecond?: number } = {}) {
  const clock = { now: 0 };
  return { clock, governor: new RateGovernor({ ...options, now: () => clock.now }) };
}

/** Whether the promise has settled after every pending callback has run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('the shared request budget', () => {
  test('never more in flight than the limit; an answer lets the next in line go, in order', async () => {
    const { governor } = governed({ initial: 2 });
    const a = await governor.turn();
    await governor.turn();
    const third = governor.turn();
    const fourth = governor.turn();
    const fifth = governor.turn();
    expect(await settled(third)).toBe(false);
    // The answer frees a place and raises the limit to 3: the next two in line go, the fifth waits.
    governor.answered(a, { throttled: false });
    expect(await settled(third)).toBe(true);
    expect(await settled(fourth)).toBe(true);
    expect(await settled(fifth)).toBe(false);
  });

  test('a 429 halves the limit once per round trip and holds every request back for its Retry-After', async () => {
    const { governor, clock } = governed({ initial: 8 });
    const turns = await Promise.all(Array.from({ length: 8 }, () => governor.turn()));
    clock.now = 10;
    governor.answered(turns[0], { throttled: true, retryAfterMs: 1000 });
    // The others were sent before the limit was halved: their 429s do not halve it again.
    for (const t of turns.slice(1, 4)) governor.answered(t, { throttled: true, retryAfterMs: 1000 });
    expect(governor.limit).toBe(4);
    expect(governor.heldForMs).toBe(1000);
    const held = governor.turn();
    expect(await settled(held)).toBe(false);
    for (const t of turns.slice(4)) governor.answered(t, { throttled: false });
    expect(await settled(held)).toBe(false); // places are free, but the platform asked to wait
    clock.now = 1010; // the wait is over when its timer fires
    await held;
  });

  test('until the platform pushes back, each answer raises the limit by one: it doubles every round trip', async () => {
    const { governor, clock } = governed({ initial: 4 });
    const turns = await Promise.all(Array.from({ length: 4 }, () => governor.turn()));
    clock.now = 20;
    for (const t of turns) governor.answered(t, { throttled: false });
    expect(governor.limit).toBe(8);
  });

  test('when answers come back ever slower, the limit falls by a tenth a round trip, to no lower than it started', async () => {
    const { governor, clock } = governed({ initial: 10 });
    // A platform that keeps up, at 20 ms a request: the limit rises to 40.
    for (let i = 0; i < 2; i++) {
      const turns = await Promise.all(Array.from({ length: governor.limit }, () => governor.turn()));
      clock.now += 20;
      for (const t of turns) governor.answered(t, { throttled: false });
    }
    expect(governor.limit).toBe(40);
    // Then each answer takes 200 ms: requests queue at the platform.
    const limits: number[] = [];
    for (let round = 0; round < 30; round++) {
      const turns = await Promise.all(Array.from({ length: governor.limit }, () => governor.turn()));
      clock.now += 200;
      for (const t of turns) governor.answered(t, { throttled: false });
      limits.push(governor.limit);
    }
    expect(limits[0]).toBeLessThan(40);
    expect(limits.every((l, i) => i === 0 || l <= limits[i - 1])).toBe(true);
    expect(limits.at(-1)).toBe(10);
    // Fast answers again: the limit rises, by about one a round trip now.
    for (let round = 0; round < 5; round++) {
      const turns = await Promise.all(Array.from({ length: governor.limit }, () => governor.turn()));
      clock.now += 20;
      for (const t of turns) governor.answered(t, { throttled: false });
    }
    expect(governor.limit).toBeGreaterThan(10);
    expect(governor.limit).toBeLessThan(20);
  });

  test('answers raise the limit by about one per round trip, up to the maximum', async () => {
    const { governor } = governed({ initial: 2 });
    for (let i = 0; i < 20; i++) governor.answered(await governor.turn(), { throttled: false });
    expect(governor.limit).toBeGreaterThan(2);
    expect(governor.progress).toBe(20);
  });

  test('a ceiling of requests per second lets one second of requests go at once, then spreads the rest', async () => {
    const { governor, clock } = governed({ requestsPerSecond: 3 });
    for (let i = 0; i < 3; i++) governor.answered(await governor.turn(), { throttled: false });
    const fourth = governor.turn();
    expect(await settled(fourth)).toBe(false);
    clock.now = 334; // a third of a second: one more request
    await fourth;
  });

  test('a 429 after a burst learns the rate the platform accepted, not the rate the burst was sent at', async () => {
    const { governor, clock } = governed({ initial: 16 });
    // A platform whose bucket holds 40 requests: 16 at once, 5 ms a round trip; the first 40 go through.
    let accepted = 0;
    let sent = 0;
    while (governor.requestsPerSecond === undefined && sent < 160) {
      const turns = await Promise.all(Array.from({ length: 16 }, () => governor.turn()));
      sent += turns.length;
      clock.now += 5;
      for (const t of turns) {
        if (accepted < 40) {
          governor.answered(t, { throttled: false });
          accepted++;
        } else governor.answered(t, { throttled: true, retryAfterMs: 1000 });
      }
    }
    // 48 were sent in 15 ms (3,200 a second) before six refusals in a row showed a limit; 40 went through.
    expect(sent).toBe(48);
    expect(governor.requestsPerSecond).toBe(28);
  });

  test('answers that slowed down do not stop the 429s sent beside them from halving the limit and setting a ceiling', async () => {
    const { governor, clock } = governed({ initial: 10 });
    // Fast answers raise the limit to 20; then 20 go at once.
    const first = await Promise.all(Array.from({ length: 10 }, () => governor.turn()));
    clock.now = 5;
    for (const t of first) governor.answered(t, { throttled: false });
    const turns = await Promise.all(Array.from({ length: 20 }, () => governor.turn()));
    // The first answers come back slowly (requests queue at the platform): the limit eases to 18...
    clock.now = 205;
    for (const t of turns.slice(0, 8)) governor.answered(t, { throttled: false });
    expect(governor.limit).toBe(18);
    // ...and the rest are refused: a limit, met by requests sent before the limit eased.
    for (const t of turns.slice(8)) governor.answered(t, { throttled: true, retryAfterMs: 1000 });
    expect(governor.limit).toBe(9);
    expect(governor.requestsPerSecond).toBeCloseTo(12.6);
  });

  /** A turn on jest's fake clock: time moves a millisecond at a time until the budget grants it. */
  async function turnOnFakeClock(governor: RateGovernor): Promise<Turn> {
    let granted: Turn | undefined;
    void governor.turn().then((t) => (granted = t));
    while (granted === undefined) await jest.advanceTimersByTimeAsync(1);
    return granted;
  }

  /** Requests one after another for `ms` of the fake clock, each accepted at once; how many went. */
  async function acceptedFor(governor: RateGovernor, ms: number): Promise<number> {
    const start = Date.now();
    let accepted = 0;
    for (; Date.now() - start < ms; accepted++) governor.answered(await turnOnFakeClock(governor), { throttled: false });
    return accepted;
  }

  /** `count` senders, each request accepted after `answerMs`, until the returned stop is awaited. */
  function acceptingSenders(governor: RateGovernor, count: number, answerMs: number): () => Promise<void> {
    let running = true;
    const sender = async () => {
      while (running) {
        const t = await governor.turn();
        await new Promise((r) => setTimeout(r, answerMs));
        governor.answered(t, { throttled: false });
      }
    };
    const senders = Array.from({ length: count }, sender);
    return async () => {
      running = false;
      await jest.advanceTimersByTimeAsync(1000);
      await Promise.all(senders);
    };
  }

  test('429s at the start of a run that starts below a limit met before trim by the rate since the first request', async () => {
    jest.useFakeTimers();
    try {
      const governor = new RateGovernor({ initial: 20, now: () => Date.now() });
      governor.startBelow(100);
      // Eight requests at 70 a second, in the run's first 100 ms; six accepted, then two 429s.
      const turns: Turn[] = [];
      for (let i = 0; i < 8; i++) turns.push(await turnOnFakeClock(governor));
      for (const [i, t] of turns.entries()) governor.answered(t, i >= 6 ? { throttled: true, retryAfterMs: 1000 } : { throttled: false });
      // Six in about a tenth of a second is about 60 a second, not 6.
      expect(governor.requestsPerSecond).toBeGreaterThan(40);
      expect(governor.requestsPerSecond).toBeLessThanOrEqual(70);
    } finally {
      jest.useRealTimers();
    }
  });

  test('after a limit, a trickle of 429s trims the ceiling to 90% of the rate accepted, once a second, holding no one back', async () => {
    jest.useFakeTimers();
    try {
      const governor = new RateGovernor({ initial: 10, now: () => Date.now() });
      governor.startBelow(100);
      // A second at the ceiling of 90 a second (as the clock's milliseconds allow), all accepted; then two 429s.
      const accepted = await acceptedFor(governor, 1000);
      const [a, b] = [await turnOnFakeClock(governor), await turnOnFakeClock(governor)];
      governor.answered(a, { throttled: true, retryAfterMs: 1000 });
      expect(governor.requestsPerSecond).toBeGreaterThan(accepted);
      governor.answered(b, { throttled: true, retryAfterMs: 1000 });
      expect(governor.requestsPerSecond).toBeGreaterThan(0.9 * (accepted - 5));
      expect(governor.requestsPerSecond).toBeLessThan(0.9 * (accepted + 3));
      expect(governor.heldForMs).toBe(0);
      // More 429s within the second after it do not trim again.
      const ceiling = governor.requestsPerSecond;
      for (let i = 0; i < 3; i++) governor.answered(await turnOnFakeClock(governor), { throttled: true, retryAfterMs: 1000 });
      expect(governor.requestsPerSecond).toBeGreaterThanOrEqual(ceiling!);
    } finally {
      jest.useRealTimers();
    }
  });

  test("a trim after a limit's Retry-After measures the rate accepted since the wait ended, not the wait", async () => {
    jest.useFakeTimers();
    try {
      const governor = new RateGovernor({ initial: 10, now: () => Date.now() });
      // A second of 100 a second, all accepted; then six 429s in a row: a bucket run dry, held a second.
      for (let i = 0; i < 100; i++) {
        governor.answered(await turnOnFakeClock(governor), { throttled: false });
        await jest.advanceTimersByTimeAsync(10);
      }
      const dry = await Promise.all(Array.from({ length: 6 }, () => turnOnFakeClock(governor)));
      for (const t of dry) governor.answered(t, { throttled: true, retryAfterMs: 1000 });
      expect(governor.heldForMs).toBeGreaterThan(900);
      const learned = governor.requestsPerSecond!;
      // After the wait, 300 ms at the learned ceiling, all accepted; then two 429s.
      const resumed = await turnOnFakeClock(governor);
      governor.answered(resumed, { throttled: false });
      const accepted = 1 + (await acceptedFor(governor, 300));
      for (let i = 0; i < 2; i++) governor.answered(await turnOnFakeClock(governor), { throttled: true, retryAfterMs: 1000 });
      // 90% of what went through in those 300 ms, about the ceiling (over the whole last second, a third of it).
      expect(accepted).toBeGreaterThan(15);
      expect(governor.requestsPerSecond).toBeGreaterThan(0.75 * learned);
      expect(governor.requestsPerSecond).toBeLessThanOrEqual(0.9 * learned + 1);
    } finally {
      jest.useRealTimers();
    }
  });

  test('past a rate found, with no 429, the ceiling probes as fast as after any limit: that rate was measured short', async () => {
    jest.useFakeTimers();
    try {
      const governor = new RateGovernor({ initial: 4, now: () => Date.now() });
      // An earlier run met 10 a second; this platform accepts everything, answering in 10 ms.
      governor.startBelow(10);
      const stop = acceptingSenders(governor, 4, 10);
      await jest.advanceTimersByTimeAsync(10_000);
      // Slowly near it: from 9 by less than one in ten seconds (at 10 a second, the slow rise spans 400 requests)...
      expect(governor.requestsPerSecond).toBeLessThan(10);
      await jest.advanceTimersByTimeAsync(70_000);
      await stop();
      // ...past 11 within a minute, then well past it within twenty seconds more (near it all along, about 13).
      expect(governor.requestsPerSecond).toBeGreaterThan(100);
    } finally {
      jest.useRealTimers();
    }
  });

  test('a ceiling learned from 429s rises slowly at first, then ever faster while no limit is met: it is left behind in seconds', async () => {
    jest.useFakeTimers();
    try {
      const governor = new RateGovernor({ initial: 8, now: () => Date.now() });
      // Eight at once, three of them refused: a limit, learned at 70% of the five accepted.
      const turns = await Promise.all(Array.from({ length: 8 }, () => governor.turn()));
      await jest.advanceTimersByTimeAsync(10);
      for (const [i, t] of turns.entries()) governor.answered(t, i >= 5 ? { throttled: true } : { throttled: false });
      expect(governor.requestsPerSecond).toBe(3.5);
      // Then the platform accepts everything, answering in 10 ms, to four requests at a time.
      const ceilings: number[] = [];
      const stop = acceptingSenders(governor, 4, 10);
      for (let second = 0; second < 15; second++) {
        await jest.advanceTimersByTimeAsync(1000);
        ceilings.push(governor.requestsPerSecond!);
      }
      await stop();
      // One request per second a second at first, as when a limit is near...
      expect(ceilings[1]).toBeLessThan(3.5 + 2 * 1.5);
      // ...and above what four at a time can send (400 a second) within fifteen seconds (the rise alone would take minutes).
      expect(ceilings[14]).toBeGreaterThan(400);
    } finally {
      jest.useRealTimers();
    }
  });
});
