/**
 * A forward proxy on loopback, as a CI runner's way out: CONNECT tunnels for https, requests
 * with an absolute URL for http. It records every request it forwards, and maps host names that
 * resolve nowhere (`platform.test`) to the servers of the test, so that traffic can reach them
 * only through it. Optionally it asks for credentials (407) or refuses to connect (403).
 */
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `CONNECT host:port` or `METHOD http://host:port/path`, in the order they came. */
  readonly forwarded: string[];
  /** The Proxy-Authorization header of each request, as received. */
  readonly authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

export interface ForwardProxyOptions {
  /** Host names (with their port) and the loopback `host:port` each stands for. */
  readonly hosts: Record<string, string>;
  /** `user:password` the proxy requires; any other request is answered 407. */
  readonly credentials?: string;
  /** Refuse every CONNECT with this status. */
  readonly refuseWith?: number;
}

export async function startForwardProxy(options: ForwardProxyOptions): Promise<ForwardProxy> {
  const forwarded: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  const expected = options.credentials ? `Basic ${Buffer.from(options.credentials).toString('base64')}` : undefined;
  const allowed = (req: IncomingMessage): boolean => {
    authorizations.push(req.headers['proxy-authorization']);
    return expected === undefined || req.headers['proxy-authorization'] === expected;
  };
  /** Where `host:port` really is; a name the proxy does not know does not resolve here either. */
  const upstream = (hostPort: string): { host: string; port: number } | undefined => {
    const mapped = options.hosts[hostPort];
    if (!mapped) return undefined;
    const at = mapped.lastIndexOf(':');
    return { host: mapped.slice(0, at), port: Number(mapped.slice(at + 1)) };
  };

  const server: Server = createServer((req, res) => {
    if (!allowed(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' }).end();
      return;
    }
    const target = new URL(req.url ?? '/');
    const to = upstream(target.host) ?? upstream(`${target.hostname}:80`);
    if (!to) {
      res.writeHead(502).end(`cannot resolve ${target.host}`);
      return;
    }
    forwarded.push(`${req.method} ${target.href}`);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const out = request({ host: to.host, port: to.port, method: req.method, path: `${target.pathname}${target.search}`, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (!allowed(req)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n\r\n');
      return;
    }
    if (options.refuseWith !== undefined) {
      client.end(`HTTP/1.1 ${options.refuseWith} Refused\r\n\r\n`);
      return;
    }
    const to = upstream(req.url ?? '');
    if (!to) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    forwarded.push(`CONNECT ${req.url}`);
    const server = connect(to.port, to.host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) server.write(head);
      server.pipe(client);
      client.pipe(server);
    });
    sockets.add(server);
    server.on('close', () => sockets.delete(server));
    server.on('error', () => client.destroy());
    client.on('close', () => server.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    forwarded,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
