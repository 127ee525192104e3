import type { Pool as UndiciPool } from 'undici';

/**
 * undici's Pool without the rest of undici. The package's entry point also loads fetch,
 * WebSocket, web streams, caches and mock agents, none of which the platform client uses:
 * about a sixth of every launch. The entry point gives its dispatchers their request methods
 * (`pool.request`); this module does the same, with the same functions.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
const Dispatcher = require('undici/lib/dispatcher/dispatcher') as { prototype: object };
Object.assign(Dispatcher.prototype, require('undici/lib/api'));

export const Pool = require('undici/lib/dispatcher/pool') as typeof UndiciPool;
export type Pool = UndiciPool;
