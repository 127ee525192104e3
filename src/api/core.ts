/**
 * The platform client's core: token handling, retries, events and checked responses. The typed
 * methods of each interface and area live in `areas/` and send their requests through `[call]`.
 */
import { inspect } from 'node:util';
import type { z } from 'zod';
import { displayText } from './display-text';
import { SPOKEN_INTERFACES } from './interfaces';
import { contextRetryAfterMs, interfaceOf, parseErrorBody, PlatformError, ResponseShapeError } from './errors';
import {
  AnswerTooLargeError,
  encodeQuery,
  fillPath,
  header,
  neverSent,
  parseBaseUrl,
  PoolRegistry,
  send,
  transportFailure,
  USER_AGENT,
  type BaseUrl,
  type HttpRequest,
  type HttpResponse,
  type PoolOptions,
  type Query,
} from './http';
import { describe, networkFailure } from '../network/failure';
import { answeredUnprocessed, markNoFurtherRetry, parseRetryAfter, resolveRetryOptions, transportErrorFields, withRetry, type RetryOptions } from './retry';
import { governorFor, type RateGovernor } from './rate-governor';
import * as S from './schemas';
import { TOKEN_PATH, TokenCache, tokenRequest } from './token';

/** One HTTP exchange, reported to `onEvent`. Never carries credentials. */
export interface ClientEvent {
  method: string;
  /** Path template, such as `/api/2/infra/{infra_id}`. */
  endpoint: string;
  /** HTTP status; absent when no response arrived. */
  status?: number;
  /** Attempt number of this request, from 1. */
  attempt: number;
  /** Duration of the exchange. */
  ms: number;
  /** Set when the request will be repeated after this many milliseconds. */
  retryInMs?: number;
  /** With `retryInMs`: the time its retries may still take after that wait. */
  retryLeftMs?: number;
  /** The path sent, with its query (ids and filters, never a credential). */
  path?: string;
  /** Why the exchange failed: the platform's error code or the transport's. */
  code?: string;
  /** The platform's id of the request, when it answers one (`x-request-id`). */
  requestId?: string;
}

export interface PlatformClientOptions {
  /** The data center's base address, such as `https://eu2-cloud.example.com`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Time allowed for response headers, and again for the body (default 30 s). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  onEvent?: (e: ClientEvent) => void;
  /** Renew a token this long before it expires (default 60 s, at most half its lifetime). */
  tokenSkewMs?: number;
  /** Share connection pools between clients (one per data center); the client then does not close them. */
  pools?: PoolRegistry;
  /** Told, for the debug log, whether connections to the platform go through a proxy (its pools' `onRoute`). */
  onRoute?: PoolOptions['onRoute'];
  /** A ceiling of requests per second to this data center with these credentials (the lowest asked for holds). */
  requestsPerSecond?: number;
}

type Method = HttpRequest['method'];

export interface CallSpec<T extends z.ZodType | null> {
  method: Method;
  /** Path template below the base URL, such as `/api/2/infra/{infra_id}`. */
  endpoint: string;
  params?: Record<string, string>;
  query?: Query;
  json?: unknown;
  /** Schema of the 2xx body; `null` when the body is ignored (204 answers). */
  schema: T;
  /** Safe to repeat: defaults to true for GET, PUT, DELETE and false for POST. */
  idempotent?: boolean;
}

export type Result<T extends z.ZodType | null> = T extends z.ZodType ? z.infer<T> : undefined;

export const AM = SPOKEN_INTERFACES.account_management.prefix;
export const AGENTS = SPOKEN_INTERFACES.agent_manager.prefix;
export const EVENTS = SPOKEN_INTERFACES.event_manager.prefix;
export const ALERTS = SPOKEN_INTERFACES.alert_manager.prefix;

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

/** Sends one checked request; the area modules' only way to the platform. */
export const call = Symbol('call');
/** Follows a cursor-paged listing page after page. */
export const paged = Symbol('paged');

/** A listing answered in pages (`after` absent or null on the last page). */
type PageSchema<I> = z.ZodType<{ items: I[]; paging: { cursors: { after?: string | null } } }>;

