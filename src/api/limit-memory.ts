/**
 * The rate limits met by earlier runs in a working directory, so that the next run (the apply
 * after a plan in a pipeline's job, the provider Terraform launches again for each command)
 * starts below the limit instead of meeting it again at full speed: what a run meets first is
 * refused together, whatever the budget learns after. Kept in `.terraform/`, beside what
 * `terraform init` keeps, for an hour (a platform's limits change). Nothing secret is written:
 * data centers and API clients are named by a hash.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { metLimits, recallLimitsWith } from './rate-governor';

/** How long a limit met holds for later runs. */
export const LIMIT_HOLDS_MS = 60 * 60 * 1000;

const MemoryFile = z.record(z.string(), z.object({ per_second: z.number().positive(), at: z.number() }));
type Memory = z.infer<typeof MemoryFile>;

/** The file a working directory keeps its limits in. */
export function limitMemoryFile(workingDir: string): string {
  return join(workingDir, '.terraform', 'tenantform-rate-limits.json');
}

/** How a data center and API client are named in the file. */
export const keyOf = (origin: string, clientId: string) => createHash('sha256').update(`${origin} ${clientId}`).digest('hex').slice(0, 32);

/** What the file holds that still holds now; nothing when it is missing or unreadable (it is only a hint). */
function read(file: string, now: number): Memory {
  try {
    const parsed = MemoryFile.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return {};
    return Object.fromEntries(Object.entries(parsed.data).filter(([, e]) => now - e.at < LIMIT_HOLDS_MS && e.at <= now));
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
  recallLimitsWith((origin, clientId) => {
    const perSecond = remembered[keyOf(origin, clientId)]?.per_second;
    if (perSecond !== undefined) options.onRecall?.(origin, perSecond);
    return perSecond;
  });
  const write = () => writeMetLimits(file, now());
  if (options.writeAtExit !== false) {
    if (writeAtExit === undefined) process.once('exit', () => writeAtExit?.());
    writeAtExit = write;
  }
  return write;
}

/** Adds the limits met in this process to the file (written whole, then renamed: a reader never sees half of it). */
export function writeMetLimits(file: string, now: number): void {
  const met = metLimits();
  if (met.length === 0) return;
  const memory = read(file, now);
  for (const m of met) memory[keyOf(m.origin, m.clientId)] = { per_second: m.perSecond, at: now };
  try {
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(memory, null, 2)}\n`);
    renameSync(partial, file);
  } catch {
    // Only a hint for the next run: a folder that cannot be written loses nothing else.
  }
}
