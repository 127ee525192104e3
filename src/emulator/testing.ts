/**
 * Helpers for driving a running emulator over real HTTP in tests (undici as the client).
 */
import { request } from 'undici';
import type { WorldSummary } from './control';
import { startEmulator, type RunningEmulator } from './server';

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text sent as is (with `contentType`). */
  raw?: string;
  contentType?: string;
  /** Override the bearer token; `null` sends none. */
  token?: string | null;
  headers?: Record<string, string>;
}

export async function call(baseUrl: string, method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token !== undefined && opts.token !== null) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const res = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json: parsed };
}

export async function issueToken(baseUrl: string, clientId: string, clientSecret: string): Promise<CallResult> {
  return call(baseUrl, 'POST', '/api/2/idp/token', {
    raw: 'grant_type=client_credentials',
    contentType: 'application/x-www-form-urlencoded',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
  });
}

/** A caller bound to one emulator and one API client, fetching its token lazily. */
export class TestClient {
  private token: string | undefined;

  constructor(
    readonly emulator: RunningEmulator,
    readonly clientId = emulator.clientId,
    readonly clientSecret = emulator.clientSecret,
  ) {}

  async accessToken(): Promise<string> {
    if (this.token === undefined) {
      const res = await issueToken(this.emulator.url, this.clientId, this.clientSecret);
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`);
      this.token = res.json.access_token as string;
    }
    return this.token;
  }

  async call(method: string, path: string, opts: CallOptions = {}): Promise<CallResult> {
    const token = opts.token === undefined ? await this.accessToken() : opts.token;
    return call(this.emulator.url, method, path, { ...opts, token });
  }

  get = (path: string, opts?: CallOptions) => this.call('GET', path, opts);
  post = (path: string, body?: unknown, opts?: CallOptions) => this.call('POST', path, { ...opts, body });
  put = (path: string, body?: unknown, opts?: CallOptions) => this.call('PUT', path, { ...opts, body });
  delete = (path: string, opts?: CallOptions) => this.call('DELETE', path, opts);
}

/** Creates an API client with the given scopes through the control endpoint. */
export async function createClient(e: RunningEmulator, scopes: string[], tenantId?: string): Promise<TestClient> {
  const res = await call(e.url, 'POST', '/_emulator/clients', { body: tenantId === undefined ? { scopes } : { scopes, tenant_id: tenantId } });
  if (res.status !== 201) throw new Error(`client creation failed: ${res.status} ${res.text}`);
  return new TestClient(e, res.json.client_id as string, res.json.client_secret as string);
}

/** What a test file shares: one emulator, a client with its primary credentials, and names of the seeded world. */
export interface EmulatorFixture {
  readonly emulator: RunningEmulator;
  readonly api: TestClient;
  readonly world: WorldSummary;
  /** The id of a seeded tenant, by name. */
  tenant(name: string): string;
  /** The id of a seeded application, by type. */
  app(type: string): string;
}

/**
 * Starts one emulator for the calling test file (jest's beforeAll) and closes it after its tests.
 * Its client is the MSP's partner client, as users meet the platform; `root` for tests of what
 * the platform does across the whole tree, which only the root's client sees.
 */
export function useEmulator(seed: number, account: 'msp' | 'root' = 'msp'): EmulatorFixture {
  const state: { emulator?: RunningEmulator; api?: TestClient; world?: WorldSummary } = {};
  beforeAll(async () => {
    state.emulator = await startEmulator({ seed, account: account === 'root' ? 'root' : undefined });
    state.api = new TestClient(state.emulator);
    state.world = state.emulator.world();
  });
  afterAll(() => state.emulator?.close());
  return {
    get emulator() {
      return state.emulator!;
    },
    get api() {
      return state.api!;
    },
    get world() {
      return state.world!;
    },
    tenant: (name) => state.world!.tenants[name]?.id,
    app: (type) => state.world!.applications[type]?.id,
  };
}
