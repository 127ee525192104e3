/**
 * Client-credentials access tokens (spec 1: token issuance; GAPS.md: token endpoint).
 *
 * A token is reused until shortly before its `expires_on`; callers that need a token while one
 * is being requested share that request (single flight); a 401 on an API call drops the token
 * it used so that the next caller gets a fresh one.
 */
import { inspect } from 'node:util';
import { encodeForm, USER_AGENT } from './http';
import type { TokenResponse } from './schemas';

export const TOKEN_PATH = '/api/2/idp/token';

/** The headers and body of a client-credentials token request. */
export function tokenRequest(clientId: string, clientSecret: string): { headers: Record<string, string>; body: string } {
  const basic = Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64');
  return {
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      'user-agent': USER_AGENT,
    },
    body: encodeForm({ grant_type: 'client_credentials' }),
  };
}

export interface TokenCacheOptions {
  /** Renew this long before `expires_on` (capped at half the token's lifetime). */
  skewMs: number;
  now?: () => number;
}

/** Holds one access token. Never prints it. */
export class TokenCache {
  #token: string | undefined;
  #renewAtMs = 0;
  #inflight: Promise<string> | undefined;
  #issued = 0;
  readonly #fetch: () => Promise<TokenResponse>;
  readonly #skewMs: number;
  readonly #now: () => number;

  constructor(fetch: () => Promise<TokenResponse>, options: TokenCacheOptions) {
    this.#fetch = fetch;
    this.#skewMs = options.skewMs;
    this.#now = options.now ?? Date.now;
  }

  /** Tokens issued so far (for diagnostics and tests). */
  get issued(): number {
    return this.#issued;
  }

  /** A valid token: the cached one, the one being requested, or a new one. */
  get(): Promise<string> {
    if (this.#token !== undefined && this.#now() < this.#renewAtMs) return Promise.resolve(this.#token);
    if (this.#inflight) return this.#inflight;
    const flight = this.#request().finally(() => {
      if (this.#inflight === flight) this.#inflight = undefined;
    });
    this.#inflight = flight;
    return flight;
  }

  async #request(): Promise<string> {
    const issuedAt = this.#now();
    const res = await this.#fetch();
    const expiresAtMs = res.expires_on * 1000;
    const lifetime = Math.max(0, expiresAtMs - issuedAt);
    // A short-lived token would otherwise be renewed on every call: never skew by more than
    // half of its lifetime.
    const skew = Math.min(this.#skewMs, lifetime / 2);
    this.#token = res.access_token;
    this.#renewAtMs = expiresAtMs - skew;
    this.#issued++;
    return res.access_token;
  }

  /** Drops `token` if it is still the cached one (after the platform refused it with 401). */
  invalidate(token: string): void {
    if (this.#token === token) {
      this.#token = undefined;
      this.#renewAtMs = 0;
    }
  }

  /** Drops whatever is cached. */
  clear(): void {
    this.#token = undefined;
    this.#renewAtMs = 0;
  }

  toString(): string {
    return `TokenCache { token: ${this.#token === undefined ? 'none' : '[redacted]'} }`;
  }

  toJSON(): Record<string, unknown> {
    return { token: this.#token === undefined ? null : '[redacted]', issued: this.#issued };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
