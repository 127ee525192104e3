/**
 * What earlier runs in a working directory learned of the platform, so that the next run (the
 * apply after a plan in a pipeline's job, the provider Terraform launches again for each command)
 * starts from it instead of learning it again: the rate limits they met, so that it starts below
 * them rather than meeting them again at full speed (what a run meets first is refused together,
 * whatever the budget learns after), and the requests they held in flight without the platform
 * pushing back, so that it starts there rather than at its parallelism, a few round trips of a
 * slow start saved. Kept in `.terraform/`, beside what `terraform init` keeps, for an hour (a
 * platform's limits change). Nothing secret is written: data centers and API clients are named
 * by a hash.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { budgetsLeft, recallLimitsWith, type Recalled } from './rate-governor';

/** How long a limit met, or the requests held in flight, hold for later runs. */
export const LIMIT_HOLDS_MS = 60 * 60 * 1000;

/** By data center and API client: a rate limit met (`per_second`, when: `at`) and the requests held in flight (`in_flight`, when: `in_flight_at`). */
const MemoryFile = z.record(
  z.string(),
  z.object({
    per_second: z.number().positive().optional(),
    at: z.number().optional(),
    in_flight: z.number().int().positive().optional(),
    in_flight_at: z.number().optional(),
  }),
);
type Memory = z.infer<typeof MemoryFile>;
type Entry = Memory[string];

/** The file a working directory keeps its limits in. */
export function limitMemoryFile(workingDir: string): string {
  return join(workingDir, '.terraform', 'tenantform-rate-limits.json');
}

/** How a data center and API client are named in the file. */
export const keyOf = (origin: string, clientId: string) => createHash('sha256').update(`${origin} ${clientId}`).digest('hex').slice(0, 32);

const holds = (at: number | undefined, now: number) => at !== undefined && now - at < LIMIT_HOLDS_MS && at <= now;

/** What the file holds that still holds now; nothing when it is missing or unreadable (it is only a hint). */
function read(file: string, now: number): Memory {
  try {
    const parsed = MemoryFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return {};
    return Object.fromEntries(
      Object.entries(parsed.data).flatMap(([key, e]) => {
        const entry: Entry = {
          ...(e.per_second !== undefined && holds(e.at, now) ? { per_second: e.per_second, at: e.at } : {}),
          ...(e.in_flight !== undefined && holds(e.in_flight_at, now) ? { in_flight: e.in_flight, in_flight_at: e.in_flight_at } : {}),
        };
        return Object.keys(entry).length === 0 ? [] : [[key, entry]];
      }),
    );
  } catch {
    return {};
  }
}

/** What the latest keepLimitsIn writes when the process exits: one listener, however many commands one process runs. */
let writeAtExit: (() => void) | undefined;

/**
 * Budgets made from now on start below the limits `file` remembers; the limits this process
 * meets are written to it by the function returned, and when the process exits (a command
 * stopped by a signal).
 */
export function keepLimitsIn(
  file: string,
  options: { onRecall?: (dataCenter: string, perSecond: number) => void; now?: () => number; writeAtExit?: boolean } = {},
): () => void {
  const now = options.now ?? Date.now;
  const remembered = read(file, now());
  recallLimitsWith((origin, clientId): Recalled => {
    const entry = remembered[keyOf(origin, clientId)] ?? {};
    if (entry.per_second !== undefined) options.onRecall?.(origin, entry.per_second);
    return { perSecond: entry.per_second, inFlight: entry.in_flight };
  });
  const write = () => writeBudgetMemory(file, now());
  if (options.writeAtExit !== false) {
    if (writeAtExit === undefined) process.once('exit', () => writeAtExit?.());
    writeAtExit = write;
  }
  return write;
}

/** Adds what this process's budgets learned to the file (written whole, then renamed: a reader never sees half of it). */
export function writeBudgetMemory(file: string, now: number): void {
  const left = budgetsLeft();
  if (left.length === 0) return;
  const memory = read(file, now);
  for (const b of left) {
    const key = keyOf(b.origin, b.clientId);
    const entry: Entry = { ...memory[key] };
    if (b.perSecond !== undefined) Object.assign(entry, { per_second: b.perSecond, at: now });
    if (b.inFlight === null) [entry.in_flight, entry.in_flight_at] = [undefined, undefined];
    // A run that held fewer proves nothing against more that a run within the hour held (it may have had less to send).
    else if (b.inFlight !== undefined && !(b.inFlight < (entry.in_flight ?? 0))) Object.assign(entry, { in_flight: b.inFlight, in_flight_at: now });
    const kept = Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));
    if (Object.keys(kept).length === 0) delete memory[key];
    else memory[key] = kept;
  }
  try {
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(memory, null, 2)}\n`);
    renameSync(partial, file);
  } catch {
    // Only a hint for the next run: a folder that cannot be written loses nothing else.
  }
}
