/**
 * The platform client: typed methods over the account management, agent manager, event
 * manager and alert manager interfaces, with token handling, retries and checked responses.
 *
 * Methods take camelCase arguments and return the platform's snake_case objects as it sent them
 * (typed by the zod schemas in `schemas.ts`).
 */
import { inspect } from 'node:util';
import type { z } from 'zod';
import { contextRetryAfterMs, interfaceOf, parseErrorBody, PlatformError, ResponseShapeError } from './errors';
import {
  encodeQuery,
  fillPath,
  header,
  parseBaseUrl,
  PoolRegistry,
  send,
  transportFailure,
  type BaseUrl,
  type HttpRequest,
  type HttpResponse,
  type Query,
} from './http';
import { markNoFurtherRetry, parseRetryAfter, resolveRetryOptions, withRetry, type RetryOptions } from './retry';
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
}

type Method = HttpRequest['method'];

interface CallSpec<T extends z.ZodType | null> {
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

type Result<T extends z.ZodType | null> = T extends z.ZodType ? z.infer<T> : undefined;

// --- request bodies --------------------------------------------------------------------------

export interface SettingData {
  value: unknown;
  lock: boolean;
  exclusive: boolean;
}

export interface InfraCreate {
  owner_tenant_id: string;
  location_id?: string | null;
  name: string;
  url: string;
  capabilities: string[];
  content_url?: string;
  content_mobile_url?: string;
  backend_type?: unknown;
  [extra: string]: unknown;
}

export interface InfraUpdate {
  name: string;
  location_id?: string | null;
  url: string;
  capabilities: string[];
  content_url?: string;
  content_mobile_url?: string;
  backend_type?: unknown;
  /** The version the change is based on (optimistic concurrency). */
  version: number;
  [extra: string]: unknown;
}

export interface ReportBody {
  result_action: string;
  recipients: string[];
  parameters: Record<string, unknown> & { tenant_id: string; kind: string; level: string };
  schedule: Record<string, unknown> & { type: string; enabled?: boolean };
  [extra: string]: unknown;
}

export interface AgentUpdateSettingsItem {
  agent_id?: string;
  tenant_id?: string;
  update_channel: string;
  automatic: boolean;
  maintenance_window?: { time_from: string; time_to: string; days_of_week: string[] };
}

export interface SubscriptionBody {
  subscription_id: string;
  topic_id: string;
  types: string[];
  subject_types?: string[];
  tenant_id?: string;
  tenant_depth: 'CURRENT' | 'DIRECT' | 'ALL';
  cel?: string;
  auto_commit?: boolean;
  auto_commit_interval?: string;
  session_timeout?: string;
}

export interface AlertTypeBody {
  id: string;
  severity?: string;
  enabled?: boolean;
  category?: string;
  [extra: string]: unknown;
}

export interface AlertBody {
  type: string;
  tenantID: string;
  severity: string;
  details?: Record<string, unknown>;
  [extra: string]: unknown;
}

export interface ListAgentsOptions {
  tenantId?: string;
  /** Page size. */
  limit?: number;
  /** Full host name or a mask (`hlike(...)`, `like(...)`, `tlike(...)`). */
  hostname?: string;
}

export interface GetTenantsOptions {
  uuids?: string[];
  parentId?: string;
  subtreeRootId?: string;
  lod?: 'stamps' | 'basic' | 'full';
  /** Page size. */
  limit?: number;
}

/** GET /tenants takes at most 100 ids (spec 1, limits). */
export const TENANT_UUIDS_PER_REQUEST = 100;
/** GET /infra ids per request: the spec gives no limit; the same bound keeps URLs short. */
export const INFRA_UUIDS_PER_REQUEST = 100;

const AM = '/api/2';
const AGENTS = '/api/agent_manager/v2';
const EVENTS = '/api/event_manager/v1';
const ALERTS = '/api/alert_manager/v1';

function chunk<T>(items: readonly T[], size: number): T[][] {
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

export class PlatformClient {
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
  #closed = false;

  constructor(opts: PlatformClientOptions) {
    if (!opts.clientId) throw new Error('clientId is required');
    if (!opts.clientSecret) throw new Error('clientSecret is required');
    this.#base = parseBaseUrl(opts.baseUrl);
    this.baseUrl = this.#base.origin + this.#base.prefix;
    this.clientId = opts.clientId;
    this.#clientSecret = opts.clientSecret;
    this.#pools = opts.pools ?? new PoolRegistry();
    this.#ownsPools = opts.pools === undefined;
    this.#timeoutMs = opts.timeoutMs ?? 30_000;
    this.#retry = resolveRetryOptions(opts.retry);
    this.#onEvent = opts.onEvent;
    this.#tokens = new TokenCache(() => this.#fetchToken(), { skewMs: opts.tokenSkewMs ?? 60_000 });
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

  // --- applications and bindings -------------------------------------------------------------

  async listApplications(): Promise<S.Application[]> {
    const r = await this.#call({ method: 'GET', endpoint: `${AM}/applications`, schema: S.ApplicationList });
    return r.items;
  }

  getApplication(id: string): Promise<S.Application> {
    return this.#call({
      method: 'GET',
      endpoint: `${AM}/applications/{application_id}`,
      params: { application_id: id },
      schema: S.Application,
    });
  }

  /** Turns an application on for a tenant. platform-interface: binding (a repeat answers 204, so it is retried). */
  async enableApplication(appId: string, tenantId: string): Promise<void> {
    await this.#call({
      method: 'POST',
      endpoint: `${AM}/applications/{application_id}/bindings/tenants/{tenant_id}`,
      params: { application_id: appId, tenant_id: tenantId },
      schema: null,
      idempotent: true,
    });
  }

  async disableApplication(appId: string, tenantId: string): Promise<void> {
    await this.#call({
      method: 'DELETE',
      endpoint: `${AM}/applications/{application_id}/bindings/tenants/{tenant_id}`,
      params: { application_id: appId, tenant_id: tenantId },
      schema: null,
    });
  }

  /** Ids of the applications a tenant has on (GAPS.md: which applications a tenant has on). */
  async listTenantApplications(tenantId: string): Promise<string[]> {
    const r = await this.#call({
      method: 'GET',
      endpoint: `${AM}/tenants/{tenant_id}/applications`,
      params: { tenant_id: tenantId },
      schema: S.IdList,
    });
    return r.items;
  }

  // --- tenant settings -----------------------------------------------------------------------

  getSetting(appId: string, tenantId: string, name: string): Promise<S.Setting> {
    return this.#call({
      method: 'GET',
      endpoint: `${AM}/applications/{application_id}/settings/tenants/{tenant_id}/{setting_name}`,
      params: { application_id: appId, tenant_id: tenantId, setting_name: name },
      schema: S.Setting,
    });
  }

  putSetting(appId: string, tenantId: string, name: string, data: SettingData): Promise<S.Setting> {
    return this.#call({
      method: 'PUT',
      endpoint: `${AM}/applications/{application_id}/settings/tenants/{tenant_id}/{setting_name}`,
      params: { application_id: appId, tenant_id: tenantId, setting_name: name },
      json: { value: data.value, lock: data.lock, exclusive: data.exclusive },
      schema: S.Setting,
    });
  }

  async deleteSetting(appId: string, tenantId: string, name: string): Promise<void> {
    await this.#call({
      method: 'DELETE',
      endpoint: `${AM}/applications/{application_id}/settings/tenants/{tenant_id}/{setting_name}`,
      params: { application_id: appId, tenant_id: tenantId, setting_name: name },
      schema: null,
    });
  }

  /** GAPS.md: list all settings of an application for a tenant. */
  async listSettings(appId: string, tenantId: string): Promise<S.Setting[]> {
    const r = await this.#call({
      method: 'GET',
      endpoint: `${AM}/applications/{application_id}/settings/tenants/{tenant_id}`,
      params: { application_id: appId, tenant_id: tenantId },
      schema: S.SettingList,
    });
    return r.settings;
  }

  // --- infrastructure components -------------------------------------------------------------

  /** Reads components by id, in requests of at most `INFRA_UUIDS_PER_REQUEST` ids. */
  async getInfra(uuids: readonly string[]): Promise<S.Infra[]> {
    const out: S.Infra[] = [];
    for (const part of chunk([...new Set(uuids)], INFRA_UUIDS_PER_REQUEST)) {
      const r = await this.#call({
        method: 'GET',
        endpoint: `${AM}/infra`,
        query: { uuids: part.join(',') },
        schema: S.InfraList,
      });
      out.push(...r.items);
    }
    return out;
  }

  /** Not idempotent: never retried (a repeat could register a second component). */
  createInfra(body: InfraCreate): Promise<S.Infra> {
    return this.#call({ method: 'POST', endpoint: `${AM}/infra`, json: body, schema: S.Infra });
  }

  /** GAPS.md: infrastructure component update (`version` in the body, 409 when stale). */
  updateInfra(id: string, body: InfraUpdate): Promise<S.Infra> {
    return this.#call({
      method: 'PUT',
      endpoint: `${AM}/infra/{infra_id}`,
      params: { infra_id: id },
      json: body,
      schema: S.Infra,
    });
  }

  async deleteInfra(id: string, version: number, opts: { force?: boolean } = {}): Promise<void> {
    await this.#call({
      method: 'DELETE',
      endpoint: `${AM}/infra/{infra_id}`,
      params: { infra_id: id },
      query: { version, force: opts.force },
      schema: null,
    });
  }

  /** GAPS.md: infrastructure components of a tenant. */
  async listTenantInfra(tenantId: string): Promise<string[]> {
    const r = await this.#call({
      method: 'GET',
      endpoint: `${AM}/tenants/{tenant_id}/infra`,
      params: { tenant_id: tenantId },
      schema: S.TenantInfraList,
    });
    return r.infras;
  }

  // --- usage report configurations -----------------------------------------------------------

  getReport(id: string): Promise<S.Report> {
    return this.#call({
      method: 'GET',
      endpoint: `${AM}/reports/{report_id}`,
      params: { report_id: id },
      schema: S.Report,
    });
  }

  /** GAPS.md: usage report create. Not idempotent: never retried. */
  createReport(body: ReportBody): Promise<S.Report> {
    return this.#call({ method: 'POST', endpoint: `${AM}/reports`, json: body, schema: S.Report });
  }

  /** GAPS.md: usage report update. */
  updateReport(id: string, body: ReportBody & { version?: number }): Promise<S.Report> {
    return this.#call({
      method: 'PUT',
      endpoint: `${AM}/reports/{report_id}`,
      params: { report_id: id },
      json: body,
      schema: S.Report,
    });
  }

  /** GAPS.md: usage report delete (`?version=`, 409 when stale). */
  async deleteReport(id: string, version: number): Promise<void> {
    await this.#call({
      method: 'DELETE',
      endpoint: `${AM}/reports/{report_id}`,
      params: { report_id: id },
      query: { version },
      schema: null,
    });
  }

  /** GAPS.md: usage report list for a tenant. */
  async listTenantReports(tenantId: string): Promise<string[]> {
    const r = await this.#call({
      method: 'GET',
      endpoint: `${AM}/tenants/{tenant_id}/reports`,
      params: { tenant_id: tenantId },
      schema: S.IdList,
    });
    return r.items;
  }

  // --- agent update settings -----------------------------------------------------------------

  /**
   * The settings that apply to an agent (`master: false`) or a tenant (`master: true`), resolved
   * by the platform (spec 2). platform-interface: agent update settings read (not wrapped).
   */
  getAgentUpdateSettings(id: string, opts: { master: boolean }): Promise<S.AgentUpdateSettings> {
    return this.#call({
      method: 'GET',
      endpoint: `${AGENTS}/agent_update_settings/{id}`,
      params: { id },
      query: { master: opts.master },
      schema: S.AgentUpdateSettings,
    });
  }

  async putAgentUpdateSettings(items: AgentUpdateSettingsItem[]): Promise<void> {
    await this.#call({
      method: 'PUT',
      endpoint: `${AGENTS}/agent_update_settings`,
      json: { items },
      schema: null,
    });
  }

  async deleteAgentUpdateSettings(id: string, opts: { master: boolean }): Promise<void> {
    await this.#call({
      method: 'DELETE',
      endpoint: `${AGENTS}/agent_update_settings/{id}`,
      params: { id },
      query: { master: opts.master },
      schema: null,
    });
  }

  // --- agents --------------------------------------------------------------------------------

  /** Every agent matching the filters, page after page. platform-interface: agents listing. */
  async *agents(opts: ListAgentsOptions = {}): AsyncGenerator<S.Agent, void, undefined> {
    let query: Query = { tenant_id: opts.tenantId, hostname: opts.hostname, limit: opts.limit };
    const seen = new Set<string>();
    for (;;) {
      const page = await this.#call({ method: 'GET', endpoint: `${AGENTS}/agents`, query, schema: S.AgentPage });
      yield* page.items;
      const after = page.paging.cursors.after;
      if (!after) return;
      this.#checkCursor(seen, after, 'GET', `${AGENTS}/agents`);
      // spec 2: `after` is exclusive with every parameter but `limit`.
      query = { after, limit: opts.limit };
    }
  }

  /** All agents matching the filters (follows cursors). */
  async listAgents(opts: ListAgentsOptions = {}): Promise<S.Agent[]> {
    return collect(this.agents(opts));
  }

  // --- event manager -------------------------------------------------------------------------

  listTopics(topicId?: string): Promise<S.Topic[]> {
    return this.#call({
      method: 'GET',
      endpoint: `${EVENTS}/topics`,
      query: { topic_id: topicId },
      schema: S.Topic.array(),
    });
  }

  listEventTypes(opts: { topicId?: string; typeId?: string } = {}): Promise<S.EventType[]> {
    return this.#call({
      method: 'GET',
      endpoint: `${EVENTS}/types`,
      query: { topic_id: opts.topicId, type_id: opts.typeId },
      schema: S.EventType.array(),
    });
  }

  /**
   * Creates a subscription. Its id is chosen by the caller, so the POST is idempotent and retried.
   * When a retry meets 409 (the first attempt did create it but its answer was lost), the
   * subscription as sent is returned.
   */
  async createSubscription(sub: SubscriptionBody): Promise<S.Subscription> {
    try {
      return await this.#call({
        method: 'POST',
        endpoint: `${EVENTS}/subscriptions`,
        json: sub,
        schema: S.Subscription,
        idempotent: true,
      });
    } catch (e) {
      if (e instanceof PlatformError && e.status === 409 && e.attempts > 1) return { ...sub };
      throw e;
    }
  }

  /** GAPS.md: reading a subscription back (the only existence check; 404 when it does not exist). */
  getSubscriptionOffset(subscriptionId: string): Promise<S.SubscriptionOffset> {
    return this.#call({
      method: 'GET',
      endpoint: `${EVENTS}/subscriptions/offset`,
      query: { subscription_id: subscriptionId },
      schema: S.SubscriptionOffset,
    });
  }

  // --- alert manager -------------------------------------------------------------------------

  /** GAPS.md: registering a custom alert type. Types have caller-chosen ids: retried. */
  async registerAlertTypes(items: AlertTypeBody[]): Promise<void> {
    await this.#call({
      method: 'POST',
      endpoint: `${ALERTS}/types`,
      json: { items },
      schema: null,
      idempotent: true,
    });
  }

  /** platform-interface: alert types. */
  getAlertType(id: string): Promise<S.AlertType> {
    return this.#call({
      method: 'GET',
      endpoint: `${ALERTS}/types/{id}`,
      params: { id },
      schema: S.AlertType,
    });
  }

  /** Raises an alert; returns its id. Not idempotent: never retried. */
  async createAlert(alert: AlertBody): Promise<string> {
    const r = await this.#call({ method: 'POST', endpoint: `${ALERTS}/alerts`, json: alert, schema: S.CreatedAlert });
    return r.id;
  }

  /** platform-interface: alert types (`paging.cursors` is `{}`: one page). */
  async listAlerts(opts: { type?: string | string[]; tenant?: string | string[]; limit?: number } = {}): Promise<S.AlertView[]> {
    const r = await this.#call({
      method: 'GET',
      endpoint: `${ALERTS}/alerts`,
      query: { type: opts.type, tenant: opts.tenant, limit: opts.limit },
      schema: S.AlertPage,
    });
    return r.items;
  }

  /** Spec 03: DELETE /alerts dismisses the alerts matching the filter (never call it without one). */
  async dismissAlerts(filter: { type: string | string[]; tenant?: string | string[]; id?: string[] }): Promise<void> {
    await this.#call({ method: 'DELETE', endpoint: `${ALERTS}/alerts`, query: { type: filter.type, tenant: filter.tenant, id: filter.id }, schema: null });
  }

  // --- tenants and search --------------------------------------------------------------------

  /** Tenants, page after page; `uuids` are sent in requests of at most 100. */
  async *tenants(opts: GetTenantsOptions = {}): AsyncGenerator<S.Tenant, void, undefined> {
    const base: Query = {
      parent_id: opts.parentId,
      subtree_root_id: opts.subtreeRootId,
      lod: opts.lod,
      limit: opts.limit,
    };
    const queries: Query[] =
      opts.uuids === undefined
        ? [base]
        : chunk([...new Set(opts.uuids)], TENANT_UUIDS_PER_REQUEST).map((part) => ({ ...base, uuids: part.join(',') }));
    for (const first of queries) {
      let query = first;
      const seen = new Set<string>();
      for (;;) {
        const page = await this.#call({ method: 'GET', endpoint: `${AM}/tenants`, query, schema: S.TenantPage });
        yield* page.items;
        // platform-interface: tenants listing (`after` absent on the last page).
        const after = page.paging.cursors.after;
        if (!after) break;
        this.#checkCursor(seen, after, 'GET', `${AM}/tenants`);
        // spec 1: the cursor carries all filter and sort arguments.
        query = { after, limit: opts.limit };
      }
    }
  }

  /** All tenants matching the options (follows cursors, chunks `uuids`). */
  async getTenants(opts: GetTenantsOptions = {}): Promise<S.Tenant[]> {
    return collect(this.tenants(opts));
  }

  /** Searches tenants and users under `tenantId`. */
  async search(tenantId: string, text: string, opts: { limit?: number } = {}): Promise<S.SearchItem[]> {
    const r = await this.#call({
      method: 'GET',
      endpoint: `${AM}/search`,
      query: { tenant: tenantId, text, limit: opts.limit },
      schema: S.SearchResult,
    });
    return r.items;
  }

  // --- machinery -----------------------------------------------------------------------------

  #checkCursor(seen: Set<string>, after: string, method: string, endpoint: string): void {
    if (seen.has(after)) {
      throw new PlatformError({
        status: 200,
        interface: interfaceOf(endpoint),
        domain: 'tenantform',
        code: 'invalid_response',
        message: 'the platform returned the same page cursor twice; stopped paging to avoid a loop',
        retryable: false,
        method,
        endpoint,
      });
    }
    seen.add(after);
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
      const t = transportFailure(e);
      if (!t) throw e;
      throw new PlatformError({
        status: 0,
        interface: interfaceOf(endpoint),
        domain: 'transport',
        code: t.kind === 'timeout' ? 'timeout' : 'connection_dropped',
        message:
          t.kind === 'timeout'
            ? `no complete response within ${this.#timeoutMs} ms (${t.code})`
            : `the connection closed before a complete response (${t.code})`,
        retryable: true,
        method,
        endpoint,
      });
    }
  }

  #errorFrom(res: HttpResponse, method: string, endpoint: string): PlatformError {
    const iface = interfaceOf(endpoint);
    const parsed = parseErrorBody(res.status, res.text, iface);
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
          this.#emit({ method: 'POST', endpoint: TOKEN_PATH, status: res.status, attempt, ms });
          return this.#parse(S.TokenResponse, res, 'POST', TOKEN_PATH);
        },
        {
          idempotent: true,
          options: this.#retry,
          onRetry: (err, attempt, delay) => this.#emitFailure(err, 'POST', TOKEN_PATH, attempt, delay),
        },
      );
    } catch (e) {
      if (e instanceof PlatformError) {
        this.#emitFailure(e, 'POST', TOKEN_PATH, e.attempts, undefined);
        throw markNoFurtherRetry(e);
      }
      throw e;
    }
  }

  #emitFailure(err: PlatformError, method: string, endpoint: string, attempt: number, retryInMs: number | undefined): void {
    const ms = pendingMs.get(err) ?? 0;
    pendingMs.delete(err);
    this.#emit({
      method,
      endpoint,
      ...(err.status !== 0 ? { status: err.status } : {}),
      attempt,
      ms,
      ...(retryInMs !== undefined ? { retryInMs } : {}),
    });
  }

  /** Sends an authorised request with the retry policy and checks the answer. */
  async #call<T extends z.ZodType | null>(spec: CallSpec<T>): Promise<Result<T>> {
    const { method, endpoint } = spec;
    const path = fillPath(spec.endpoint, spec.params) + encodeQuery(spec.query);
    const body = spec.json === undefined ? undefined : JSON.stringify(spec.json);
    const idempotent = spec.idempotent ?? method !== 'POST';

    const once = async (token: string, attempt: number): Promise<HttpResponse> => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const t0 = Date.now();
      try {
        const res = await this.#exchange(method, endpoint, path, headers, body);
        const ms = Date.now() - t0;
        if (res.status >= 200 && res.status < 300) {
          this.#emit({ method, endpoint, status: res.status, attempt, ms });
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
            this.#emit({ method, endpoint, status: 401, attempt, ms: resMs.get(res) ?? 0, retryInMs: 0 });
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
          options: this.#retry,
          onRetry: (err, attempt, delay) => this.#emitFailure(err, method, endpoint, attempt, delay),
        },
      );
    } catch (e) {
      if (e instanceof PlatformError && pendingMs.has(e)) this.#emitFailure(e, method, endpoint, e.attempts, undefined);
      throw e;
    }
  }
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
