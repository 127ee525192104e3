/**
 * A real HTTP state server for the tests, speaking Terraform's http backend protocol the way
 * GitLab's managed Terraform state does: `GET|POST <base>/<name>` for the state (POST with
 * `?ID=<lock id>` while locked), `POST <base>/<name>/lock` to lock (409 with the holder's
 * LockInfo when held), `DELETE <base>/<name>/lock` to unlock. It also answers Terraform's
 * default LOCK and UNLOCK methods on the same address. HTTP Basic auth is required.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface HttpStateServer {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** `METHOD path status` of every request. */
  readonly log: string[];
  state(name: string): string | undefined;
  lock(name: string): Record<string, unknown> | undefined;
  /** From now on, state writes are held unanswered (a server that stopped answering); `false` answers again. */
  holdStateWrites(hold: boolean): void;
  /** How many state writes are held unanswered. */
  readonly heldWrites: number;
  close(): Promise<void>;
}

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

export async function startHttpStateServer(
  username = 'gitlab-ci-token',
  password = `job-${Math.random().toString(36).slice(2)}`,
  /** Serve https with this key and certificate (PEM). */
  tls?: { key: string; cert: string },
): Promise<HttpStateServer> {
  const states = new Map<string, string>();
  const locks = new Map<string, Record<string, unknown>>();
  const log: string[] = [];
  let holding = false;
  const unanswered: IncomingMessage[] = [];
  const expectedAuth = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const listener: RequestListener = (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const text = await body(req);
      const answer = (status: number, payload?: string) => {
        log.push(`${req.method} ${url.pathname}${url.search} ${status}`);
        res.writeHead(status, payload ? { 'content-type': 'application/json' } : {});
        res.end(payload);
      };
      if (req.headers.authorization !== expectedAuth) return answer(401, '{"message":"401 Unauthorized"}');
      const m = /^\/api\/v4\/projects\/\d+\/terraform\/state\/([^/]+)(\/lock)?$/.exec(url.pathname);
      if (!m) return answer(404);
      const [, name, lockPath] = m;
      const held = locks.get(name);
      if (lockPath) {
        if (req.method === 'POST' || req.method === 'LOCK') {
          if (held) return answer(423, JSON.stringify(held));
          locks.set(name, JSON.parse(text) as Record<string, unknown>);
          return answer(200);
        }
        if (req.method === 'DELETE' || req.method === 'UNLOCK') {
          const id = text ? (JSON.parse(text) as { ID?: string }).ID : undefined;
          if (held && id && held.ID !== id) return answer(409, JSON.stringify(held));
          locks.delete(name);
          return answer(200);
        }
        return answer(405);
      }
      if (req.method === 'GET') {
        const state = states.get(name);
        return state === undefined ? answer(404) : answer(200, state);
      }
      if (req.method === 'POST') {
        if (holding) return void unanswered.push(req);
        if (held && url.searchParams.get('ID') !== held.ID) return answer(409, JSON.stringify(held));
        const md5 = req.headers['content-md5'];
        if (md5 && md5 !== createHash('md5').update(text).digest('base64')) return answer(400);
        states.set(name, text);
        return answer(200);
      }
      if (req.method === 'DELETE') {
        states.delete(name);
        return answer(200);
      }
      return answer(405);
    })();
  };
  const server: Server = tls ? createTlsServer(tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    username,
    password,
    log,
    state: (name) => states.get(name),
    lock: (name) => locks.get(name),
    holdStateWrites: (hold) => {
      holding = hold;
      if (!hold) for (const req of unanswered.splice(0)) req.socket.destroy();
    },
    get heldWrites() {
      return unanswered.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The backend settings GitLab documents for its managed state; `base` another address of the server (a name a proxy knows). */
export function gitlabBackend(server: HttpStateServer, name: string, base = server.url): Record<string, unknown> {
  const address = `${base}/api/v4/projects/42/terraform/state/${name}`;
  return { address, lock_address: `${address}/lock`, unlock_address: `${address}/lock`, lock_method: 'POST', unlock_method: 'DELETE', retry_wait_min: 5 };
}
