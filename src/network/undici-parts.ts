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
 * undici's ProxyAgent, loaded only for a connection that goes through a proxy, and again without
 * the package's entry point (which costs a proxied launch over 100 ms): the agent opens its
 * tunnel with the `connect` method that the entry point would give every dispatcher, so that
 * one method is given here, as the entry point does it.
 */
export function loadProxyAgent(): typeof UndiciProxyAgent {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const dispatcher = require('undici/lib/dispatcher/dispatcher') as { prototype: { connect?: unknown } };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  dispatcher.prototype.connect ??= require('undici/lib/api/api-connect') as unknown;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('undici/lib/dispatcher/proxy-agent') as typeof UndiciProxyAgent;
}
