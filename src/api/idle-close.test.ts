/**
 * A server that closes a kept-alive connection while it is idle, at a moment the test knows (the
 * server's own `close` of the socket), with no keep-alive hint to warn the client. The next
 * request, sent right then, is not written onto the closed connection, or fails before any of it
 * is written and is sent again on a new one: none fails, and each reaches the server exactly once,
 * POSTs included (a POST that was written is never repeated blindly).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { PlatformClient } from './client';

const CLIENT_ID = '6f3b0a8e-1d2c-4e5f-8a9b-0c1d2e3f4a5b';
const TENANT_ID = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';

interface IdleClosingServer {
  url: string;
  /** Client creates the server has answered. */
  creates: number;
  /** Resolves when the connection that carried the last answer is closed by the server. */
  closeIdle(how: 'fin' | 'reset'): Promise<void>;
  close(): Promise<void>;
}

async function idleClosingServer(): Promise<IdleClosingServer> {
  let last: Socket | undefined;
  const state = { creates: 0 };
  // keepAliveTimeout 0: no `Keep-Alive: timeout=` hint and no idle timer of Node's own; the test closes idle sockets.
  const server: Server = createServer({ keepAliveTimeout: 0 }, (req, res) => {
    last = req.socket;
    const body = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', connection: 'keep-alive' });
      res.end(JSON.stringify(value));
    };
    req.resume();
    req.on('end', () => {
      if (req.url === '/api/2/idp/token') return body(200, { access_token: 'token', expires_on: Math.floor(Date.now() / 1000) + 3600, token_type: 'bearer' });
      state.creates++;
      body(201, {
        client_id: `00000000-0000-4000-8000-${String(state.creates).padStart(12, '0')}`,
        tenant_id: TENANT_ID,
        type: 'api_client',
        status: 'enabled',
        client_secret: 'issued-once',
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get creates() {
      return state.creates;
    },
    closeIdle: (how) =>
      new Promise<void>((resolve) => {
        const socket = last!;
        if (socket.destroyed) return resolve();
        socket.once('close', () => resolve());
        if (how === 'reset') socket.resetAndDestroy();
        else socket.end();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a kept-alive connection the server closes while it is idle', () => {
  let server: IdleClosingServer;
  let client: PlatformClient;
  beforeAll(async () => {
    server = await idleClosingServer();
    client = new PlatformClient({ baseUrl: server.url, clientId: CLIENT_ID, clientSecret: 'secret', retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it.each(['fin', 'reset'] as const)('fails no request sent at the moment of the close (%s), and sends each create once', async (how) => {
    const before = server.creates;
    for (let round = 0; round < 20; round++) {
      await client.createApiClient({ tenant_id: TENANT_ID });
      // The known moment: the server has closed the connection that carried the answer.
      await server.closeIdle(how);
    }
    await client.createApiClient({ tenant_id: TENANT_ID });
    // Every create went out once: a POST written onto a closed connection would have failed (it is never repeated blindly).
    expect(server.creates - before).toBe(21);
  });
});
