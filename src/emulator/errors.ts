/**
 * Error bodies. Each platform interface has its own error shape (spec documents 1 to 3 and
 * spec/GAPS.md); one factory per interface builds it, and `InterfaceErrors` gives the router the
 * generic failures (401, 403, 415, 429, 5xx, unknown route) in the right shape for each.
 */

export type InterfaceName = 'account' | 'agent' | 'event' | 'alert';

/** A failure that the router turns into a response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** Plain-text body instead of JSON (the alert manager's 401 page). */
    readonly text?: string,
  ) {
    super(`HTTP ${status}`);
    this.name = 'HttpError';
  }
}

// ---- account management (/api/2, token endpoints): {error: {domain, context, code, details: {info}, message}}

export function accountError(
  status: number,
  code: string | number,
  message: string,
  opts: { context?: Record<string, unknown>; info?: string; headers?: Record<string, string> } = {},
): HttpError {
  const body = {
    error: {
      domain: 'PlatformAccountServer',
      context: opts.context ?? {},
      code,
      details: { info: opts.info ?? message },
      message,
    },
  };
  return new HttpError(status, body, opts.headers);
}

/** platform-interface: validation errors (account management): code 400, `details.info` names the field. */
export function accountBadRequest(field: string, problem: string): HttpError {
  return accountError(400, 400, `${field}: ${problem}`, { info: field, context: { field } });
}

/** platform-interface: tenant lookup (404, code 1104). */
export function tenantNotFound(id: string): HttpError {
  return accountError(404, 1104, `Tenant ${id} cannot be resolved`, { context: { id } });
}

export function accountNotFound(code: string, what: string, id: string): HttpError {
  return accountError(404, code, `${what} ${id} not found`, { context: { id } });
}

export function accountConflict(message: string, context: Record<string, unknown> = {}): HttpError {
  return accountError(409, 'conflict', message, { context });
}

// ---- agent manager (/api/agent_manager/v2): {code, domain: "AGENT_MANAGER", debug: {msg}} (GAPS: Error body)

export function agentError(status: number, code: string, msg: string, headers?: Record<string, string>): HttpError {
  return new HttpError(status, { code, domain: 'AGENT_MANAGER', debug: { msg } }, headers);
}

/** The reference: the agent manager's 401 comes from the gateway, in domain `GENERAL`. */
function agentUnauthorized(msg: string): HttpError {
  return new HttpError(401, { code: 'UNAUTHORIZED_REQUEST', domain: 'GENERAL', debug: { msg } });
}

export function agentBadRequest(msg: string): HttpError {
  return agentError(400, 'BAD_REQUEST', msg);
}

// ---- event manager (/api/event_manager/v1): {error: {domain: "EventManager", code, message}}

export function eventError(status: number, code: string, message: string, headers?: Record<string, string>): HttpError {
  return new HttpError(status, { error: { domain: 'EventManager', code, message } }, headers);
}

/** platform-interface: event manager validation (400 badRequest, the message names the field). */
export function eventBadRequest(field: string, problem: string): HttpError {
  return eventError(400, 'badRequest', `${field}: ${problem}`);
}

// ---- alert manager (/api/alert_manager/v1): {domain: "AlertManager", code, reason, context, kbLink, debug}

export function alertError(status: number, code: string, message: string, context: Record<string, unknown> = {}, headers?: Record<string, string>): HttpError {
  const body = {
    domain: 'AlertManager',
    code,
    reason: code,
    context,
    kbLink: { lineTag: 'alert_manager', serCode: code, version: '1', build: 1, product: 'platform', os: 'linux' },
    debug: { msg: message },
  };
  return new HttpError(status, body, headers);
}

// ---- generic failures per interface

export interface InterfaceErrors {
  unauthorized(message: string): HttpError;
  /** No credentials at all (the event manager answers this differently from a bad token). */
  missingToken(): HttpError;
  forbidden(required: readonly string[]): HttpError;
  invalidContentType(): HttpError;
  malformedBody(message: string): HttpError;
  /** A JSON body its operation's schema refuses: the field (`items[0].name`, `body`) and what is wrong with it. */
  invalidBody(field: string, problem: string): HttpError;
  routeNotFound(method: string, path: string): HttpError;
  tooManyRequests(retryAfterSeconds: number): HttpError;
  serverError(status: number): HttpError;
}

const serverErrorText: Record<number, string> = {
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway time-out',
};

const retryHeader = (seconds: number): Record<string, string> => ({ 'Retry-After': String(seconds) });

