/**
 * One error type for every failure of a platform call.
 *
 * The platform has one error body shape per interface (spec documents 1 to 3). `parseErrorBody`
 * recognises each of them and `PlatformError` carries the common fields, so callers never need
 * to know which interface answered.
 */

import type { NetworkFailure } from '../network/failure';
import { SPOKEN_INTERFACES } from './interfaces';

/** Which of the platform's interfaces a path belongs to. */
export type PlatformInterface =
  | 'token'
  | 'account_management'
  | 'device_authorization'
  | 'file_sync_share'
  | 'incidents'
  | 'agent_manager'
  | 'task_management'
  | 'alert_manager'
  | 'price_list'
  | 'disaster_recovery'
  | 'event_manager'
  | 'unknown';

/** Why a failed call was not tried again. */
export type NotRetriedReason = 'not_retryable' | 'not_idempotent' | 'max_attempts' | 'max_elapsed';

/** HTTP statuses after which a repeat of the same request can succeed. */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/** Maps a request path to the interface that serves it (by path prefix). */
export function interfaceOf(path: string): PlatformInterface {
  const p = path.split('?')[0] ?? '';
  if (p.endsWith('/idp/token')) return 'token';
  if (p.includes('/api/2/idp/device_authorization')) return 'device_authorization';
  if (p.includes(`${SPOKEN_INTERFACES.account_management.prefix}/`)) return 'account_management';
  if (p.includes('/api/mdr/v1/')) return 'incidents';
  if (p.includes(`${SPOKEN_INTERFACES.agent_manager.prefix}/`)) return 'agent_manager';
  if (p.includes('/api/task_manager/v2/')) return 'task_management';
  if (p.includes(`${SPOKEN_INTERFACES.alert_manager.prefix}/`)) return 'alert_manager';
  if (p.includes('/api/price_sync/v1/')) return 'price_list';
  if (p.includes('/api/dr/v2/')) return 'disaster_recovery';
  if (p.includes(`${SPOKEN_INTERFACES.event_manager.prefix}/`)) return 'event_manager';
  if (/\/v1\/(audit_log|devices|sync_and_share_nodes)/.test(p)) return 'file_sync_share';
  return 'unknown';
}

export interface PlatformErrorInit {
  status: number;
  interface: PlatformInterface;
  domain?: string;
  code: string;
  message: string;
  context?: Record<string, unknown>;
  details?: string;
  retryable?: boolean;
  /** The platform did nothing with the request (429, its own 5xx answer, a refused connection). */
  notProcessed?: boolean;
  method: string;
  endpoint: string;
  retryAfterMs?: number;
  attempts?: number;
  notRetried?: NotRetriedReason;
  /** The connection failed on the way (a certificate, a proxy, a setting): what and where. */
  network?: NetworkFailure;
}

/**
 * A failed platform call.
 *
 * - `status`: the HTTP status, or 0 when no response arrived (dropped connection, timeout).
 * - `interface`: which API answered; `domain`, `code`, `platformMessage`, `context`, `details`
 *   come from the error body (`code` is always a string: the account management interface
 *   sends some codes as integers, such as `1104`).
 * - `retryable`: whether repeating the request can help (429, 500, 502, 503, 504, dropped
 *   connections, timeouts).
 * - `method`, `endpoint`: the request, with the endpoint as a path template such as
 *   `/api/2/infra/{infra_id}`, never with query values or credentials.
 * - `attempts`, `notRetried`: how many attempts were made and why there was no further one.
 */
export class PlatformError extends Error {
  readonly status: number;
  readonly interface: PlatformInterface;
  readonly domain: string;
  readonly code: string;
  readonly platformMessage: string;
  readonly context: Record<string, unknown>;
  readonly details?: string;
  readonly retryable: boolean;
  /** Nothing was done with the request, so even a request that is not idempotent may be sent again. */
  readonly notProcessed: boolean;
  readonly method: string;
  readonly endpoint: string;
  readonly retryAfterMs?: number;
  attempts: number;
  notRetried?: NotRetriedReason;
  readonly network?: NetworkFailure;

