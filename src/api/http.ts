/**
 * The HTTP layer: one undici dispatcher per data-center origin (a Pool, or a proxy's agent where
 * the proxy variables say so; see src/network/), request timeouts, JSON and form bodies, query
 * and path encoding. It knows nothing of tokens, retries or error bodies.
 */
import type { Dispatcher } from 'undici';
import type { Route } from '../network/failure';
import { Routes, type RouteOptions } from '../network/routes';
import { baseUrlProblem } from './base-url';
import { MAX_CONCURRENCY } from './rate-governor';

/** A query value; arrays become repeated parameters, `undefined` and `null` are left out. */
export type QueryValue = string | number | boolean | undefined | null | readonly (string | number | boolean)[];
export type Query = Record<string, QueryValue>;

/** Encodes a query string (with the leading `?`, or empty); spaces become `%20`. */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values as (string | number | boolean)[]) {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
    }
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** Encodes an `application/x-www-form-urlencoded` body. */
export function encodeForm(fields: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) params.append(k, v);
  return params.toString();
}

/**
 * Fills a path template such as `/api/2/infra/{infra_id}` with encoded values. Every
 * placeholder must have a value: a missing one is a programming error.
 */
export function fillPath(template: string, params: Record<string, string> | undefined): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined) throw new Error(`path parameter ${name} missing for ${template}`);
    return encodeURIComponent(v);
  });
}

/** A base URL split into the origin (the pool key) and a path prefix (usually empty). */
export interface BaseUrl {
  origin: string;
  prefix: string;
}

