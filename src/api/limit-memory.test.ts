import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { keepLimitsIn, keyOf, LIMIT_HOLDS_MS, limitMemoryFile, writeMetLimits } from './limit-memory';
import { governorFor } from './rate-governor';

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
    writeMetLimits(file, 1_000_000);
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
