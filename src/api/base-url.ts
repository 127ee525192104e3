/** The checks of a base URL, apart from the HTTP client so that the provider can make them without loading it. */

/** Hosts a plain `http://` base URL may name: this machine only (a local stand-in such as the emulator). */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * What is wrong with a base URL, or undefined. Plain `http://` is taken for this machine only:
 * to any other host the client secret and the tokens would travel in clear.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `${JSON.stringify(baseUrl)} is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `it must use https, not ${url.protocol.replace(/:$/, '')}`;
  if (url.username || url.password) return 'it must not carry credentials';
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    return `plain http to ${url.hostname} would send the client secret and tokens in clear: use https (http is taken for this machine only: localhost, 127.0.0.1, ::1)`;
  }
  return undefined;
}