// platform-interface: injected failures (429 and 5xx codes of every interface below)
const accountErrors: InterfaceErrors = {
  unauthorized: (message) => accountError(401, 'unauthorized', message),
  missingToken: () => accountError(401, 'unauthorized', 'An access token is required'),
  forbidden: (required) => accountError(403, 'access_denied', `Requires one of the scopes: ${required.join(', ')}`, { context: { required_scopes: required } }),
  invalidContentType: () => accountError(415, 'invalid_content_type', 'Request content is not JSON'),
  malformedBody: (message) => accountError(400, 400, message, { info: 'body' }),
  invalidBody: (field, problem) => accountBadRequest(field, problem),
  routeNotFound: (method, path) => accountError(404, 'not_found', `No operation ${method} ${path}`),
  // platform-interface: retry-after (context.retry_after where the body has a context)
  tooManyRequests: (s) => accountError(429, 'too_many_requests', 'Too many requests', { context: { retry_after: s }, headers: retryHeader(s) }),
  serverError: (status) => accountError(status, 'internal_error', serverErrorText[status] ?? 'Server error'),
};

// platform-interface: agent manager error codes
const agentErrors: InterfaceErrors = {
  unauthorized: (message) => agentUnauthorized(message),
  missingToken: () => agentUnauthorized('An access token is required'),
  forbidden: (required) => agentError(403, 'ACCESS_DENIED', `Requires one of the scopes: ${required.join(', ')}`),
  invalidContentType: () => agentError(415, 'invalid_content_type', 'Request content is not JSON'),
  malformedBody: (message) => agentBadRequest(message),
  invalidBody: (field, problem) => agentBadRequest(`${field} ${problem}`),
  routeNotFound: (method, path) => agentError(404, 'NOT_FOUND', `No operation ${method} ${path}`),
  tooManyRequests: (s) => agentError(429, 'TOO_MANY_REQUESTS', 'Too many requests', retryHeader(s)),
  serverError: (status) => agentError(status, 'INTERNAL_ERROR', serverErrorText[status] ?? 'Server error'),
};

// spec 03 (event streams): accessDenied is the 401 code, bearerTokenMissing the 403 one; platform-interface: event manager authentication
const eventErrors: InterfaceErrors = {
  unauthorized: (message) => eventError(401, 'accessDenied', message),
  missingToken: () => eventError(403, 'bearerTokenMissing', 'A bearer token is required'),
  forbidden: (required) => eventError(403, 'accessDenied', `Requires one of the scopes: ${required.join(', ')}`),
  invalidContentType: () => eventError(415, 'invalid_content_type', 'Request content is not JSON'),
  malformedBody: (message) => eventError(400, 'badRequest', message),
  invalidBody: (field, problem) => eventBadRequest(field, problem),
  routeNotFound: (method, path) => eventError(404, 'notFound', `No operation ${method} ${path}`),
  tooManyRequests: (s) => eventError(429, 'tooManyRequests', 'Too many requests', retryHeader(s)),
  serverError: (status) => eventError(status, 'internalServiceError', serverErrorText[status] ?? 'Server error'),
};

// platform-interface: alert manager error codes
const alertErrors: InterfaceErrors = {
  // spec 03: the alert manager's 401 is a plain-text page
  unauthorized: (message) => new HttpError(401, undefined, {}, `401 Unauthorized: ${message}\n`),
  missingToken: () => new HttpError(401, undefined, {}, '401 Unauthorized: an access token is required\n'),
  forbidden: (required) => alertError(403, 'AccessDenied', `Requires one of the scopes: ${required.join(', ')}`, { required_scopes: required }),
  invalidContentType: () => alertError(415, 'invalid_content_type', 'Request content is not JSON'),
  malformedBody: (message) => alertError(400, 'badRequest', message),
  invalidBody: (field, problem) => alertError(400, 'badRequest', `${field} ${problem}`),
  routeNotFound: (method, path) => alertError(404, 'NotFound', `No operation ${method} ${path}`),
  tooManyRequests: (s) => alertError(429, 'TooManyRequests', 'Too many requests', { retry_after: s }, retryHeader(s)),
  serverError: (status) => alertError(status, 'InternalError', serverErrorText[status] ?? 'Server error'),
};

export const errorsFor: Record<InterfaceName, InterfaceErrors> = {
  account: accountErrors,
  agent: agentErrors,
  event: eventErrors,
  alert: alertErrors,
};
