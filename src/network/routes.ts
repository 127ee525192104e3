/**
 * One dispatcher per origin, honouring the proxy variables and the trusted certificates
 * (see proxy-environment.ts and trusted-certificates.ts): a Pool straight to the server, or
 * undici's ProxyAgent through the proxy (CONNECT for https; for http through an http proxy, the
 * request with its absolute URL, as Go sends it).
 */
import type { Dispatcher } from 'undici';
import type { ConnectionOptions } from 'node:tls';
import { NetworkSetupError, type Route } from './failure';
import { proxyEnvironment, proxyFor, proxyVariablesSet, shownProxy, type ProxyEnvironment } from './proxy-environment';
import { trustedContext } from './trusted-certificates';
import { loadProxyAgent, Pool } from './undici-parts';

export interface RouteOptions {
  /** Connections per origin. */
  readonly connections?: number;
  readonly keepAliveTimeout?: number;
  readonly keepAliveTimeoutThreshold?: number;
  /** false: the server's certificate goes unchecked (the http backend's skip_cert_verification). */
  readonly verifyCertificates?: boolean;
  /** Told of each origin's route when it is first used (the debug log names the proxy). */
  readonly onRoute?: (origin: string, route: Route) => void;
}

export interface OpenRoute extends Route {
  readonly dispatcher: Dispatcher;
}

export class Routes {
  readonly #open = new Map<string, OpenRoute>();
  readonly #env: NodeJS.ProcessEnv;
  #proxies: ProxyEnvironment | undefined;

  constructor(
    private readonly options: RouteOptions = {},
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.#env = env;
  }

  /** The route to `origin`, opened on first use; throws a NetworkSetupError for a setting that cannot be used. */
  get(origin: string): OpenRoute {
    let route = this.#open.get(origin);
    if (!route) {
      route = this.#openRoute(origin);
      this.#open.set(origin, route);
      this.options.onRoute?.(origin, { host: route.host, ...(route.proxy ? { proxy: route.proxy } : {}) });
    }
    return route;
  }

  /** The route to `origin` as far as messages need it, without opening it. */
  describe(origin: string): Route {
    const open = this.#open.get(origin);
    if (open) return { host: open.host, ...(open.proxy ? { proxy: open.proxy } : {}) };
    return { host: new URL(origin).host };
  }

  get size(): number {
    return this.#open.size;
  }

  async close(): Promise<void> {
    const open = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(open.map(({ dispatcher: d }) => d.close().catch(() => d.destroy())));
  }

  #openRoute(origin: string): OpenRoute {
    const target = new URL(origin);
    // Plain http needs no authorities: the emulator and a state server on this machine do not read them.
    const trust = (secure: boolean): ConnectionOptions => (secure ? { secureContext: trustedContext(this.#env) } : {});
    // skip_cert_verification is about the server, not the proxy.
    const server: ConnectionOptions = {
      ...trust(target.protocol === 'https:'),
      ...(this.options.verifyCertificates === false ? { rejectUnauthorized: false } : {}),
    };
    const pooling = {
      connections: this.options.connections,
      keepAliveTimeout: this.options.keepAliveTimeout,
      keepAliveTimeoutThreshold: this.options.keepAliveTimeoutThreshold,
    };
    // Most runs set no proxy variable: the environment is not even parsed then.
    if (proxyVariablesSet(this.#env)) {
      this.#proxies ??= proxyEnvironment(this.#env);
      const proxy = proxyFor(target, this.#proxies);
      if (proxy && !('url' in proxy)) throw new NetworkSetupError({ kind: 'setting', variable: proxy.variable, what: proxy.problem });
      if (proxy) {
        const ProxyAgent = loadProxyAgent();
        const dispatcher = new ProxyAgent({
          uri: proxy.url.href,
          proxyTunnel: !(target.protocol === 'http:' && proxy.url.protocol === 'http:'),
          requestTls: server,
          // An https proxy may present a certificate of the same organisation's authority.
          proxyTls: trust(proxy.url.protocol === 'https:'),
          ...pooling,
        });
        return { host: target.host, proxy: shownProxy(proxy.url), dispatcher };
      }
    }
    return { host: target.host, dispatcher: new Pool(origin, { ...pooling, connect: server }) };
  }
}