  constructor(init: PlatformErrorInit) {
    super(init.message);
    this.name = 'PlatformError';
    this.status = init.status;
    this.interface = init.interface;
    this.domain = init.domain ?? '';
    this.code = init.code;
    this.platformMessage = init.message;
    this.context = init.context ?? {};
    if (init.details !== undefined) this.details = init.details;
    this.retryable = init.retryable ?? (init.status === 0 || isRetryableStatus(init.status));
    this.notProcessed = init.notProcessed ?? init.status === 429;
    this.method = init.method;
    this.endpoint = init.endpoint;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts ?? 1;
    if (init.notRetried !== undefined) this.notRetried = init.notRetried;
    if (init.network !== undefined) this.network = init.network;
    this.message = this.describe();
  }

  /** Records the outcome of the retry policy and refreshes the message. */
  markFinal(attempts: number, notRetried: NotRetriedReason | undefined): this {
    this.attempts = attempts;
    this.notRetried = notRetried;
    this.message = this.describe();
    return this;
  }

  private describe(): string {
    const head = `${this.method} ${this.endpoint}: ${this.status === 0 ? 'no response' : `HTTP ${this.status}`}`;
    const who = [this.domain, this.code].filter((s) => s !== '').join('/');
    let text = `${head}${who ? ` (${who})` : ''}: ${this.platformMessage}`;
    if (this.details && this.details !== this.platformMessage) text += ` [${this.details}]`;
    switch (this.notRetried) {
      case 'not_idempotent':
        text += `; not retried: ${this.method} ${this.endpoint} is not idempotent, so a repeat could act twice`;
        if (this.status === 0) text += ' (the request may or may not have taken effect)';
        break;
      case 'max_attempts':
        text += `; gave up after ${this.attempts} attempts`;
        break;
      case 'max_elapsed':
        text += `; gave up after ${this.attempts} attempt${this.attempts === 1 ? '' : 's'}: the retry time budget is spent`;
        break;
      default:
        break;
    }
    return text;
  }

  /** A plain object for logs and JSON output (no credentials are ever held here). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      interface: this.interface,
      domain: this.domain,
      code: this.code,
      context: this.context,
      retryable: this.retryable,
      notProcessed: this.notProcessed,
      method: this.method,
      endpoint: this.endpoint,
      retryAfterMs: this.retryAfterMs,
      attempts: this.attempts,
      notRetried: this.notRetried,
    };
  }
}

/**
 * A response whose body does not have the documented shape. It is a `PlatformError` with code
 * `invalid_response`, so one `catch` handles every failure; `fieldPath` names the first offending
 * field (such as `items[0].version`).
 */
/** One place where an answer differs from the shape tenantform expects. */
export interface ShapeIssue {
  readonly fieldPath: string;
  readonly problem: string;
}

export class ResponseShapeError extends PlatformError {
  readonly fieldPath: string;
  /** Every difference found, the first of them named by the message. */
  readonly issues: readonly ShapeIssue[];

