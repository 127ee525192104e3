/**
 * Token issuance (client credentials) and bearer token checks.
 *
 * GAPS: token endpoint. Both `POST /api/2/idp/token` and `POST /bc/idp/token` take the form body
 * `grant_type=client_credentials` with HTTP Basic (or `client_id`/`client_secret` form fields).
 */
import { randomBytes } from 'node:crypto';
import { accountError, HttpError } from './errors';
import type { Store } from './store';

export interface Caller {
  clientId: string;
  tenantId: string;
  scopes: readonly string[];
}

interface IssuedToken extends Caller {
  expiresAtMs: number;
}

export interface TokenResponse {
  access_token: string;
  id_token: string;
  expires_on: number;
  token_type: 'bearer';
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The reference's token endpoint error (`tokenError`): an OAuth-style `error` and its description. */
function tokenError(status: 400 | 401, error: 'invalid_request' | 'access_denied', description: string): HttpError {
  return new HttpError(status, { error, error_description: description });
}

export class TokenService {
  /** Tokens live in memory only: after a restart clients simply obtain new ones. */
  private readonly tokens = new Map<string, IssuedToken>();

  constructor(private readonly store: Store) {}

  /** Handles a token request body; throws an account management error body on failure. */
  issue(contentType: string | undefined, authorization: string | undefined, rawBody: string, lifetimeSeconds: number): TokenResponse {
    if (!(contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      throw accountError(415, 'invalid_content_type', 'The token request must be application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams(rawBody);
    const grant = form.get('grant_type');
    if (grant !== 'client_credentials') {
      throw tokenError(400, 'invalid_request', `grant_type ${grant === null ? 'is missing' : `${grant} is not supported`}`);
    }
    let clientId = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = /^Basic\s+(.+)$/i.exec(authorization ?? '');
    if (basic !== null) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        // platform-interface: token request credentials (id and secret as they are)
        clientId = decoded.slice(0, colon);
        secret = decoded.slice(colon + 1);
      }
    }
    const client = clientId === null ? undefined : this.store.client(clientId);
    // platform-interface: token errors (wrong credentials or a disabled client: 401 unauthorized)
    if (client === undefined || secret === null || client.client_secret !== secret || client.status !== 'enabled') {
      throw tokenError(401, 'access_denied', 'Invalid client credentials');
    }
    const nowMs = Date.now();
    const expiresAtMs = nowMs + lifetimeSeconds * 1000;
    const accessToken = randomBytes(32).toString('base64url');
    this.tokens.set(accessToken, { clientId: client.client_id, tenantId: client.tenant_id, scopes: [...client.scopes], expiresAtMs });
    const claims = {
      iss: 'tenantform-emulator',
      sub: client.client_id,
      tenant_id: client.tenant_id,
      scope: client.scopes.join(' '),
      iat: Math.floor(nowMs / 1000),
      exp: Math.floor(expiresAtMs / 1000),
    };
    return {
      access_token: accessToken,
      id_token: `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`,
      // platform-interface: token lifetime (issue time plus the lifetime)
      expires_on: Math.floor(expiresAtMs / 1000),
      token_type: 'bearer',
    };
  }

  /** The API client a token was issued to, expired or not (changes nothing: the router answers for the token). */
  clientIdOf(token: string): string | undefined {
    return this.tokens.get(token)?.clientId;
  }

  /** The caller behind a token, or why there is none. */
  verify(token: string): Caller | 'unknown' | 'expired' | 'disabled' {
    const issued = this.tokens.get(token);
    if (issued === undefined) return 'unknown';
    if (Date.now() >= issued.expiresAtMs) {
      this.tokens.delete(token);
      return 'expired';
    }
    const client = this.store.client(issued.clientId);
    if (client === undefined || client.status !== 'enabled') return 'disabled';
    return issued;
  }

  clear(): void {
    this.tokens.clear();
  }
}

/** Whether a granted scope satisfies a required one; `*` in a required scope stands for any text. */
export function scopeMatches(required: string, granted: string): boolean {
  if (!required.includes('*')) return required === granted;
  const pattern = required
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+');
  return new RegExp(`^${pattern}$`).test(granted);
}

export function hasAnyScope(caller: Caller, anyOf: readonly string[]): boolean {
  return anyOf.some((req) => caller.scopes.some((g) => scopeMatches(req, g)));
}

export function isHttpError(e: unknown): e is HttpError {
  return e instanceof HttpError;
}
