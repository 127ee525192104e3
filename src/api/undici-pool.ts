import type { Pool as UndiciPool } from 'undici';

/**
 * undici's Pool without the rest of undici. The package's entry point also loads fetch,
 * WebSocket, web streams, caches, mock agents and the stream-based request methods, none of
 * which the platform client uses (it dispatches with a handler of its own, see http.ts): about
 * a sixth of every launch.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const Pool = require('undici/lib/dispatcher/pool') as typeof UndiciPool;
export type Pool = UndiciPool;