export class PlatformCore {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly #clientSecret: string;
  readonly #base: BaseUrl;
  readonly #pools: PoolRegistry;
  readonly #ownsPools: boolean;
  readonly #timeoutMs: number;
  readonly #retry: RetryOptions;
  readonly #onEvent: ((e: ClientEvent) => void) | undefined;
  readonly #tokens: TokenCache;
  readonly #governor: RateGovernor;
  #closed = false;

  constructor(opts: PlatformClientOptions) {
    if (!opts.clientId) throw new Error('clientId is required');
    if (!opts.clientSecret) throw new Error('clientSecret is required');
    this.#base = parseBaseUrl(opts.baseUrl);
    this.baseUrl = this.#base.origin + this.#base.prefix;
    this.clientId = opts.clientId;
    this.#clientSecret = opts.clientSecret;
    this.#pools = opts.pools ?? new PoolRegistry(opts.onRoute ? { onRoute: opts.onRoute } : {});
    this.#ownsPools = opts.pools === undefined;
    this.#timeoutMs = opts.timeoutMs ?? 30_000;
    this.#retry = resolveRetryOptions(opts.retry);
    this.#onEvent = opts.onEvent;
    this.#tokens = new TokenCache(() => this.#fetchToken(), { skewMs: opts.tokenSkewMs ?? 60_000 });
    this.#governor = governorFor(this.#base.origin, this.clientId);
    this.#governor.setRequestsPerSecond(opts.requestsPerSecond);
  }

  /** The shared budget of this data center and API client (see rate-governor.ts). */
  get governor(): RateGovernor {
    return this.#governor;
  }

  /** Obtains an access token (if none is held): the credentials and the base URL are checked. */
  async authenticate(): Promise<void> {
    await this.#tokens.get();
  }

  /** Access tokens issued to this client so far. */
  get tokensIssued(): number {
    return this.#tokens.issued;
  }

  /** Closes the connection pools (when this client created them). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#tokens.clear();
    if (this.#ownsPools) await this.#pools.close();
  }

  toString(): string {
    return `PlatformClient { baseUrl: ${this.baseUrl}, clientId: ${this.clientId}, clientSecret: [redacted] }`;
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: this.baseUrl, clientId: this.clientId, clientSecret: '[redacted]' };
  }

  [inspect.custom](): string {
    return this.toString();
  }

  /**
   * Items of every page. The cursor carries all filter and sort arguments (spec 1, spec 2), so
   * pages after the first send only `after` and `limit`.
   */
  async *[paged]<I>(endpoint: string, first: Query, schema: PageSchema<I>): AsyncGenerator<I, void, undefined> {
    let query = first;
    const seen = new Set<string>();
    for (;;) {
      const page = await this[call]({ method: 'GET', endpoint, query, schema });
      yield* page.items;
      const after = page.paging.cursors.after;
      if (!after) return;
      if (seen.has(after)) {
        throw new PlatformError({
          status: 200,
          interface: interfaceOf(endpoint),
          domain: 'tenantform',
          code: 'invalid_response',
          message: 'the platform returned the same page cursor twice; stopped paging to avoid a loop',
          retryable: false,
          method: 'GET',
          endpoint,
        });
      }
      seen.add(after);
      query = { after, limit: first.limit };
    }
  }

  #emit(e: ClientEvent): void {
    if (!this.#onEvent) return;
    try {
      this.#onEvent(e);
    } catch {
      // A listener's failure must never break a call.
    }
  }

