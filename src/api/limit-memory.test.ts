import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { keepLimitsIn, keyOf, LIMIT_HOLDS_MS, limitMemoryFile, writeBudgetMemory } from './limit-memory';
import { forgetBudgets, governorFor, RateGovernor, type Turn } from './rate-governor';

/** The memory file as JSON, by key. */
const memoryIn = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('rate limits remembered by a working directory', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tenantform-limits-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a limit met is written for the next run, naming neither the data center nor the API client', () => {
    const file = limitMemoryFile(dir);
    const governor = governorFor('https://met.example', 'client-met');
    // Six accepted, then a limit: three of the next answers refused.
    const turns = Array.from({ length: 9 }, () => ({ sentAt: performance.now() }));
    for (const [i, t] of turns.entries()) governor.answered(t, i < 6 ? { throttled: false } : { throttled: true });
    expect(governor.metLimit).toBe(6);
    writeBudgetMemory(file, 1_000_000);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('met.example');
    expect(text).not.toContain('client-met');
    expect(Object.values(JSON.parse(text) as Record<string, unknown>)).toContainEqual({ per_second: 6, at: 1_000_000 });
  });

  test('what an earlier run met starts the budget at 90% of it; past an hour, or unreadable, nothing is recalled', () => {
    const file = limitMemoryFile(dir);
    mkdirSync(dirname(file), { recursive: true });
    // Written as an earlier process wrote it.
    const remember = (origin: string, clientId: string, at: number) => [keyOf(origin, clientId), { per_second: 20, at }] as const;
    const now = 10 * LIMIT_HOLDS_MS;
    writeFileSync(
      file,
      JSON.stringify(Object.fromEntries([remember('https://recent.example', 'c', now - 1000), remember('https://old.example', 'c', now - LIMIT_HOLDS_MS)])),
    );
    const recalled: Array<[string, number]> = [];
    keepLimitsIn(file, { now: () => now, writeAtExit: false, onRecall: (dc, perSecond) => recalled.push([dc, perSecond]) });
    expect(governorFor('https://recent.example', 'c').requestsPerSecond).toBe(18);
    expect(governorFor('https://old.example', 'c').requestsPerSecond).toBeUndefined();
    expect(recalled).toEqual([['https://recent.example', 20]]);
    writeFileSync(file, '{ not json');
    keepLimitsIn(file, { now: () => now, writeAtExit: false });
    expect(governorFor('https://recent-2.example', 'c').requestsPerSecond).toBeUndefined();
  });
});

