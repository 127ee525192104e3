/**
 * Tokens, retries and secrets, against the emulator over real HTTP with injected faults.
 */
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { startEmulator } from '../emulator';
import { PlatformClient, PlatformError, type ClientEvent, type RetryOptions } from './index';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

const TOKEN = '/api/2/idp/token';
const NO_FAULTS = { latency_ms: 0, rate_429: 0, retry_after_seconds: 1, rate_5xx: 0, drop_rate: 0, token_lifetime_seconds: 7200 };

let emu: Emulator;
const open: PlatformClient[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});

afterEach(async () => {
  await emu.setFaults(NO_FAULTS);
  await Promise.all(open.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await emu?.close();
});

function make(opts: { retry?: Partial<RetryOptions>; timeoutMs?: number; clientSecret?: string; tokenSkewMs?: number } = {}): {
  client: PlatformClient;
  events: ClientEvent[];
} {
  const events: ClientEvent[] = [];
  const client = new PlatformClient({
    baseUrl: emu.url,
    clientId: emu.clientId,
    clientSecret: opts.clientSecret ?? emu.clientSecret,
    retry: { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 10, maxElapsedMs: 10_000, ...opts.retry },
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.tokenSkewMs !== undefined ? { tokenSkewMs: opts.tokenSkewMs } : {}),
    onEvent: (e) => events.push(e),
  });
  open.push(client);
  return { client, events };
}

async function failure(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PlatformError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

const tokenRequests = (events: ClientEvent[]): number => events.filter((e) => e.endpoint === TOKEN).length;
const infraBody = (owner: string) => ({
  owner_tenant_id: owner,
  location_id: randomUUID(),
  name: 'never twice',
  url: 'https://never-twice.example.com',
  capabilities: ['backup'],
});

describe('tokens', () => {
  test('one token request serves many sequential calls', async () => {
    const { client, events } = make();
    for (let i = 0; i < 5; i++) await client.listApplications();
    expect(tokenRequests(events)).toBe(1);
    expect(client.tokensIssued).toBe(1);
  });

  test('concurrent first calls share one token request', async () => {
    const { client, events } = make();
    await Promise.all(Array.from({ length: 12 }, () => client.listApplications()));
    expect(tokenRequests(events)).toBe(1);
  });

  test('a token is renewed after it expires', async () => {
    // `expires_on` is in whole seconds, so a 2 s lifetime leaves between 1 and 2 s of use.
    await emu.setFaults({ token_lifetime_seconds: 2 });
    const { client, events } = make();
    await client.listApplications();
    await client.listApplications();
    expect(tokenRequests(events)).toBe(1);
    await new Promise((r) => setTimeout(r, 2_050));
    await client.listApplications();
    expect(tokenRequests(events)).toBe(2);
    // no call was refused: the token was renewed before it expired
    expect(events.some((e) => e.status === 401)).toBe(false);
  });

  test('a 401 on a call renews the token once and repeats the call', async () => {
    // A platform restart forgets the tokens it issued: the cached token is refused although it
    // has not expired. Restarting an emulator with the same seed on the same port does that.
    const first = await startEmulator({ port: 0, seed: 4242 });
    const port = new URL(first.url).port;
    const events: ClientEvent[] = [];
    const client = new PlatformClient({
      baseUrl: first.url,
      clientId: first.clientId,
      clientSecret: first.clientSecret,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
      onEvent: (e) => events.push(e),
    });
    open.push(client);
    let second: Emulator | undefined;
    let third: Emulator | undefined;
    try {
      await client.listApplications();
      await first.close();
      second = await startEmulator({ port: Number(port), seed: 4242 });
      expect((await client.listApplications()).length).toBeGreaterThan(0);
      expect(tokenRequests(events)).toBe(2);
      expect(events.filter((e) => e.status === 401).map((e) => e.endpoint)).toEqual(['/api/2/applications']);
      expect(events[events.length - 1]).toMatchObject({ endpoint: '/api/2/applications', status: 200 });

      // Renewal happens once: when the credentials are no longer valid, the call fails with the
      // token endpoint's 401 instead of looping.
      await second.close();
      second = undefined;
      third = await startEmulator({ port: Number(port), seed: 99 });
      events.length = 0;
      const e = await failure(client.listApplications());
      expect(e).toMatchObject({ status: 401, interface: 'token', code: 'access_denied', attempts: 1 });
      // (a connection the restart closed may first be dropped and retried)
      const answered = events.filter((x) => x.status !== undefined).map((x) => `${x.endpoint} ${x.status}`);
      expect(answered).toEqual(['/api/2/applications 401', `${TOKEN} 401`]);
    } finally {
      await second?.close();
      await third?.close();
    }
  });

  test('wrong credentials: 401 from the token endpoint, not retried, secret never shown', async () => {
    const secret = 'wrong-secret-value-1234567890';
    const { client, events } = make({ clientSecret: secret });
    const e = await failure(client.listApplications());
    expect(e).toMatchObject({ status: 401, interface: 'token', code: 'access_denied', retryable: false, attempts: 1 });
    expect(e.endpoint).toBe(TOKEN);
    expect(tokenRequests(events)).toBe(1);
    for (const text of [e.message, String(e), inspect(e, { depth: 10 }), JSON.stringify(e), JSON.stringify(events)]) {
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/Basic\s/);
    }
  });
});

