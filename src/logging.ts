import { appendFileSync } from 'node:fs';

/**
 * Debug logs as Terraform users know them: `TF_LOG` chooses the level (TRACE, DEBUG, INFO,
 * WARN, ERROR; JSON for TRACE as JSON lines), `TF_LOG_PATH` a file the lines are appended to
 * (stderr without it). Under `terraform`, the provider writes JSON lines on stderr instead, which
 * Terraform files among its own logs (`TF_LOG`, or `TF_LOG_PROVIDER` for providers alone).
 *
 * A line carries what an operation did (a request's method, path, status and duration, a retry
 * and its reason, a lock taken or a state written), never a header, a body or a credential.
 */

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** A field's value: plain data, so that nothing of an object (a secret inside it) is written by accident. */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>;

const ORDER: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

interface Sink {
  readonly level: LogLevel;
  readonly format: 'text' | 'json';
  write(line: string): void;
}

let sink: Sink | undefined;

/** Whether a line of this level would be written. */
export function logs(level: LogLevel): boolean {
  return sink !== undefined && ORDER[level] >= ORDER[sink.level];
}

/** Writes one line when the level is on; a failing log never fails the operation. */
export function log(level: LogLevel, message: string, fields: LogFields = {}): void {
  if (!sink || ORDER[level] < ORDER[sink.level]) return;
  try {
    sink.write(formatLine(sink.format, level, message, fields, new Date()));
  } catch {
    // A full disk or a closed stderr must not stop an apply.
  }
}

export function formatLine(format: 'text' | 'json', level: LogLevel, message: string, fields: LogFields, at: Date): string {
  const defined = Object.entries(fields).filter((e): e is [string, string | number | boolean] => e[1] !== undefined);
  if (format === 'json') {
    // hclog's timestamp, microseconds included: Terraform reads a plugin's line as a log entry only with it.
    const timestamp = at.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
    return `${JSON.stringify({ '@level': level, '@message': message, '@module': 'tenantform', '@timestamp': timestamp, ...Object.fromEntries(defined) })}\n`;
  }
  const tail = defined.map(([k, v]) => `${k}=${typeof v === 'string' && /[\s"=]/.test(v) ? JSON.stringify(v) : String(v)}`).join(' ');
  // One line per entry: a value holding a line break (a platform's message) stays on it.
  const text = `${message}${tail ? `: ${tail}` : ''}`.replace(/[\r\n]+/g, ' ');
  return `${at.toISOString()} [${level.toUpperCase()}] ${text}\n`;
}

/** The level a `TF_LOG` value asks for; undefined when logging is off. Unknown values mean TRACE, as in Terraform. */
export function levelOf(value: string | undefined): { level: LogLevel; json: boolean; unknown?: string } | undefined {
  const v = value?.trim();
  if (!v || v.toLowerCase() === 'off') return undefined;
  const lower = v.toLowerCase();
  if (lower === 'json') return { level: 'trace', json: true };
  if (lower in ORDER) return { level: lower as LogLevel, json: false };
  return { level: 'trace', json: false, unknown: v };
}

/** The command line's logs: `TF_LOG` and `TF_LOG_PATH`. */
export function configureCliLogging(env: NodeJS.ProcessEnv): void {
  const chosen = levelOf(env.TF_LOG);
  if (!chosen) {
    sink = undefined;
    return;
  }
  const path = env.TF_LOG_PATH;
  const write = path ? (line: string) => appendFileSync(path, line, { mode: 0o600 }) : (line: string) => void process.stderr.write(line);
  sink = { level: chosen.level, format: chosen.json ? 'json' : 'text', write };
  if (chosen.unknown) log('warn', 'Invalid log level, defaulting to TRACE', { TF_LOG: chosen.unknown });
}

/**
 * The provider's logs: JSON lines on stderr, which Terraform reads as its plugins' logs, when
 * `TF_LOG_PROVIDER` or `TF_LOG` asks for them. Terraform decides what it shows and where.
 */
export function configureProviderLogging(env: NodeJS.ProcessEnv): void {
  const chosen = levelOf(env.TF_LOG_PROVIDER) ?? levelOf(env.TF_LOG);
  sink = chosen ? { level: chosen.level, format: 'json', write: (line) => void process.stderr.write(line) } : undefined;
}

/** What the platform client reports of one exchange (its `ClientEvent`), as far as the log needs it. */
export interface LoggedExchange {
  readonly method: string;
  readonly endpoint: string;
  readonly path?: string;
  readonly status?: number;
  readonly attempt: number;
  readonly ms: number;
  readonly retryInMs?: number;
  readonly retryLeftMs?: number;
  readonly code?: string;
  readonly requestId?: string;
}

/**
 * One line per exchange, for the platform client's `onEvent`: an answer at DEBUG, a failure that
 * is retried or that ends the request at WARN, with its reason.
 */
export function logExchange(e: LoggedExchange): void {
  const failed = e.status === undefined || e.status >= 400;
  const level = failed ? 'warn' : 'debug';
  if (!logs(level)) return;
  const message = `${e.method} ${e.path ?? e.endpoint}`;
  log(level, failed ? `${message} failed${e.retryInMs !== undefined ? ', retrying' : ''}` : message, {
    status: e.status,
    ms: Math.round(e.ms),
    attempt: e.attempt,
    reason: e.code,
    retry_in_ms: e.retryInMs,
    retry_left_ms: e.retryLeftMs,
    request_id: e.requestId,
  });
}

/** Which way connections to a server go: straight, or through a proxy (its address, never its credentials). */
export function logRoute(origin: string, route: { readonly proxy?: string }): void {
  log('debug', route.proxy ? `connections to ${origin} go through the proxy ${route.proxy}` : `connections to ${origin} go direct`);
}