describe('requests held in flight, remembered by a working directory', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tenantform-in-flight-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The budgets' clock: answers come back at once, never slower than the fastest. */
  const frozen = { now: () => 0 };

  /** `count` requests sent through the budget, each answered (not a 429) as soon as its turn comes. */
  async function answerInTurn(governor: ReturnType<typeof governorFor>, count: number): Promise<void> {
    const granted: Turn[] = [];
    for (let i = 0; i < count; i++) void governor.turn().then((turn) => granted.push(turn));
    for (let answered = 0; answered < count; answered++) {
      await new Promise((resolve) => setImmediate(resolve));
      governor.answered(granted.shift()!, { throttled: false });
    }
  }

  /** A budget's turns taken at once, before any answer: how many it lets go. */
  async function sentBeforeAnAnswer(governor: ReturnType<typeof governorFor>): Promise<number> {
    let sent = 0;
    const turns = Array.from({ length: 100 }, () => governor.turn().then(() => sent++));
    await new Promise((resolve) => setImmediate(resolve));
    void turns;
    return sent;
  }

  test('a run the platform never pushed back on leaves what it held in flight, and the next run starts there', async () => {
    const file = limitMemoryFile(dir);
    const governor = governorFor('https://held.example', 'client-held', frozen);
    // 300 requests to send; slow start: each answer lets one more go, up to 64 at once.
    await answerInTurn(governor, 300);
    expect(governor.heldInFlight).toBe(64);
    writeBudgetMemory(file, 1_000_000);
    expect(Object.values(memoryIn(file))).toContainEqual({ in_flight: 64, in_flight_at: 1_000_000 });

    forgetBudgets();
    keepLimitsIn(file, { now: () => 1_000_000 + 60_000, writeAtExit: false });
    expect(await sentBeforeAnAnswer(governorFor('https://held.example', 'client-held', frozen))).toBe(64);
    // A data center the file knows nothing of starts where the run's parallelism says.
    expect(await sentBeforeAnAnswer(governorFor('https://other.example', 'client-held', frozen))).toBe(10);
    // Past an hour, the platform may have changed: the run starts where its parallelism says.
    forgetBudgets();
    keepLimitsIn(file, { now: () => 1_000_000 + LIMIT_HOLDS_MS, writeAtExit: false });
    expect(await sentBeforeAnAnswer(governorFor('https://held.example', 'client-held', frozen))).toBe(10);
  });

  test('a run with little to send leaves what it had in flight, and does not lower what a run within the hour held', async () => {
    const file = limitMemoryFile(dir);
    const small = governorFor('https://small.example', 'c', frozen);
    await answerInTurn(small, 12);
    // Ten at first; the first answer let two go (its place and one more): eleven at once, fewer than the budget came to allow.
    expect(small.heldInFlight).toBe(11);
    writeBudgetMemory(file, 1_000_000);
    const key = keyOf('https://small.example', 'c');
    expect(memoryIn(file)[key]).toEqual({ in_flight: 11, in_flight_at: 1_000_000 });

    forgetBudgets();
    await answerInTurn(governorFor('https://small.example', 'c', frozen), 300);
    writeBudgetMemory(file, 1_000_100);
    forgetBudgets();
    await answerInTurn(governorFor('https://small.example', 'c', frozen), 5);
    writeBudgetMemory(file, 1_000_200);
    expect(memoryIn(file)[key]).toEqual({ in_flight: 64, in_flight_at: 1_000_100 });
  });

  test('a run whose answers slowed down leaves what it held before they did', async () => {
    let clock = 0;
    const governor = new RateGovernor({ now: () => clock });
    const granted: Turn[] = [];
    for (let i = 0; i < 300; i++) void governor.turn().then((turn) => granted.push(turn));
    for (let answered = 0; answered < 300; answered++) {
      await new Promise((resolve) => setImmediate(resolve));
      // Answers as fast as the first for the first 20, then ten times slower: more in flight only queues.
      clock += answered < 20 ? 1 : 40;
      governor.answered(granted.shift()!, { throttled: false });
    }
    const held = governor.heldInFlight;
    expect(held).toBeGreaterThan(10);
    expect(held).toBeLessThan(64);
  });

  test('a run the platform refused (a limit met, or a single 429) forgets it, and keeps a rate limit met', () => {
    const file = limitMemoryFile(dir);
    mkdirSync(dirname(file), { recursive: true });
    const [throttledKey, refusedOnceKey] = [keyOf('https://throttled.example', 'c'), keyOf('https://refused-once.example', 'c')];
    writeFileSync(
      file,
      JSON.stringify({ [throttledKey]: { in_flight: 64, in_flight_at: 1_000_000 }, [refusedOnceKey]: { in_flight: 64, in_flight_at: 1_000_000 } }),
    );
    keepLimitsIn(file, { now: () => 1_000_000, writeAtExit: false });
    forgetBudgets();
    const throttled = governorFor('https://throttled.example', 'c', frozen);
    const turns = Array.from({ length: 9 }, () => ({ sentAt: 0 }));
    for (const [i, t] of turns.entries()) throttled.answered(t, i < 6 ? { throttled: false } : { throttled: true });
    expect(throttled.heldInFlight).toBeNull();

    governorFor('https://refused-once.example', 'c', frozen).answered({ sentAt: 0 }, { throttled: true });
    writeBudgetMemory(file, 1_000_500);
    const memory = memoryIn(file);
    expect(memory[throttledKey]).toEqual({ per_second: 6, at: 1_000_500 });
    expect(memory[refusedOnceKey]).toBeUndefined();
  });
});
