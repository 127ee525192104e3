import { createHash } from 'node:crypto';
import { networkErrors } from '../errors';
import { backendErrors } from './errors';
import { logRoute } from '../logging';
import { networkFailure } from '../network/failure';
import { Routes } from '../network/routes';
import { isBlank } from '../plain-json';
import { describeHolder, parseLockInfo, type LockHolder, type LockInfo } from './lock-info';
import { noAnswerWithin, type BackendSettings } from './settings';
import type { ForceUnlockOutcome, HeldLock, LockAttempt, StateBackend } from './types';

/** All of undici, loaded when an http backend is first used (see src/network/undici-parts.ts for why not at launch). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const undici = (): typeof import('undici') => require('undici') as typeof import('undici');

export interface HttpSettings {
  readonly address: string;
  readonly updateMethod: string;
  readonly lockAddress?: string;
  readonly lockMethod: string;
  readonly unlockAddress?: string;
  readonly unlockMethod: string;
  readonly username?: string;
  readonly password?: string;
  readonly skipCertVerification: boolean;
  readonly retryMax: number;
  readonly retryWaitMinMs: number;
  readonly retryWaitMaxMs: number;
  /** How long one attempt waits for the answer's headers, and again for its body (`STATE_TIMEOUT`). */
  readonly timeoutMs: number;
}