  constructor(init: { status: number; method: string; endpoint: string; fieldPath: string; problem: string; issues?: readonly ShapeIssue[] }) {
    super({
      status: init.status,
      interface: interfaceOf(init.endpoint),
      domain: 'tenantform',
      code: 'invalid_response',
      message: `response does not have the expected shape at ${init.fieldPath || '(root)'}: ${init.problem}`,
      retryable: false,
      method: init.method,
      endpoint: init.endpoint,
    });
    this.name = 'ResponseShapeError';
    this.fieldPath = init.fieldPath;
    this.issues = init.issues ?? [{ fieldPath: init.fieldPath, problem: init.problem }];
  }
}

/**
 * True when `err` is a platform answer that the object does not exist: a 404 in the platform's
 * own error body. A bare 404 (a wrong base URL, a proxy) says nothing about the object.
 */
export function isNotFound(err: unknown): boolean {
  return err instanceof PlatformError && err.status === 404 && !isForeignAnswer(err);
}

/** An error answer without any of the platform's error body shapes (code `http_<status>`). */
export function isForeignAnswer(err: PlatformError): boolean {
  return err.code === `http_${err.status}`;
}

/** True when `err` is a refusal because of a conflict (stale version, existing object, lock). */
export function isConflict(err: unknown): boolean {
  return err instanceof PlatformError && err.status === 409;
}

// ---------------------------------------------------------------------------------------------
// Error body parsing

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** The fields that every error body shape is reduced to. */
export interface ParsedErrorBody {
  /** Which body shape was recognised. */
  shape:
    | 'account_management'
    | 'device_authorization'
    | 'incidents'
    | 'task_management'
    | 'agent_manager'
    | 'alert_manager'
    | 'price_list'
    | 'disaster_recovery'
    | 'event_manager'
    | 'unrecognised';
  domain: string;
  code: string;
  message: string;
  context: Record<string, unknown>;
  details?: string;
}

const MAX_TEXT = 300;

function truncate(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_TEXT ? `${oneLine.slice(0, MAX_TEXT)}…` : oneLine;
}

/**
 * Recognises the error body shapes of the spec:
 *
 * - account management `{error: {domain, context, code, details: {info}, message}}`
 * - event manager `{error: {domain: "EventManager", code, message}}`
 * - disaster recovery `{error: {code, context, debug: {msg, additional}, domain}}`
 * - device authorization `{error: string, error_description: string}`
 * - price list `{domain, code, reason, context, debug, kb_link, message}`
 * - task management and alerts `{domain, code, reason, context, kbLink, debug}`
 * - agent manager `{code, domain: "AGENT_MANAGER", debug: {msg}}` (GAPS.md: agent error body)
 * - incidents `{domain, code, message}`
 *
 * `iface` (from the request path) breaks ties between shapes that look alike; anything else
 * (a plain-text page, an empty body, a proxy's HTML) is `unrecognised` with the status as code.
 */
export function parseErrorBody(status: number, text: string, iface: PlatformInterface = 'unknown'): ParsedErrorBody {
  let body: unknown;
  try {
    body = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  const fallback: ParsedErrorBody = {
    shape: 'unrecognised',
    domain: '',
    code: `http_${status}`,
    message: text.trim().length > 0 ? truncate(text) : `HTTP ${status} with no error body`,
    context: {},
  };
  if (!isObj(body)) return fallback;

  const err = body.error;
  if (typeof err === 'string') {
    const description = str(body.error_description) ?? '';
    return {
      shape: 'device_authorization',
      domain: '',
      code: err,
      message: description || err,
      context: {},
    };
  }
  if (isObj(err)) {
    const domain = str(err.domain) ?? '';
    const code = str(err.code) ?? `http_${status}`;
    const context = isObj(err.context) ? err.context : {};
    if (isObj(err.debug) && !('message' in err)) {
      const debugMsg = str(err.debug.msg);
      return {
        shape: 'disaster_recovery',
        domain,
        code,
        message: debugMsg ?? code,
        context,
        ...(str(err.debug.additional) !== undefined ? { details: str(err.debug.additional) } : {}),
      };
    }
    const message = str(err.message) ?? code;
    const info = isObj(err.details) ? str(err.details.info) : undefined;
    const eventManager = domain === 'EventManager' || (iface === 'event_manager' && !isObj(err.details));
    return {
      shape: eventManager ? 'event_manager' : 'account_management',
      domain,
      code,
      message,
      context,
      ...(info !== undefined ? { details: info } : {}),
    };
  }

  const code = str(body.code);
  if (code === undefined) return fallback;
  const domain = str(body.domain) ?? '';
  const context = isObj(body.context) ? body.context : {};
  const debugMsg = isObj(body.debug) ? str(body.debug.msg) : undefined;
  const reason = str(body.reason);
  const message = str(body.message);

  if ('kb_link' in body || (iface === 'price_list' && message !== undefined)) {
    return { shape: 'price_list', domain, code, message: message ?? reason ?? code, context };
  }
  if ('kbLink' in body || reason !== undefined) {
    const alert = domain === 'AlertManager' || iface === 'alert_manager';
    return {
      shape: alert ? 'alert_manager' : 'task_management',
      domain,
      code,
      message: message ?? debugMsg ?? reason ?? code,
      context,
    };
  }
  if (debugMsg !== undefined || domain === 'AGENT_MANAGER') {
    return { shape: 'agent_manager', domain, code, message: debugMsg ?? message ?? code, context };
  }
  if (message !== undefined) {
    return { shape: 'incidents', domain, code, message, context };
  }
  return { ...fallback, domain, code, context };
}

/** Reads `context.retry_after` (seconds) from a parsed body, when present. */
export function contextRetryAfterMs(context: Record<string, unknown>): number | undefined {
  const v = context.retry_after;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? n * 1000 : undefined;
}
