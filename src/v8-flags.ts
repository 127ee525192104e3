import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a process that runs for seconds and exits, each with the flags that put V8
 * back to its defaults. V8 accepts a code cache (the CLI bundle's, and Node's own for its
 * built-in modules) only under the flags it was made with, so they are set once the program is
 * loaded, and reset before a code cache is written.
 */
export interface V8Setting {
  readonly set: string;
  readonly reset: string;
}

/**
 * WebAssembly stays on V8's baseline compiler. undici parses HTTP with llhttp compiled to
 * WebAssembly; by default V8 recompiles the hot parser with its optimizing compiler in the
 * background, which costs about 35 MB of memory and 100 ms of CPU at every launch: more than the
 * optimized parser saves on the few thousand responses a command reads.
 */
export const WASM_ON_BASELINE_COMPILER: V8Setting = {
  set: '--no-wasm-tier-up --no-wasm-dynamic-tiering',
  reset: '--wasm-tier-up --wasm-dynamic-tiering',
};

/**
 * The heap grows to twice its live data between full collections (as Go's GOGC=100 does), not
 * the up to four times V8 allows a long-running process: a plan of 10,000 objects peaks about
 * 10 MB lower for about the same CPU time.
 */
export const HEAP_GROWS_TO_TWICE_LIVE: V8Setting = { set: '--heap-growing-percent=100', reset: '--heap-growing-percent=0' };

/** What the CLI's launcher (bin/tenantform.js) sets. */
export const CLI_V8_SETTINGS: readonly V8Setting[] = [WASM_ON_BASELINE_COMPILER, HEAP_GROWS_TO_TWICE_LIVE];

export function applyV8Settings(settings: readonly V8Setting[]): void {
  for (const s of settings) setFlagsFromString(s.set);
}

export function resetV8Settings(settings: readonly V8Setting[]): void {
  for (const s of settings) setFlagsFromString(s.reset);
}
