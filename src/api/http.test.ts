import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AnswerTooLargeError, HttpTimeoutError, MAX_ANSWER_BYTES, PoolRegistry, send } from './http';
import { MAX_CONCURRENCY } from './rate-governor';

/** A loopback server whose answers the test writes; it records the paths it was asked for. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ origin: string; paths: string[]; server: Server }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, server };
}

const get = (origin: string, path: string, timeoutMs = 2_000) => ({ origin, method: 'GET' as const, path, headers: {}, timeoutMs });

describe('send', () => {
  let pools: PoolRegistry;
  let server: Server | undefined;
  beforeEach(() => {
    pools = new PoolRegistry({ connections: 1 });
  });
  afterEach(async () => {
    await pools.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('refuses an answer larger than the platform sends while it arrives, and fails the request with it', async () => {
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    const s = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      let sent = 0;
      const more = (): void => {
        while (sent <= MAX_ANSWER_BYTES + piece.length) {
          sent += piece.length;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    server = s.server;
    await expect(send(pools, get(s.origin, '/huge', 30_000))).rejects.toBeInstanceOf(AnswerTooLargeError);
  });

  it('reads a body that arrives in pieces, as UTF-8 without its byte-order mark', async () => {
    const s = await serve((_req, res) => {
      const bytes = Buffer.from('\ufeff{"name":"Zürich"}', 'utf8');
      // Split inside the two bytes of "ü".
      const cut = bytes.indexOf(0xc3) + 1;
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r1' });
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 20);
    });
    server = s.server;
    const res = await send(pools, get(s.origin, '/one'));
    expect(res).toMatchObject({ status: 200, text: '{"name":"Zürich"}' });
    expect(res.headers['x-request-id']).toBe('r1');
  });

  it('gives up on a body that stops coming, with a body timeout', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200);
      res.write('{"partial":');
    });
    server = s.server;
    await expect(send(pools, get(s.origin, '/stalls', 150))).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
  });

  it('never sends a request that timed out while it waited for a connection', async () => {
    const s = await serve((_req, res) => setTimeout(() => res.end('{}'), 400));
    server = s.server;
    // One connection: the second request waits in the pool behind the first.
    const first = send(pools, get(s.origin, '/first'));
    const second = send(pools, get(s.origin, '/second', 100));
    await expect(second).rejects.toBeInstanceOf(HttpTimeoutError);
    await expect(second).rejects.toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    await expect(first).resolves.toMatchObject({ status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(s.paths).toEqual(['/first']);
  });

  it('keeps as many connections to a data center as the request budget lets go at once: none of its turns waits unseen in the pool', async () => {
    // The server answers only once every one of them is in flight: a pool of fewer connections never ends.
    const waiting: ServerResponse[] = [];
    const s = await serve((_req, res) => {
      waiting.push(res);
      if (waiting.length === MAX_CONCURRENCY) for (const r of waiting) r.end('{}');
    });
    server = s.server;
    const budgetSized = new PoolRegistry();
    try {
      const answers = await Promise.all(Array.from({ length: MAX_CONCURRENCY }, (_, i) => send(budgetSized, get(s.origin, `/r${i}`, 30_000))));
      expect(answers.every((a) => a.status === 200)).toBe(true);
    } finally {
      await budgetSized.close();
    }
  });
});
