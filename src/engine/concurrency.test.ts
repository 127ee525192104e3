/**
 * How many objects the engine reads and changes at once. With `-parallelism` given, never more
 * than it says; without it, as many as the data center's shared request budget allows: 10 at
 * first, more while the platform keeps up, fewer once it refuses. The emulator's `gather` answers
 * a group of requests only once all of them are in flight: a run that never sends that many at
 * once never ends, so the figures below hold whatever the machine's speed.
 */
import { governorFor } from '../api/rate-governor';
import { arrivalChannel, type Arrival } from '../emulator/channels';
import { customerEstate, requestsDuring, useEngineHarness } from './testing';

const harness = useEngineHarness({ seed: 21 });

const keys = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
const isUserCreate = (r: Arrival) => r.method === 'POST' && r.path === '/api/2/users';
const isUserRead = (r: Arrival) => r.method === 'GET' && r.path.startsWith('/api/2/users/');

/** The budget the harness's runs share (one per data center and API client in the process). */
const budget = () => governorFor(new URL(harness.emulator.url).origin, harness.emulator.clientId);

/** Runs `work` with every answer slowed, so that more requests at once would be seen if sent. */
async function slowed<T>(work: () => Promise<T>): Promise<T> {
  harness.emulator.setFaults({ latency_ms: 50 });
  try {
    return await work();
  } finally {
    harness.emulator.setFaults({ latency_ms: 0 });
  }
}

/** 40 customers, each with an administrator: a refresh reads the 40 users one by one. */
const wide = () => customerEstate(harness, keys('c', 40), 'Wide', 'wide');

describe('objects at once', () => {
  test('without -parallelism, an apply where the platform keeps up sends more than 10 requests at once', async () => {
    // The first 11 user creates are answered only once all 11 are in flight.
    const eleven = harness.emulator.gather(isUserCreate, 11);
    const { applied } = await slowed(() => harness.apply(wide()));
    expect(applied).toMatchObject({ added: 80, diagnostics: [] });
    await eleven;
    expect(harness.emulator.takePeakInFlight()).toBeGreaterThan(10);
  });

  test('without -parallelism, a plan reads more than 10 objects at once (the budget learnt from the apply above)', async () => {
    const eleven = harness.emulator.gather(isUserRead, 11);
    const planned = await slowed(() => harness.plan(wide()));
    expect(planned.plan.diagnostics).toEqual([]);
    await eleven;
    expect(harness.emulator.takePeakInFlight()).toBeGreaterThan(10);
  });

  test('-parallelism=3 is a cap: a plan reads 3 objects at once, never more, however much the budget allows', async () => {
    expect(budget().limit).toBeGreaterThan(10);
    harness.emulator.takePeakInFlight();
    const three = harness.emulator.gather(isUserRead, 3);
    const planned = await slowed(() => harness.plan(wide(), { parallelism: 3 }));
    expect(planned.plan.diagnostics).toEqual([]);
    await three;
    expect(harness.emulator.takePeakInFlight()).toBe(3);
  });

  test('under a rate limit the budget falls: half as many allowed at once or fewer, and few requests refused', async () => {
    const before = budget().limit;
    expect(before).toBeGreaterThan(10);
    const refusedBefore = harness.emulator.refusedByLimit();
    // What the budget allows as each request arrives.
    const allowed: number[] = [];
    const sent = await requestsDuring(async () => {
      const sample = () => void allowed.push(budget().limit);
      arrivalChannel.subscribe(sample);
      harness.emulator.setFaults({ limit_per_second: 60, limit_burst: 5 });
      try {
        const { applied } = await harness.apply(customerEstate(harness, keys('l', 24), 'Narrow', 'narrow'));
        expect(applied).toMatchObject({ added: 48, diagnostics: [] });
      } finally {
        harness.emulator.setFaults({ limit_per_second: 0, limit_burst: 0 });
        arrivalChannel.unsubscribe(sample);
      }
    });
    const api = sent.filter((r) => r.path.startsWith('/api/') && !r.path.endsWith('/idp/token')).length;
    const refused = harness.emulator.refusedByLimit() - refusedBefore;
    expect(refused).toBeGreaterThan(0); // the limit was met
    expect(Math.min(...allowed)).toBeLessThanOrEqual(before / 2);
    // The requests in flight when the limit is first met are refused together (as many as the
    // budget allowed then); then it halves each round trip and keeps to a learnt rate: few more.
    expect(refused / api).toBeLessThan(0.2);
  });
});
