/**
 * A small router: routes are `{method, pattern, scopes, body, handler}` grouped by interface,
 * and `dispatch` runs one /api request through the gateway steps in the platform's order:
 * faults, authentication, route lookup, scope check, content type, body, handler. The router is
 * the typed edge: a route's body schema is applied once here, and its handler receives the value.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { z } from 'zod';
import { hasAnyScope, type Caller, type TokenService } from './auth';
import { refusal } from './body';
import { errorsFor, HttpError, type InterfaceErrors, type InterfaceName } from './errors';
import type { Store } from './store';

export { UUID_RE } from './body';

export interface RequestContext<B = unknown> {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body of a route with a `body` schema, as the schema gives it; else undefined. */
  body: B;
  caller: Caller;
  store: Store;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Route<B = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with `:name` parameters, e.g. `/api/2/infra/:infra_id`. */
  pattern: string;
  /** Any one of these scopes is enough; `*` stands for any text (event manager CTI queries). */
  scopes: readonly string[];
  /**
   * The route takes a JSON body that this schema reads: a non-JSON content type answers 415, a
   * body it refuses answers the interface's bad request naming the field (`InterfaceErrors.invalidBody`).
   */
  body?: z.ZodType<B>;
  /** How a refused body is answered where the route's operation answers it otherwise than its interface. */
  refuseBody?: InterfaceErrors['invalidBody'];
  handler(ctx: RequestContext<B>): Reply | Promise<Reply>;
}

/** A route with a body: its handler is checked against what its schema gives. */
export const withBody = <B>(route: Route<B> & { body: z.ZodType<B> }): Route => route;

interface CompiledRoute extends Route {
  regex: RegExp;
  names: string[];
}

export interface InterfaceRoutes {
  name: InterfaceName;
  prefix: string;
  routes: Route[];
}

export function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.pattern
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) {
        names.push(seg.slice(1));
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { ...route, regex: new RegExp(`^${source}/?$`), names };
}

export class Router {
  private readonly groups: Array<{ name: InterfaceName; prefix: string; routes: CompiledRoute[] }>;

  constructor(groups: InterfaceRoutes[]) {
    this.groups = groups.map((g) => ({ name: g.name, prefix: g.prefix, routes: g.routes.map(compile) }));
  }

  /** Which interface serves a path; unknown /api paths answer in the account management shape. */
  interfaceOf(path: string): InterfaceName {
    return this.groups.find((g) => path.startsWith(g.prefix))?.name ?? 'account';
  }

  find(path: string, method: string): { route: CompiledRoute; params: Record<string, string> } | undefined {
    const group = this.groups.find((g) => path.startsWith(g.prefix));
    if (group === undefined) return undefined;
    for (const route of group.routes) {
      if (route.method !== method) continue;
      const m = route.regex.exec(path);
      if (m === null) continue;
      const params: Record<string, string> = {};
      try {
        route.names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1]);
        });
      } catch {
        return undefined; // a malformed escape names nothing that exists
      }
      return { route, params };
    }
    return undefined;
  }

  /** Runs an authenticated /api request (faults are decided by the caller before this). */
  async dispatch(
    req: { method: string; path: string; query: URLSearchParams; headers: IncomingHttpHeaders; rawBody: Buffer },
    tokens: TokenService,
    store: Store,
  ): Promise<Reply> {
    const api = this.interfaceOf(req.path);
    const errors = errorsFor[api];
    try {
      const caller = authenticate(req, api, tokens);
      const found = this.find(req.path, req.method);
      if (found === undefined) throw errors.routeNotFound(req.method, req.path);
      const { route, params } = found;
      if (!hasAnyScope(caller, route.scopes)) throw errors.forbidden(route.scopes);
      let body: unknown;
      if (route.body !== undefined) {
        const parsed = route.body.safeParse(parseJsonBody(req.headers['content-type'], req.rawBody, api));
        if (!parsed.success) {
          const { field, problem } = refusal(parsed.error);
          throw (route.refuseBody ?? errors.invalidBody)(field, problem);
        }
        body = parsed.data;
      }
      return await route.handler({ method: req.method, path: req.path, params, query: req.query, headers: req.headers, body, caller, store });
    } catch (e) {
      if (e instanceof HttpError) return errorReply(e);
      throw e;
    }
  }
}

function authenticate(req: { query: URLSearchParams; headers: IncomingHttpHeaders }, api: InterfaceName, tokens: TokenService): Caller {
  const errors = errorsFor[api];
  const header = req.headers.authorization;
  const bearer = header === undefined ? undefined : /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  // spec 01: account management also takes the token in the `access_token` query parameter, never both
  const fromQuery = api === 'account' ? (req.query.get('access_token') ?? undefined) : undefined;
  if (bearer !== undefined && fromQuery !== undefined) {
    throw errors.malformedBody('Send the access token either in the Authorization header or in access_token, not both');
  }
  const token = bearer ?? fromQuery;
  if (token === undefined) {
    if (header !== undefined) throw errors.unauthorized('The Authorization header is not a bearer token');
    throw errors.missingToken();
  }
  const result = tokens.verify(token);
  if (result === 'unknown') throw errors.unauthorized('The access token is not valid');
  if (result === 'expired') throw errors.unauthorized('The access token has expired');
  if (result === 'disabled') throw errors.unauthorized('The API client is disabled');
  return result;
}

/** platform-interface: non-JSON bodies. JSON is application/json or any `+json` type, with or without parameters. */
export function isJsonContentType(contentType: string | undefined): boolean {
  const mime = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return mime === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mime);
}

function parseJsonBody(contentType: string | undefined, raw: Buffer, api: InterfaceName): unknown {
  const errors = errorsFor[api];
  if (!isJsonContentType(contentType)) throw errors.invalidContentType();
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw errors.malformedBody('The request body is not valid JSON');
  }
}

export function errorReply(e: HttpError): Reply {
  if (e.text !== undefined) return { status: e.status, body: e.text, headers: { 'content-type': 'text/plain; charset=utf-8', ...e.headers } };
  return { status: e.status, body: e.body, headers: e.headers };
}

// ---- small helpers for handlers

export const json = (status: number, body?: unknown): Reply => ({ status, body });
export const noContent = (): Reply => ({ status: 204 });

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Opaque paging cursors: the filters and the position, base64url-encoded JSON. */
export function encodeCursor(state: unknown): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

/** A cursor this listing wrote: what `schema` reads from it, else undefined. */
export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `true`/`false` query flags; undefined when absent, 'invalid' otherwise. */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined | 'invalid' {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return 'invalid';
}

/** Values of a query parameter given repeatedly or comma-separated. */
export function queryList(q: URLSearchParams, name: string): string[] {
  return q
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