export function httpSettings(s: BackendSettings): HttpSettings {
  const url = (name: string, envVar: string): string | undefined => {
    const value = s.string(name, envVar);
    if (value !== undefined && !/^https?:\/\//.test(value)) throw backendErrors.invalidSetting(s.type, name, 'must be an http:// or https:// URL');
    return value;
  };
  const address = url('address', 'TF_HTTP_ADDRESS');
  if (!address) throw backendErrors.invalidSetting(s.type, 'address', 'is required (or set TF_HTTP_ADDRESS)');
  return {
    address,
    updateMethod: s.string('update_method', 'TF_HTTP_UPDATE_METHOD') ?? 'POST',
    lockAddress: url('lock_address', 'TF_HTTP_LOCK_ADDRESS'),
    lockMethod: s.string('lock_method', 'TF_HTTP_LOCK_METHOD') ?? 'LOCK',
    unlockAddress: url('unlock_address', 'TF_HTTP_UNLOCK_ADDRESS'),
    unlockMethod: s.string('unlock_method', 'TF_HTTP_UNLOCK_METHOD') ?? 'UNLOCK',
    username: s.string('username', 'TF_HTTP_USERNAME'),
    password: s.string('password', 'TF_HTTP_PASSWORD'),
    skipCertVerification: s.boolean('skip_cert_verification', 'TF_HTTP_SKIP_CERT_VERIFICATION'),
    retryMax: s.number('retry_max', 'TF_HTTP_RETRY_MAX', 2),
    retryWaitMinMs: s.number('retry_wait_min', 'TF_HTTP_RETRY_WAIT_MIN', 1) * 1000,
    retryWaitMaxMs: s.number('retry_wait_max', 'TF_HTTP_RETRY_WAIT_MAX', 30) * 1000,
    timeoutMs: s.callTimeoutMs(),
  };
}

/** A part of an address as written: a broken escape is taken as it is. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An address without credentials or query, for messages. */
function shown(address: string): string {
  const u = new URL(address);
  u.username = '';
  u.password = '';
  u.search = '';
  return u.toString();
}

interface Answer {
  status: number;
  body: string;
}

/**
 * Terraform's `http` backend (the protocol of GitLab's managed state): GET the state, write
 * it with `update_method` and the lock ID, lock and unlock with `lock_method`/`unlock_method`
 * and the LockInfo as the body; 409 or 423 mean someone else holds the lock, and their
 * LockInfo is the answer's body.
 */
export class HttpBackend implements StateBackend {
  readonly type = 'http';
  /** One route per origin: the state, lock and unlock addresses may name different servers, or need different proxies. */
  private readonly routes: Routes;
  private lockId?: string;

  constructor(private readonly settings: HttpSettings) {
    this.routes = new Routes({ verifyCertificates: !settings.skipCertVerification, onRoute: logRoute });
  }

  /** Whether the server's certificate goes unchecked (the commands warn of it). */
  get skipsCertVerification(): boolean {
    return this.settings.skipCertVerification;
  }

  get location(): string {
    return `http ${shown(this.settings.address)}`;
  }

  async read(): Promise<string | undefined> {
    const a = await this.send('GET', this.settings.address);
    if (a.status === 204 || a.status === 404) return undefined;
    this.expect(a, [200], 'reading the state');
    return isBlank(a.body) ? undefined : a.body;
  }

  async write(text: string): Promise<void> {
    const target = new URL(this.settings.address);
    if (this.lockId) target.searchParams.set('ID', this.lockId);
    const md5 = createHash('md5').update(text).digest('base64');
    const a = await this.send(this.settings.updateMethod, target.toString(), text, { 'content-type': 'application/json', 'content-md5': md5 });
    this.expect(a, [200, 201, 204], 'writing the state');
  }

  async tryLock(info: LockInfo): Promise<LockAttempt> {
    const { lockAddress } = this.settings;
    // Without a lock address the backend does not lock, as in Terraform.
    if (!lockAddress) return { held: { info, release: async () => undefined } };
    const body = JSON.stringify(info);
    const a = await this.send(this.settings.lockMethod, lockAddress, body, { 'content-type': 'application/json' });
    if (a.status === 409 || a.status === 423) {
      const holder = parseLockInfo(a.body);
      return { busy: holder.ID || holder.Who ? holder : { description: `another run (the server answered ${a.status} without saying who)` } };
    }
    this.expect(a, [200], 'locking the state');
    this.lockId = info.ID;
    const held: HeldLock = {
      info,
      release: async () => {
        if (this.lockId !== info.ID) return;
        this.lockId = undefined;
        const u = await this.send(this.settings.unlockMethod, this.settings.unlockAddress ?? lockAddress, body, { 'content-type': 'application/json' });
        this.expect(u, [200, 204], 'unlocking the state');
      },
    };
    return { held };
  }

  /** The protocol has no way to ask who holds the lock without taking it. */
  async currentLock(): Promise<LockHolder | undefined> {
    return undefined;
  }

  async forceUnlock(id: string): Promise<ForceUnlockOutcome> {
    const { lockAddress, unlockAddress } = this.settings;
    if (!lockAddress && !unlockAddress) throw backendErrors.lockNotFound(this.location);
    const a = await this.send(this.settings.unlockMethod, unlockAddress ?? lockAddress!, JSON.stringify({ ID: id }), { 'content-type': 'application/json' });
    if (a.status === 409 || a.status === 423) {
      const holder = parseLockInfo(a.body);
      throw backendErrors.lockIdMismatch(this.location, id, holder.ID ?? describeHolder(holder));
    }
    this.expect(a, [200, 204], 'unlocking the state');
    return { accepted: { ID: id } };
  }

  async close(): Promise<void> {
    await this.routes.close();
  }

  private expect(a: Answer, ok: number[], doing: string): void {
    if (ok.includes(a.status)) return;
    if (a.status === 401)
      throw backendErrors.unreachable(
        this.location,
        `${doing}: the server requires authentication (set username and password, or TF_HTTP_USERNAME and TF_HTTP_PASSWORD)`,
      );
    if (a.status === 403) throw backendErrors.unreachable(this.location, `${doing}: the server refused the credentials (403)`);
    throw backendErrors.unreachable(this.location, `${doing}: unexpected HTTP status ${a.status}`);
  }

  /** One request, retried on connection errors and 5xx answers (retry_max, with backoff between retry_wait_min and retry_wait_max). */
  private async send(method: string, withCredentials: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
    // Credentials in the address (`https://user:password@host/...`) count when no setting gives any, as
    // terraform's client takes them; they are sent in the header, never in the request line.
    const target = new URL(withCredentials);
    const inAddress =
      target.username !== '' || target.password !== '' ? { username: safeDecode(target.username), password: safeDecode(target.password) } : undefined;
    target.username = '';
    target.password = '';
    const address = target.toString();
    const configured = this.settings.username !== undefined || this.settings.password !== undefined;
    const { username, password } = configured ? this.settings : (inAddress ?? {});
    const auth =
      username !== undefined || password !== undefined
        ? { authorization: `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64')}` }
        : {};
    const origin = target.origin;
    for (let attempt = 0; ; attempt++) {
      let failure: string;
      try {
        const r = await undici().request(address, {
          method: method,
          body,
          headers: { ...headers, ...auth },
          dispatcher: this.routes.get(origin).dispatcher,
          // A server that accepts the connection and never answers fails the attempt, not the run silently.
          headersTimeout: this.settings.timeoutMs,
          bodyTimeout: this.settings.timeoutMs,
        });
        const text = await r.body.text();
        if (r.statusCode < 500) return { status: r.statusCode, body: text };
        failure = `HTTP ${r.statusCode}`;
      } catch (err) {
        const network = networkFailure(err, this.routes.describe(origin));
        // A certificate or a setting fails the same way every time; a proxy's failure may pass.
        if (network && (network.kind !== 'proxy' || !network.retryable || attempt >= this.settings.retryMax)) throw networkErrors.of(network);
        const code = (err as { code?: string }).code;
        failure = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? noAnswerWithin(this.settings.timeoutMs) : (err as Error).message;
      }
      if (attempt >= this.settings.retryMax) throw backendErrors.unreachable(this.location, `${method} ${shown(address)}: ${failure}`);
      const wait = Math.min(this.settings.retryWaitMaxMs, this.settings.retryWaitMinMs * 2 ** attempt);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
