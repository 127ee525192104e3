/**
 * The emulator's HTTP server: wires the interfaces, the token endpoints, fault injection and the
 * control endpoints onto one `node:http` server.
 */
import { furnishMspAccount } from './msp-account';
import { RateLimiter } from './rate-limit';
import * as http from 'node:http';
import * as https from 'node:https';
import { arrivalChannel, exchangeChannel, type Arrival, type Exchange } from './channels';
import { randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { accountRoutes } from './accounts';
import { agentRoutes } from './agents';
import { alertRoutes } from './alerts';
import { TokenService } from './auth';
import { handleControl, summarizeWorld, type WorldSummary } from './control';
import { errorsFor, HttpError } from './errors';
import { eventRoutes } from './events';
import { FaultInjector, type Faults } from './faults';
import { errorReply, Router, type Reply } from './router';
import { Store } from './store';

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Load the world from this file when it exists; write it after every mutation. */
  dataFile?: string;
  /** Same seed, same world, same secrets and same fault decisions. Random when absent. */
  seed?: number;
  faults?: Partial<Faults>;
  /** One line per request: method, path (query secrets masked), status, milliseconds. */
  log?: (line: string) => void;
  /** What a tenant's applications listing holds (see `Store.tenantApplications`); default `on`. */
  tenantApplications?: 'on' | 'available';
  /**
   * What versions are (see `Store.versions`): timestamps when the account is asked for as `msp` (as
   * `tenantform emulator` does), counters otherwise, so that tests can name them.
   */
  versions?: 'counters' | 'timestamps';
  /**
   * Whose account the primary API client is: an MSP's (default), on its partner tenant, with
   * console-made users and alerts in its customers (`furnishMspAccount`), as a real MSP's account
   * meets the platform; or the root's, for what only the platform's root can do.
   */
  account?: 'root' | 'msp';
  /** Serve https with this key and certificate (PEM), as the platform does; http without. */
  tls?: { key: string; cert: string };
}

export interface RunningEmulator {
  url: string;
  clientId: string;
  clientSecret: string;
  rootTenantId: string;
  /** The tenant the primary API client sits on: the MSP's partner by default, the root with `account: 'root'`. */
  tenantId: string;
  setFaults(f: Partial<Faults>): void;
  /**
   * A fault aimed at one request: the `nth` /api request that `matches` (counted from now) is
   * processed and its answer lost, as `lost_answer_rate` does at random.
   */
  loseAnswer(matches: (r: Arrival) => boolean, nth?: number): void;
  /**
   * Holds the /api requests that match until `count` of them are held, then answers them all:
   * resolves then. A test that must see `count` requests in flight at once waits on this, never
   * on a timer (a client that never sends that many at once never gets its answers).
   */
  gather(matches: (r: Arrival) => boolean, count: number): Promise<void>;
  /** The most /api requests handled at once since the emulator started or this was last called. */
  takePeakInFlight(): number;
  /** Requests refused by the rate limit (`limit_per_second`) since the emulator started. */
  refusedByLimit(): number;
  world(): WorldSummary;
  close(): Promise<void>;
}

const TOKEN_PATHS = new Set(['/api/2/idp/token', '/bc/idp/token']);
const MAX_BODY_BYTES = 1024 * 1024;
const SECRET_QUERY = /^(access_token|client_secret|token|id_token|password)$/i;

function readBody(req: http.IncomingMessage): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The path and query for the log, with secret query values masked. */
function loggablePath(url: URL): string {
  const q = new URLSearchParams();
  for (const [k, v] of url.searchParams) q.append(k, SECRET_QUERY.test(k) ? '***' : v);
  const s = q.toString();
  return s === '' ? url.pathname : `${url.pathname}?${s}`;
}