export function parseBaseUrl(baseUrl: string): BaseUrl {
  const problem = baseUrlProblem(baseUrl);
  if (problem !== undefined) throw new Error(`base URL: ${problem}`);
  const url = new URL(baseUrl);
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

export interface PoolOptions {
  /** Connections per origin. */
  connections?: number;
  keepAliveTimeoutMs?: number;
  /** Told which route (direct, or which proxy) each origin takes when it is first used. */
  onRoute?: RouteOptions['onRoute'];
  /** The proxy and certificate variables; the process's environment by default. */
  env?: NodeJS.ProcessEnv;
}

/** One connection pool per origin (one per data center), straight or through a proxy. */
export class PoolRegistry {
  private readonly routes: Routes;
  private closed = false;

  constructor(options: PoolOptions = {}) {
    this.routes = new Routes(
      {
        connections: options.connections ?? MAX_CONCURRENCY,
        // Without a hint from the server; with one (`Keep-Alive: timeout=N`), an idle connection
        // is closed 2 s before the server would, and not kept at all under a hint of 2 s or less.
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 4_000,
        keepAliveTimeoutThreshold: 2_000,
        ...(options.onRoute ? { onRoute: options.onRoute } : {}),
      },
      options.env,
    );
  }

  get(origin: string): Dispatcher {
    if (this.closed) throw new Error('the HTTP connection pools are closed');
    return this.routes.get(origin).dispatcher;
  }

  /** How connections to `origin` are made (its host, and the proxy if any), for messages. */
  route(origin: string): Route {
    return this.routes.describe(origin);
  }

  get size(): number {
    return this.routes.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.routes.close();
  }
}

/** Names the caller to the platform (and lets the contract tests tell tenantform's requests apart). */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the version is read at run time, from the package it runs in
export const USER_AGENT = `tenantform/${(require('../../package.json') as { version: string }).version}`;

export interface HttpRequest {
  origin: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** Path with the query already encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Time allowed for the response headers, then again for the body. */
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * The most an answer may hold. The platform's largest pages are a few megabytes; an answer past
 * this is refused while it arrives, instead of being held whole and failing to decode.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** An answer larger than `MAX_ANSWER_BYTES`. */
export class AnswerTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the answer is larger than ${limit / (1024 * 1024)} MiB, more than the platform sends`);
    this.name = 'AnswerTooLargeError';
  }
}

/** A request that took longer than allowed for its headers or its body. */
export class HttpTimeoutError extends Error {
  constructor(
    readonly code: 'UND_ERR_HEADERS_TIMEOUT' | 'UND_ERR_BODY_TIMEOUT',
    ms: number,
  ) {
    super(`${code === 'UND_ERR_HEADERS_TIMEOUT' ? 'response headers' : 'response body'} not received within ${ms} ms`);
    this.name = 'HttpTimeoutError';
  }
}

/**
 * Sends one request and reads the whole body. Transport failures are thrown as undici raised
 * them. The headers, then the body, each get `timeoutMs`: undici's own timers for these run on a
 * coarse clock (about a second), so a precise timer of ours aborts the request as well.
 *
 * The response is taken from undici's dispatch handler directly, without a body stream: a plan
 * reads hundreds of small answers, and the stream cost more than the request itself.
 */
export function send(pools: PoolRegistry, req: HttpRequest): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    /** undici starts a request right before writing it: a failure before that sent nothing. */
    let started = false;
    let failure: Error | undefined;
    let done = false;
    let phase: HttpTimeoutError['code'] = 'UND_ERR_HEADERS_TIMEOUT';
    let status = 0;
    let headers: HttpResponse['headers'] = {};
    const chunks: Buffer[] = [];
    let received = 0;
    const fail = (err: Error): void => {
      if (done) return;
      done = true;
      failure = err;
      clearTimeout(timer);
      reject(err);
    };
    const arm = (): NodeJS.Timeout =>
      setTimeout(() => {
        const err = new HttpTimeoutError(phase, req.timeoutMs);
        controller?.abort(err);
        fail(err);
      }, req.timeoutMs);
    let timer = arm();
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        started = true;
        controller = c;
        // Timed out while still queued in the pool: it must not go out at all.
        if (failure) c.abort(failure);
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        if (statusCode < 200) return; // informational: the answer follows
        status = statusCode;
        headers = responseHeaders;
        clearTimeout(timer);
        phase = 'UND_ERR_BODY_TIMEOUT';
        timer = arm();
      },
      onResponseData(c, chunk) {
        received += chunk.length;
        if (received > MAX_ANSWER_BYTES) {
          const err = new AnswerTooLargeError(MAX_ANSWER_BYTES);
          c.abort(err);
          fail(err);
          return;
        }
        chunks.push(chunk);
      },
      onResponseEnd() {
        if (done) return;
        done = true;
        clearTimeout(timer);
        try {
          resolve({ status, headers, text: UTF8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) });
        } catch (err) {
          // Never lost inside the dispatcher: a failure here fails the request.
          reject(err);
        }
      },
      onResponseError(_c, err) {
        // A queued request fails with its connection (reset while idle) before any of it is written.
        if (!started) unsent.add(err);
        fail(err);
      },
    };
    try {
      pools.get(req.origin).dispatch(
        {
          origin: req.origin,
          method: req.method,
          path: req.path,
          headers: req.headers,
          body: req.body,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
        },
        handler,
      );
    } catch (err) {
      fail(err as Error);
    }
  });
}

const unsent = new WeakSet<object>();

/**
 * Whether a failed request was never written to a connection (it failed while still queued), so
 * that repeating it cannot act twice, whatever its method.
 */
export function neverSent(err: unknown): boolean {
  // Not `instanceof Error`: a socket's error may come from another realm (a test runner's sandbox).
  return typeof err === 'object' && err !== null && unsent.has(err);
}

/** UTF-8 as a fetch body's text() reads it: a leading byte-order mark dropped, bad bytes replaced. */
const UTF8 = new TextDecoder('utf-8');

/** The first value of a response header. */
export function header(res: HttpResponse, name: string): string | undefined {
  const v = res.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** Transport error codes meaning the connection broke or was refused before a response. */
const DROP_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** The host name did not resolve: nothing was sent (a lasting ENOTFOUND, or a passing EAI_AGAIN). */
const UNRESOLVED_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN']);

export type TransportFailure = { kind: 'refused' | 'dropped' | 'timeout' | 'unresolved'; code: string; host?: string };

/**
 * Classifies a thrown transport error: `refused` or `unresolved` (nothing was sent), `dropped`,
 * `timeout`, or `undefined` (not a transport error).
 */
export function transportFailure(err: unknown): TransportFailure | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (TIMEOUT_CODES.has(code)) return { kind: 'timeout', code };
      if (code === 'ECONNREFUSED') return { kind: 'refused', code };
      if (UNRESOLVED_CODES.has(code)) {
        const host = (e as { hostname?: unknown }).hostname;
        return typeof host === 'string' ? { kind: 'unresolved', code, host } : { kind: 'unresolved', code };
      }
      if (DROP_CODES.has(code)) return { kind: 'dropped', code };
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
