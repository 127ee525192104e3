import { readFileSync } from 'node:fs';
import { backendErrors } from './errors';
import { parseDuration } from './acquire';

/** The stack's `terraform.backend` block: its type and settings, as synthesized. */
export interface BackendBlock {
  readonly type: string;
  readonly settings: Readonly<Record<string, unknown>>;
}

/** Reads `terraform.backend` from a Terraform JSON configuration; undefined when it declares none. */
export function readBackendBlock(configFile: string): BackendBlock | undefined {
  const doc = JSON.parse(readFileSync(configFile, 'utf8')) as { terraform?: { backend?: unknown } };
  return backendBlockOf(doc.terraform?.backend);
}

/** The backend that a configuration's `terraform.backend` value declares; undefined when it declares none. */
export function backendBlockOf(backend: unknown): BackendBlock | undefined {
  if (!backend || typeof backend !== 'object') return undefined;
  const [type, ...others] = Object.keys(backend);
  if (type === undefined) return undefined;
  if (others.length > 0) throw backendErrors.invalidSetting(type, 'terraform.backend', `declares ${others.length + 1} backends; a stack has one`);
  const settings = (backend as Record<string, unknown>)[type];
  return { type, settings: typeof settings === 'object' && settings !== null ? (settings as Record<string, unknown>) : {} };
}

/**
 * How long one call to a state backend (a query, an HTTP request) may wait for its answer
 * before it fails with a message: a backend that accepts a connection and never answers would
 * otherwise hold the run, and its lock, without a word. A Terraform duration (`90s`, `2m`).
 */
export const STATE_TIMEOUT = { variable: 'TENANTFORM_STATE_TIMEOUT', defaultMs: 30_000 } as const;

/** Why a backend call failed when it timed out, with the setting that changes the wait. */
export function noAnswerWithin(ms: number): string {
  return `no answer within ${ms / 1000} s (${STATE_TIMEOUT.variable} sets how long to wait)`;
}

/**
 * One backend's settings, each from the block, else from its environment variable, as
 * Terraform reads them.
 */
export class BackendSettings {
  constructor(
    readonly type: string,
    private readonly block: Readonly<Record<string, unknown>>,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  string(name: string, envVar?: string): string | undefined {
    const value = this.block[name] ?? (envVar ? this.env[envVar] : undefined);
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw backendErrors.invalidSetting(this.type, name, 'must be a string');
    return value;
  }

  required(name: string, envVar?: string): string {
    const value = this.string(name, envVar);
    if (value === undefined) throw backendErrors.invalidSetting(this.type, name, `is required${envVar ? ` (or set ${envVar})` : ''}`);
    return value;
  }

  boolean(name: string, envVar?: string): boolean {
    const value = this.block[name] ?? (envVar ? this.env[envVar] : undefined);
    if (value === undefined || value === null || value === '') return false;
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    throw backendErrors.invalidSetting(this.type, name, 'must be true or false');
  }

  /** `STATE_TIMEOUT` in milliseconds. */
  callTimeoutMs(): number {
    const text = this.env[STATE_TIMEOUT.variable];
    if (text === undefined || text === '') return STATE_TIMEOUT.defaultMs;
    const ms = parseDuration(text);
    if (ms === undefined || ms === 0)
      throw backendErrors.invalidSetting(this.type, STATE_TIMEOUT.variable, `must be a duration with its unit, such as 30s or 2m (found "${text}")`);
    return ms;
  }

  number(name: string, envVar: string | undefined, fallback: number): number {
    const value = this.block[name] ?? (envVar ? this.env[envVar] : undefined);
    if (value === undefined || value === null || value === '') return fallback;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) throw backendErrors.invalidSetting(this.type, name, 'must be a number of at least 0');
    return n;
  }
}