function send(res: http.ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if (reply.body === undefined || reply.status === 204) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = typeof reply.body === 'string' && headers['content-type'] !== undefined ? reply.body : JSON.stringify(reply.body);
  headers['content-type'] ??= 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(text));
  res.writeHead(reply.status, headers);
  res.end(text);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function startEmulator(opts: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed = opts.seed ?? randomInt(0, 2 ** 31);
  const store = Store.open(seed, opts.dataFile);
  store.tenantApplications = opts.tenantApplications ?? 'on';
  store.versions = opts.versions ?? (opts.account === 'msp' ? 'timestamps' : 'counters');
  if (opts.account !== 'root') furnishMspAccount(store);
  const faults = new FaultInjector(opts.seed ?? store.world.seed, opts.faults ?? {});
  const tokens = new TokenService(store);
  const router = new Router([accountRoutes, agentRoutes, eventRoutes, alertRoutes]);
  const log = opts.log ?? (() => undefined);
  const aimed: Array<{ matches: (r: Arrival) => boolean; left: number }> = [];
  /** Whether an aimed fault takes this request (each aimed fault takes one). */
  const aimedAt = (r: Arrival): boolean => {
    let hit = false;
    for (const a of aimed) if (a.matches(r) && --a.left === 0) hit = true;
    for (let i = aimed.length - 1; i >= 0; i--) if (aimed[i].left <= 0) aimed.splice(i, 1);
    return hit;
  };

  const gatherings: Array<{ matches: (r: Arrival) => boolean; count: number; held: Array<() => void>; opened: () => void }> = [];
  /** Waits while a gathering holds this request (see `gather`). */
  const gathered = (r: Arrival): Promise<void> | undefined => {
    const g = gatherings.find((x) => x.matches(r));
    if (g === undefined) return undefined;
    const waiting = new Promise<void>((resolve) => g.held.push(resolve));
    if (g.held.length >= g.count) {
      gatherings.splice(gatherings.indexOf(g), 1);
      for (const release of g.held) release();
      g.opened();
    }
    return waiting;
  };
  const inFlight = { now: 0, peak: 0 };
  const limiter = new RateLimiter();
  /** The buckets a request takes from: its API client's (when its token is one) and its source address's. */
  const limitKeys = (req: http.IncomingMessage): string[] => {
    const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const clientId = token === undefined ? undefined : tokens.clientIdOf(token);
    const keys = [`address:${req.socket.remoteAddress ?? ''}`];
    if (clientId !== undefined) keys.push(`client:${clientId}`);
    return keys;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const path = url.pathname;
    const counted = path.startsWith('/api/') && !TOKEN_PATHS.has(path);
    const done = (status: number | string) => {
      if (counted) inFlight.now--;
      log(`${method} ${loggablePath(url)} ${status} ${Math.round(performance.now() - started)}ms`);
    };

    const raw = await readBody(req);
    if (counted) inFlight.peak = Math.max(inFlight.peak, ++inFlight.now);
    if (arrivalChannel.hasSubscribers) {
      const arrival: Arrival = { method, path };
      arrivalChannel.publish(arrival);
    }
    if (counted) await gathered({ method, path });
    const api = router.interfaceOf(path);
    if (raw === 'too_large') {
      send(res, errorReply(new HttpError(413, { error: { code: 413, message: 'Request body too large' } })));
      done(413);
      return;
    }

    let reply: Reply;
    let injected = false;
    const publish = () => {
      if (exchangeChannel.hasSubscribers && !path.startsWith('/_emulator/')) {
        const exchange: Exchange = {
          method,
          path,
          query: url.searchParams,
          headers: req.headers,
          requestBody: raw,
          status: reply.status,
          responseBody: reply.body,
          injected,
        };
        exchangeChannel.publish(exchange);
      }
    };
    try {
      if (path.startsWith('/_emulator/')) {
        reply = handleControl(method, path, raw, store, faults);
      } else if (TOKEN_PATHS.has(path)) {
        if (method !== 'POST') throw errorsFor.account.routeNotFound(method, path);
        // Faults never touch the token endpoint, except its lifetime.
        reply = {
          status: 200,
          body: tokens.issue(req.headers['content-type'], req.headers.authorization, raw.toString('utf8'), faults.faults.token_lifetime_seconds),
        };
      } else if (path.startsWith('/api/')) {
        const drawn = faults.decide();
        const limited = limiter.take(limitKeys(req), {
          perSecond: faults.faults.limit_per_second,
          burst: faults.faults.limit_burst || faults.faults.limit_per_second,
        });
        const decision: typeof drawn = !limited.allowed
          ? { kind: 'too_many_requests', retryAfterSeconds: limited.retryAfterSeconds }
          : aimedAt({ method, path })
            ? { kind: 'lose_answer' }
            : drawn;
        const latency = faults.faults.latency_ms;
        if (latency > 0) await sleep(latency);
        if (decision.kind === 'drop') {
          req.socket.destroy();
          done('dropped');
          return;
        }
        injected = decision.kind === 'too_many_requests' || decision.kind === 'server_error';
        if (decision.kind === 'too_many_requests') reply = errorReply(errorsFor[api].tooManyRequests(decision.retryAfterSeconds));
        else if (decision.kind === 'server_error') reply = errorReply(errorsFor[api].serverError(decision.status));
        else reply = await router.dispatch({ method, path, query: url.searchParams, headers: req.headers, rawBody: raw }, tokens, store);
        if (decision.kind === 'lose_answer') {
          publish();
          req.socket.destroy();
          done(`${reply.status} answer lost`);
          return;
        }
      } else {
        reply = { status: 404, body: { error: { code: 404, message: `Nothing at ${path}` } } };
      }
    } catch (e) {
      if (e instanceof HttpError) reply = errorReply(e);
      else {
        log(`internal error on ${method} ${path}: ${(e as Error).message}`);
        reply = errorReply(errorsFor[api].serverError(500));
      }
    }
    publish();
    send(res, reply);
    done(reply.status);
  };

  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    handle(req, res).catch((e: unknown) => {
      log(`internal error: ${(e as Error).message}`);
      if (!res.headersSent) send(res, { status: 500, body: { error: { code: 500, message: 'Internal error' } } });
      else res.destroy();
    });
  };
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, onRequest) : http.createServer(onRequest);
  // Keep-alive connections from undici pools must not keep close() waiting.
  server.keepAliveTimeout = 5000;

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `${opts.tls ? 'https' : 'http'}://${urlHost}:${port}`,
    get clientId() {
      return store.primaryClient.client_id;
    },
    get clientSecret() {
      return store.primaryClient.client_secret;
    },
    get rootTenantId() {
      return store.world.rootTenantId;
    },
    get tenantId() {
      return store.primaryClient.tenant_id;
    },
    setFaults: (f) => faults.set(f),
    loseAnswer: (matches, nth = 1) => void aimed.push({ matches, left: nth }),
    gather: (matches, count) => new Promise<void>((opened) => gatherings.push({ matches, count, held: [], opened })),
    refusedByLimit: () => limiter.refused,
    takePeakInFlight: () => {
      const peak = inFlight.peak;
      inFlight.peak = inFlight.now;
      return peak;
    },
    world: () => summarizeWorld(store),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The four shell lines that point tenantform at a running emulator (and name the caller's own tenant). */
export function emulatorEnvLines(e: RunningEmulator): string[] {
  return [
    `export TENANTFORM_BASE_URL=${e.url}`,
    `export TENANTFORM_CLIENT_ID=${e.clientId}`,
    `export TENANTFORM_CLIENT_SECRET=${e.clientSecret}`,
    `export TENANTFORM_TENANT_ID=${e.tenantId}`,
  ];
}
