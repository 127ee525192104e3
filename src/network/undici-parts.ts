import type { Pool as UndiciPool, ProxyAgent as UndiciProxyAgent } from 'undici';

/**
 * undici's Pool without the rest of undici. The package's entry point also loads fetch,
 * WebSocket, web streams, caches, mock agents and the stream-based request methods, none of
 * which the platform client uses (it dispatches with a handler of its own, see
 * src/api/http.ts): about a sixth of every launch.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const Pool = require('undici/lib/dispatcher/pool') as typeof UndiciPool;
export type Pool = UndiciPool;

/**
 * undici's ProxyAgent, loaded only for a connection that goes through a proxy. It comes from the
 * package's entry point: the tunnel is opened with the `connect` method that the entry point
 * gives every dispatcher.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const loadProxyAgent = (): typeof UndiciProxyAgent => (require('undici') as typeof import('undici')).ProxyAgent;