describe('retries', () => {
  test('429: waits for Retry-After, then succeeds', async () => {
    await emu.setFaults({ rate_429: 1, retry_after_seconds: 1 });
    const events: ClientEvent[] = [];
    let cleared = false;
    const c2 = new PlatformClient({
      baseUrl: emu.url,
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 10, maxElapsedMs: 10_000 },
      onEvent: (e) => {
        events.push(e);
        if (e.retryInMs !== undefined && !cleared) {
          cleared = true;
          void emu.setFaults({ rate_429: 0 });
        }
      },
    });
    open.push(c2);
    const t0 = Date.now();
    const apps = await c2.listApplications();
    const elapsed = Date.now() - t0;
    expect(apps.length).toBeGreaterThan(0);
    const first = events.find((e) => e.status === 429);
    expect(first).toMatchObject({ attempt: 1, retryInMs: 1000 });
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(events.filter((e) => e.endpoint === '/api/2/applications').map((e) => e.status)).toEqual([429, 200]);
  });

  test('5xx: backs off and succeeds', async () => {
    await emu.setFaults({ rate_5xx: 1 });
    let cleared = false;
    const events: ClientEvent[] = [];
    const client = new PlatformClient({
      baseUrl: emu.url,
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      // random() just under 1: the waits are the full ceilings, 49 then 99 ms
      retry: { maxAttempts: 4, baseDelayMs: 50, maxDelayMs: 1_000, maxElapsedMs: 10_000, random: () => 0.999 },
      onEvent: (e) => {
        events.push(e);
        if (e.retryInMs !== undefined && e.attempt >= 2 && !cleared) {
          cleared = true;
          void emu.setFaults({ rate_5xx: 0 });
        }
      },
    });
    open.push(client);
    const got = await client.getTenants({ uuids: [emu.tenantId] });
    expect(got.map((t) => t.id)).toEqual([emu.tenantId]);
    const calls = events.filter((e) => e.endpoint === '/api/2/tenants');
    expect(calls.length).toBe(3);
    expect([500, 502, 503, 504]).toContain(calls[0]?.status);
    expect(calls[0]?.retryInMs).toBe(49);
    expect(calls[1]?.retryInMs).toBe(99);
    expect(calls[2]?.status).toBe(200);
  });

  test('dropped connections: retried, then succeeds', async () => {
    await emu.setFaults({ drop_rate: 1 });
    let cleared = false;
    const events: ClientEvent[] = [];
    const client = new PlatformClient({
      baseUrl: emu.url,
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      retry: { maxAttempts: 4, baseDelayMs: 50, maxDelayMs: 1_000, maxElapsedMs: 10_000, random: () => 0.999 },
      onEvent: (e) => {
        events.push(e);
        if (e.retryInMs !== undefined && !cleared) {
          cleared = true;
          void emu.setFaults({ drop_rate: 0 });
        }
      },
    });
    open.push(client);
    const apps = await client.listApplications();
    expect(apps.length).toBeGreaterThan(0);
    const calls = events.filter((e) => e.endpoint === '/api/2/applications');
    expect(calls[0]?.status).toBeUndefined();
    expect(calls[calls.length - 1]?.status).toBe(200);
  });

  test('an idempotent POST (subscription with a chosen id) is retried through drops', async () => {
    await emu.setFaults({ drop_rate: 1 });
    let cleared = false;
    const events: ClientEvent[] = [];
    const client = new PlatformClient({
      baseUrl: emu.url,
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      retry: { maxAttempts: 4, baseDelayMs: 50, maxDelayMs: 1_000, maxElapsedMs: 10_000, random: () => 0.999 },
      onEvent: (e) => {
        events.push(e);
        if (e.retryInMs !== undefined && !cleared) {
          cleared = true;
          void emu.setFaults({ drop_rate: 0 });
        }
      },
    });
    open.push(client);
    const id = randomUUID();
    const sub = await client.createSubscription({
      subscription_id: id,
      topic_id: 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0',
      types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'],
      tenant_depth: 'ALL',
    });
    expect(sub.subscription_id).toBe(id);
    expect(events.filter((e) => e.endpoint === '/api/event_manager/v1/subscriptions').length).toBeGreaterThanOrEqual(2);
  });

  test('attempts are bounded', async () => {
    await emu.setFaults({ rate_5xx: 1 });
    const { client, events } = make({ retry: { maxAttempts: 3 } });
    const e = await failure(client.listApplications());
    expect(e).toMatchObject({ retryable: true, attempts: 3, notRetried: 'max_attempts' });
    expect(e.message).toContain('gave up after 3 attempts');
    const calls = events.filter((x) => x.endpoint === '/api/2/applications');
    expect(calls.map((x) => x.attempt)).toEqual([1, 2, 3]);
    expect(calls[2]?.retryInMs).toBeUndefined();
  });

  test('elapsed time is bounded: a Retry-After beyond the budget is not waited for', async () => {
    await emu.setFaults({ rate_429: 1, retry_after_seconds: 5 });
    const { client } = make({ retry: { maxElapsedMs: 1_000 } });
    const t0 = Date.now();
    const e = await failure(client.listApplications());
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(e).toMatchObject({ status: 429, attempts: 1, notRetried: 'max_elapsed', retryAfterMs: 5000 });
  });

  test('a response slower than the timeout is a retryable timeout', async () => {
    const { client, events } = make({ timeoutMs: 150, retry: { maxAttempts: 2 } });
    await client.listApplications(); // obtain the token before the fault
    await emu.setFaults({ latency_ms: 500 });
    const e = await failure(client.listApplications());
    expect(e).toMatchObject({ status: 0, code: 'timeout', retryable: true, attempts: 2, endpoint: '/api/2/applications' });
    expect(e.message).toContain('150 ms');
    expect(events.filter((x) => x.endpoint === '/api/2/applications').map((x) => x.status)).toEqual([200, undefined, undefined]);
  });
});

