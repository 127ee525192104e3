/**
 * Which proxy a connection goes through, by the rules Terraform and its providers follow (Go's
 * `http.ProxyFromEnvironment`): `HTTPS_PROXY` for https URLs and `HTTP_PROXY` for http URLs,
 * each upper case before lower case; never one for the other. `NO_PROXY` is a comma list of
 * host names (a name covers its subdomains; `.name` and `*.name` its subdomains only), IP
 * addresses, CIDR blocks, any of them with `:port`, or `*` for every host. `localhost` and
 * loopback addresses are never proxied.
 *
 * undici's own `EnvHttpProxyAgent` differs on each of the last points (lower case first,
 * `HTTP_PROXY` for https, no CIDR, loopback proxied), so the choice is made here.
 */
import { BlockList, isIP } from 'node:net';

export interface ProxyChoice {
  /** The variable the proxy came from, for messages. */
  readonly variable: string;
  readonly url: URL;
}

/** A proxy variable whose value is not a URL: reported when a connection would use it. */
export interface UnusableProxy {
  readonly variable: string;
  readonly problem: string;
}

type Rule =
  | { readonly kind: 'all' }
  | { readonly kind: 'addresses'; readonly list: BlockList; readonly port: string }
  | { readonly kind: 'domain'; readonly suffix: string; readonly orItself: boolean; readonly port: string };

export interface ProxyEnvironment {
  readonly https?: ProxyChoice | UnusableProxy;
  readonly http?: ProxyChoice | UnusableProxy;
  readonly noProxy: readonly Rule[];
}

function first(env: NodeJS.ProcessEnv, names: readonly string[]): { variable: string; value: string } | undefined {
  for (const variable of names) {
    const value = env[variable]?.trim();
    if (value) return { variable, value };
  }
  return undefined;
}

/** A proxy address as Go reads it: without a scheme, `http://` is assumed. */
function proxyChoice(found: { variable: string; value: string } | undefined): ProxyChoice | UnusableProxy | undefined {
  if (!found) return undefined;
  const spelled = /^[a-z][a-z0-9+.-]*:\/\//i.test(found.value) ? found.value : `http://${found.value}`;
  let url: URL;
  try {
    url = new URL(spelled);
  } catch {
    return { variable: found.variable, problem: 'its value is not a URL (such as http://proxy.example.com:3128)' };
  }
  if (!['http:', 'https:', 'socks5:', 'socks:'].includes(url.protocol) || url.hostname === '') {
    return { variable: found.variable, problem: `it names a ${url.protocol.replace(/:$/, '')} proxy; http, https and socks5 proxies are supported` };
  }
  return { variable: found.variable, url };
}

function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function familyOf(ip: string): 'ipv4' | 'ipv6' {
  return isIP(ip) === 6 ? 'ipv6' : 'ipv4';
}

/** Splits `host:port` and `[v6]:port`; a bare IPv6 address has no port. */
function hostAndPort(entry: string): { host: string; port: string } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ?? '' };
  if (isIP(entry) === 6) return { host: entry, port: '' };
  const withPort = /^(.*):(\d+)$/.exec(entry);
  return withPort ? { host: withPort[1], port: withPort[2] } : { host: entry, port: '' };
}

function rule(entry: string): Rule | undefined {
  if (entry === '*') return { kind: 'all' };
  const cidr = /^([^/]+)\/(\d{1,3})$/.exec(entry);
  if (cidr && isIP(cidr[1]) !== 0) {
    const list = new BlockList();
    try {
      list.addSubnet(cidr[1], Number(cidr[2]), familyOf(cidr[1]));
    } catch {
      return undefined; // a prefix longer than the address: ignored, as Go ignores it
    }
    return { kind: 'addresses', list, port: '' };
  }
  const { host, port } = hostAndPort(entry);
  if (host === '') return undefined;
  if (isIP(host) !== 0) {
    const list = new BlockList();
    list.addAddress(host, familyOf(host));
    return { kind: 'addresses', list, port };
  }
  const name = host.startsWith('*.') ? host.slice(1) : host;
  const orItself = !name.startsWith('.');
  return { kind: 'domain', suffix: orItself ? `.${name}` : name, orItself, port };
}

export function proxyEnvironment(env: NodeJS.ProcessEnv): ProxyEnvironment {
  const noProxy = (first(env, ['NO_PROXY', 'no_proxy'])?.value ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '')
    .map(rule)
    .filter((r): r is Rule => r !== undefined);
  return {
    https: proxyChoice(first(env, ['HTTPS_PROXY', 'https_proxy'])),
    http: proxyChoice(first(env, ['HTTP_PROXY', 'http_proxy'])),
    noProxy,
  };
}

/** Whether any proxy variable is set (only then is the proxy code loaded). */
export function proxyVariablesSet(env: NodeJS.ProcessEnv): boolean {
  return first(env, ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) !== undefined;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function exempt(rules: readonly Rule[], host: string, port: string): boolean {
  const ipFamily = isIP(host);
  for (const r of rules) {
    if (r.kind === 'all') return true;
    if (r.kind === 'addresses') {
      if (ipFamily !== 0 && r.list.check(host, familyOf(host)) && (r.port === '' || r.port === port)) return true;
    } else if ((host.endsWith(r.suffix) || (r.orItself && host === r.suffix.slice(1))) && (r.port === '' || r.port === port)) {
      return true;
    }
  }
  return false;
}

/** The proxy for a connection to `origin` (an http or https URL), or undefined for a direct one. */
export function proxyFor(origin: URL, env: ProxyEnvironment): ProxyChoice | UnusableProxy | undefined {
  const choice = origin.protocol === 'https:' ? env.https : origin.protocol === 'http:' ? env.http : undefined;
  if (!choice) return undefined;
  const host = bare(origin.hostname.toLowerCase());
  if (host === 'localhost' || (isIP(host) !== 0 && LOOPBACK.check(host, familyOf(host)))) return undefined;
  const port = origin.port || (origin.protocol === 'https:' ? '443' : '80');
  return exempt(env.noProxy, host, port) ? undefined : choice;
}

/** A proxy as messages and logs show it: scheme, host and port, never its credentials. */
export function shownProxy(url: URL): string {
  return `${url.protocol}//${url.host}`;
}