  /** One HTTP exchange; transport failures become `PlatformError`s with status 0. */
  async #exchange(method: Method, endpoint: string, path: string, headers: Record<string, string>, body: string | undefined): Promise<HttpResponse> {
    if (this.#closed) throw new Error('the platform client is closed');
    try {
      return await send(this.#pools, {
        origin: this.#base.origin,
        method,
        path: this.#base.prefix + path,
        headers,
        ...(body !== undefined ? { body } : {}),
        timeoutMs: this.#timeoutMs,
      });
    } catch (e) {
      if (e instanceof AnswerTooLargeError) {
        throw new PlatformError({
          status: 0,
          interface: interfaceOf(endpoint),
          domain: 'transport',
          code: 'answer_too_large',
          message: e.message,
          retryable: false,
          method,
          endpoint,
        });
      }
      const network = networkFailure(e, this.#pools.route(this.#base.origin));
      if (network) {
        throw new PlatformError({
          status: 0,
          interface: interfaceOf(endpoint),
          domain: 'transport',
          code: `${network.kind}_failure`,
          message: describe(network),
          retryable: network.kind === 'proxy' && network.retryable,
          // Nothing reached the platform: the connection failed before the request was written.
          notProcessed: true,
          method,
          endpoint,
          network,
        });
      }
      const t = transportFailure(e);
      if (!t) throw e;
      throw new PlatformError({
        status: 0,
        interface: interfaceOf(endpoint),
        domain: 'transport',
        ...transportErrorFields(t, this.#timeoutMs, neverSent(e)),
        method,
        endpoint,
      });
    }
  }

  #errorFrom(res: HttpResponse, method: string, endpoint: string): PlatformError {
    const iface = interfaceOf(endpoint);
    // The platform's words reach terminals and reports: nothing in them may act on a terminal.
    const received = parseErrorBody(res.status, res.text, iface);
    const parsed = {
      ...received,
      code: displayText(received.code),
      domain: displayText(received.domain),
      message: displayText(received.message),
      ...(received.details !== undefined ? { details: displayText(received.details) } : {}),
    };
    let retryAfterMs: number | undefined;
    if (res.status === 429 || res.status === 503) {
      // platform-interface: retry-after (header in seconds, `context.retry_after` too).
      retryAfterMs = parseRetryAfter(header(res, 'retry-after')) ?? contextRetryAfterMs(parsed.context);
    }
    return new PlatformError({
      status: res.status,
      interface: iface,
      domain: parsed.domain,
      code: parsed.code,
      message: parsed.message,
      context: parsed.context,
      ...(parsed.details !== undefined ? { details: parsed.details } : {}),
      method,
      endpoint,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      notProcessed: answeredUnprocessed(res.status, parsed.shape),
    });
  }

