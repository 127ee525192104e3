/**
 * What went wrong on the way to a server, in terms a user can act on: a certificate that is
 * not trusted (which host, and why), a proxy that could not be used (which proxy, never its
 * credentials), or a setting that cannot be used (which variable). `what` says what is wrong
 * with the certificate, the proxy or the setting (`describe` puts it into one sentence).
 */

export type NetworkFailure =
  | { readonly kind: 'certificate'; readonly host: string; readonly what: string; readonly proxy?: string }
  | { readonly kind: 'proxy'; readonly proxy: string; readonly what: string; readonly retryable: boolean }
  | { readonly kind: 'setting'; readonly variable: string; readonly what: string };

/** The failure in one sentence, for a platform call's error and the logs. */
export function describe(f: NetworkFailure): string {
  if (f.kind === 'certificate') return `the certificate of ${f.host} ${f.what}`;
  if (f.kind === 'proxy') return `the proxy ${f.proxy} ${f.what}`;
  return `${f.variable}: ${f.what}`;
}

/** A connection that could not be set up because of a setting: thrown before anything is sent. */
export class NetworkSetupError extends Error {
  constructor(readonly failure: NetworkFailure) {
    super(describe(failure));
    this.name = 'NetworkSetupError';
  }
}

/** How a connection is made: to which host, through which proxy (as shown, without credentials). */
export interface Route {
  readonly host: string;
  readonly proxy?: string;
}

/** Node's verification codes, by what they mean to the user. */
const CERTIFICATE_PROBLEMS: Record<string, string> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is signed by an authority this machine does not trust',
  UNABLE_TO_GET_ISSUER_CERT: 'is signed by an authority this machine does not trust',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is signed by an authority this machine does not trust',
  SELF_SIGNED_CERT_IN_CHAIN: 'is signed by a self-signed authority this machine does not trust',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed and not trusted',
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet (check the clock)',
  CERT_SIGNATURE_FAILURE: 'carries a signature that does not verify',
  CERT_REVOKED: 'has been revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'is for other host names',
};

/** Codes of a connection that never reached the proxy. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Codes of an answer that is not a proxy's: refused by the HTTP parser (HTTPParserError, HPE_...) or, after a false "connected", by TLS. */
const NOT_A_PROXY = /^(HPE_\w+|ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG|ERR_SSL_RECORD_LAYER_FAILURE)$/;

/** An error and the errors it was caused by (undici wraps some), nearest first. */
function causes(err: unknown): Array<{ code?: unknown; message?: unknown; name?: unknown }> {
  const chain: Array<{ code?: unknown; message?: unknown; name?: unknown }> = [];
  let e: unknown = err;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++) {
    chain.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return chain;
}

/** The failure `err` stands for on `route`, or undefined when it is not one of these. */
export function networkFailure(err: unknown, route: Route): NetworkFailure | undefined {
  for (const e of causes(err)) {
    if (e instanceof NetworkSetupError) return e.failure;
    const code = typeof e.code === 'string' ? e.code : '';
    const message = typeof e.message === 'string' ? e.message : '';
    const problem = CERTIFICATE_PROBLEMS[code];
    if (problem !== undefined) {
      const what = `${problem} (${code})`;
      return route.proxy ? { kind: 'certificate', host: route.host, what, proxy: route.proxy } : { kind: 'certificate', host: route.host, what };
    }
    if (!route.proxy) continue;
    // Through a proxy, tenantform connects to nothing else: a connection that fails is the proxy's.
    if (UNREACHABLE.has(code)) return { kind: 'proxy', proxy: route.proxy, what: `cannot be reached (${code})`, retryable: true };
    // A server that is not a proxy answers CONNECT with something else: text the HTTP parser refuses, or bytes the TLS layer does.
    if (NOT_A_PROXY.test(code) || e.name === 'HTTPParserError')
      return {
        kind: 'proxy',
        proxy: route.proxy,
        what: `did not answer as a proxy when asked to connect to ${route.host}${code ? ` (${code})` : ''}: check that the proxy variable names the proxy's address and port`,
        retryable: false,
      };
    const answered = /Proxy response \((\d+)\)|Proxy Authentication Required \((\d+)\)/.exec(message);
    if (answered) {
      const status = Number(answered[1] ?? answered[2]);
      const why =
        status === 407
          ? 'requires credentials and accepted none it was given (407): they go in the proxy URL, http://user:password@host:port'
          : `answered ${status} when asked to connect to ${route.host}`;
      return { kind: 'proxy', proxy: route.proxy, what: why, retryable: status >= 500 };
    }
  }
  return undefined;
}
