/**
 * Responses that do not match their schema.
 *
 * These tests use a tiny local HTTP server instead of the emulator: the emulator only ever sends
 * well-formed bodies, so it cannot produce the malformed answers that the client must reject.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformClient, PlatformError, ResponseShapeError } from './index';

let server: Server;
let baseUrl: string;

function reply(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  req.resume();
  switch (`${req.method} ${url.pathname}`) {
    case 'POST /api/2/idp/token':
      return reply(res, 200, JSON.stringify({ access_token: 'tok', id_token: 'id', expires_on: Math.floor(Date.now() / 1000) + 3600, token_type: 'bearer' }));
    case 'GET /api/2/infra':
      return reply(
        res,
        200,
        JSON.stringify({
          items: [{ id: 'i1', owner_tenant_id: 't', location_id: 'l', name: 'n', url: 'https://x', capabilities: [], backend_type: null, version: 'seven' }],
        }),
      );
    case 'GET /api/2/applications':
      return reply(res, 200, '<html>maintenance</html>', 'text/html');
    case 'GET /api/2/tenants/t1/applications':
      return reply(res, 200, JSON.stringify({ things: [] }));
    case 'GET /api/agent_manager/v2/agents':
      // Always the same cursor: a client that trusted it would loop forever.
      return reply(res, 200, JSON.stringify({ items: [], paging: { cursors: { after: 'again' } } }));
    default:
      return reply(res, 404, JSON.stringify({ error: { domain: 'x', code: 'not_found', message: 'no route', context: {}, details: { info: '' } } }));
  }
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function client(): PlatformClient {
  return new PlatformClient({ baseUrl, clientId: 'c', clientSecret: 's3cr3t-value', retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
}

test('a field of the wrong type is named by its path', async () => {
  const c = client();
  try {
    const err = await c.getInfra(['i1']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    const e = err as ResponseShapeError;
    expect(e.code).toBe('invalid_response');
    expect(e.fieldPath).toBe('items[0].version');
    expect(e.endpoint).toBe('/api/2/infra');
    expect(e.message).toMatch(/GET \/api\/2\/infra: HTTP 200.*items\[0\]\.version/);
    expect(e.retryable).toBe(false);
    expect(e.attempts).toBe(1);
  } finally {
    await c.close();
  }
});

test('a body that is not JSON, and a missing member', async () => {
  const c = client();
  try {
    const e1 = (await c.listApplications().catch((e: unknown) => e)) as PlatformError;
    expect(e1).toBeInstanceOf(ResponseShapeError);
    expect(e1.message).toContain('not JSON');
    const e2 = (await c.listTenantApplications('t1').catch((e: unknown) => e)) as ResponseShapeError;
    expect(e2).toBeInstanceOf(ResponseShapeError);
    expect(e2.fieldPath).toBe('items');
    expect(e2.endpoint).toBe('/api/2/tenants/{tenant_id}/applications');
  } finally {
    await c.close();
  }
});

test('a repeated page cursor stops paging instead of looping', async () => {
  const c = client();
  try {
    const err = (await c.listAgents({ limit: 5 }).catch((e: unknown) => e)) as PlatformError;
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.code).toBe('invalid_response');
    expect(err.message).toContain('same page cursor');
  } finally {
    await c.close();
  }
});