  #parse<T extends z.ZodType>(schema: T, res: HttpResponse, method: string, endpoint: string): z.infer<T> {
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      throw new ResponseShapeError({ status: res.status, method, endpoint, fieldPath: '', problem: 'the body is not JSON' });
    }
    const r = schema.safeParse(body);
    if (r.success) return r.data;
    const issue = r.error.issues[0];
    throw new ResponseShapeError({
      status: res.status,
      method,
      endpoint,
      fieldPath: issue ? formatPath(issue.path) : '',
      problem: issue ? issue.message : 'invalid',
      issues: r.error.issues.map((i) => ({ fieldPath: formatPath(i.path), problem: i.message })),
    });
  }

  /** Requests a token (retried: a token request is safe to repeat). */
  async #fetchToken(): Promise<S.TokenResponse> {
    const { headers, body } = tokenRequest(this.clientId, this.#clientSecret);
    try {
      return await withRetry(
        async (attempt) => {
          const t0 = Date.now();
          let res: HttpResponse;
          try {
            res = await this.#exchange('POST', TOKEN_PATH, TOKEN_PATH, headers, body);
          } catch (e) {
            if (e instanceof PlatformError) pendingMs.set(e, Date.now() - t0);
            throw e;
          }
          const ms = Date.now() - t0;
          if (res.status < 200 || res.status >= 300) {
            const err = this.#errorFrom(res, 'POST', TOKEN_PATH);
            pendingMs.set(err, ms);
            throw err;
          }
          this.#emit({ method: 'POST', endpoint: TOKEN_PATH, path: TOKEN_PATH, status: res.status, attempt, ms, ...requestIdOf(res) });
          return this.#parse(S.TokenResponse, res, 'POST', TOKEN_PATH);
        },
        {
          idempotent: true,
          options: this.#retry,
          onRetry: (err, attempt, delay, left) => this.#emitFailure(err, 'POST', TOKEN_PATH, TOKEN_PATH, attempt, { delay, left }),
        },
      );
    } catch (e) {
      if (e instanceof PlatformError) {
        this.#emitFailure(e, 'POST', TOKEN_PATH, TOKEN_PATH, e.attempts, undefined);
        throw markNoFurtherRetry(e);
      }
      throw e;
    }
  }

  #emitFailure(err: PlatformError, method: string, endpoint: string, path: string, attempt: number, retry: { delay: number; left: number } | undefined): void {
    const ms = pendingMs.get(err) ?? 0;
    pendingMs.delete(err);
    this.#emit({
      method,
      endpoint,
      path,
      code: err.code,
      ...(err.status !== 0 ? { status: err.status } : {}),
      attempt,
      ms,
      ...(retry !== undefined ? { retryInMs: retry.delay, retryLeftMs: retry.left } : {}),
    });
  }

  /** Sends an authorised request with the retry policy and checks the answer. */
  async [call]<T extends z.ZodType | null>(spec: CallSpec<T>): Promise<Result<T>> {
    const { method, endpoint } = spec;
    const path = fillPath(spec.endpoint, spec.params) + encodeQuery(spec.query);
    const body = spec.json === undefined ? undefined : JSON.stringify(spec.json);
    const idempotent = spec.idempotent ?? method !== 'POST';

    const once = async (token: string, attempt: number): Promise<HttpResponse> => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': USER_AGENT };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const turn = await this.#governor.turn();
      const t0 = Date.now();
      try {
        const res = await this.#exchange(method, endpoint, path, headers, body).catch((e: unknown) => {
          this.#governor.abandoned();
          throw e;
        });
        this.#governor.answered(
          turn,
          res.status === 429 ? { throttled: true, retryAfterMs: parseRetryAfter(header(res, 'retry-after')) } : { throttled: false },
        );
        const ms = Date.now() - t0;
        if (res.status >= 200 && res.status < 300) {
          this.#emit({ method, endpoint, path, status: res.status, attempt, ms, ...requestIdOf(res) });
        } else {
          resMs.set(res, ms);
        }
        return res;
      } catch (e) {
        if (e instanceof PlatformError) pendingMs.set(e, Date.now() - t0);
        throw e;
      }
    };

    try {
      return await withRetry(
        async (attempt) => {
          let token = await this.#tokens.get();
          let res = await once(token, attempt);
          if (res.status === 401) {
            // The token expired or was revoked early: renew it once and repeat. A 401 means the
            // request was not processed, so this holds for non-idempotent requests too.
            this.#emit({ method, endpoint, path, status: 401, attempt, ms: resMs.get(res) ?? 0, retryInMs: 0, code: 'token_rejected', ...requestIdOf(res) });
            this.#tokens.invalidate(token);
            token = await this.#tokens.get();
            res = await once(token, attempt);
          }
          if (res.status < 200 || res.status >= 300) {
            const err = this.#errorFrom(res, method, endpoint);
            pendingMs.set(err, resMs.get(res) ?? 0);
            throw err;
          }
          if (spec.schema === null) return undefined as Result<T>;
          return this.#parse(spec.schema, res, method, endpoint) as Result<T>;
        },
        {
          idempotent,
          write: method !== 'GET',
          options: this.#retry,
          progress: () => this.#governor.progress,
          onRetry: (err, attempt, delay, left) => this.#emitFailure(err, method, endpoint, path, attempt, { delay, left }),
        },
      );
    } catch (e) {
      if (e instanceof PlatformError && pendingMs.has(e)) this.#emitFailure(e, method, endpoint, path, e.attempts, undefined);
      throw e;
    }
  }
}

/** The platform's id of the request, where the answer carries one. */
function requestIdOf(res: HttpResponse): Pick<ClientEvent, 'requestId'> {
  const id = header(res, 'x-request-id');
  return id ? { requestId: displayText(id) } : {};
}

/** Durations of failed exchanges, kept until they are reported. */
const pendingMs = new WeakMap<PlatformError, number>();
const resMs = new WeakMap<HttpResponse, number>();

/** Collects an async iterable into an array. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
