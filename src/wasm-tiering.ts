import { setFlagsFromString } from 'node:v8';

/**
 * Keeps WebAssembly on V8's baseline compiler for this process.
 *
 * undici parses HTTP with llhttp compiled to WebAssembly. By default V8 recompiles the hot
 * parser with its optimizing compiler in the background, which costs about 35 MB of memory
 * and 100 ms of CPU at every launch: more than the optimized parser saves on the few
 * thousand responses a command reads. Call it before the first connection; the flag applies
 * to modules compiled after it. The provider calls it; the CLI's launcher (bin/tenantform.js)
 * sets the same flag before it compiles the bundle.
 */
export function keepWasmOnBaselineCompiler(): void {
  setFlagsFromString('--liftoff-only');
}