describe('non-idempotent POSTs are repeated only when the platform did nothing', () => {
  const cases: Array<[string, (c: PlatformClient) => Promise<unknown>, string]> = [
    ['createInfra', (c) => c.createInfra(infraBody(emu.tenantId)), '/api/2/infra'],
    [
      'createReport',
      (c) =>
        c.createReport({
          result_action: 'save',
          recipients: [],
          parameters: { tenant_id: emu.tenantId, kind: 'usage_current', level: 'itself' },
          schedule: { type: 'once' },
        }),
      '/api/2/reports',
    ],
    ['createAlert', (c) => c.createAlert({ type: 'NoBackupForXDays', tenantID: emu.tenantId, severity: 'warning' }), '/api/alert_manager/v1/alerts'],
  ];

  for (const [name, call, endpoint] of cases) {
    test(`${name} after a dropped connection: one attempt, and the error says the request may have taken effect`, async () => {
      const { client, events } = make();
      await client.listApplications(); // obtain the token before the faults
      await emu.setFaults({ drop_rate: 1 });
      const e = await failure(call(client));
      expect(e.retryable).toBe(true);
      expect(e.notProcessed).toBe(false);
      expect(e.attempts).toBe(1);
      expect(e.notRetried).toBe('not_idempotent');
      expect(e.message).toContain('not idempotent');
      expect(e.message).toContain('may or may not have taken effect');
      expect(e.endpoint).toBe(endpoint);
      expect(events.filter((x) => x.endpoint === endpoint && x.method === 'POST').length).toBe(1);
    });

    for (const [fault, faults] of [
      ['429', { rate_429: 1, retry_after_seconds: 0 }],
      ["5xx answered in the platform's error body", { rate_5xx: 1 }],
    ] as const) {
      test(`${name} under ${fault}: repeated, since nothing was done`, async () => {
        const { client, events } = make();
        await client.listApplications();
        await emu.setFaults(faults);
        const e = await failure(call(client));
        expect(e.notProcessed).toBe(true);
        expect(e.attempts).toBe(4);
        expect(e.notRetried).toBe('max_attempts');
        expect(events.filter((x) => x.endpoint === endpoint && x.method === 'POST').length).toBe(4);
      });
    }
  }
});

describe('secrets', () => {
  test('the client secret and tokens never appear in inspect, toString, JSON, events or errors', async () => {
    const { client, events } = make();
    await client.listApplications();
    const err = await failure(client.getApplication(randomUUID()));
    const texts = [
      inspect(client),
      inspect(client, { showHidden: true, depth: 20 }),
      String(client),
      `${client}`,
      JSON.stringify(client),
      JSON.stringify(events),
      err.message,
      inspect(err, { depth: 20 }),
      JSON.stringify(err),
    ];
    for (const text of texts) {
      expect(text).not.toContain(emu.clientSecret);
      expect(text).not.toMatch(/Bearer|Basic /);
      // emulator tokens are 43-character base64url strings
      expect(text).not.toMatch(/[A-Za-z0-9_-]{43}/);
    }
    expect(inspect(client)).toContain('[redacted]');
  });
});
