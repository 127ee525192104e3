import { proxyEnvironment, proxyFor, shownProxy } from './proxy-environment';

/** The proxy each URL's connection takes under `env`: its address, `direct`, or the unusable variable. */
function routes(env: NodeJS.ProcessEnv, urls: readonly string[]): Record<string, string> {
  const parsed = proxyEnvironment(env);
  return Object.fromEntries(
    urls.map((url) => {
      const chosen = proxyFor(new URL(url), parsed);
      return [url, !chosen ? 'direct' : 'url' in chosen ? chosen.url.href : `unusable ${chosen.variable}`];
    }),
  );
}

const P = 'http://p:1/';

describe('the proxy of a connection, as Terraform chooses it', () => {
  it('takes HTTPS_PROXY for https and HTTP_PROXY for http, never one for the other', () => {
    expect(
      routes({ HTTPS_PROXY: 'http://secure.proxy:3128', HTTP_PROXY: 'http://plain.proxy:8080' }, ['https://eu2.example.com', 'http://state.example.com']),
    ).toEqual({
      'https://eu2.example.com': 'http://secure.proxy:3128/',
      'http://state.example.com': 'http://plain.proxy:8080/',
    });
    expect(routes({ HTTP_PROXY: 'http://plain.proxy:8080' }, ['https://eu2.example.com'])).toEqual({ 'https://eu2.example.com': 'direct' });
    expect(routes({ HTTPS_PROXY: 'http://secure.proxy:3128' }, ['http://state.example.com'])).toEqual({ 'http://state.example.com': 'direct' });
  });

  it('reads upper case before lower case, and a proxy without a scheme as http', () => {
    const url = 'https://a.example';
    expect(routes({ HTTPS_PROXY: 'upper:1', https_proxy: 'http://lower:2' }, [url])[url]).toBe('http://upper:1/');
    expect(routes({ https_proxy: 'lower:2' }, [url])[url]).toBe('http://lower:2/');
    expect(routes({ HTTPS_PROXY: '', https_proxy: 'lower:2' }, [url])[url]).toBe('http://lower:2/');
  });

  it('never proxies localhost or a loopback address', () => {
    expect(
      routes({ HTTPS_PROXY: P, HTTP_PROXY: P }, [
        'https://localhost:8443',
        'http://127.0.0.1:9000',
        'http://127.8.9.10',
        'https://[::1]:443',
        'https://localhost.example.com',
      ]),
    ).toEqual({
      'https://localhost:8443': 'direct',
      'http://127.0.0.1:9000': 'direct',
      'http://127.8.9.10': 'direct',
      'https://[::1]:443': 'direct',
      'https://localhost.example.com': P,
    });
  });

  it('reaches NO_PROXY hosts directly: names with their subdomains, .names and *.names for subdomains only', () => {
    const env = { HTTPS_PROXY: P, NO_PROXY: ' corp.example , .internal.test,*.svc.test ' };
    expect(
      routes(env, [
        'https://corp.example',
        'https://api.corp.example',
        'https://notcorp.example',
        'https://internal.test',
        'https://a.internal.test',
        'https://svc.test',
        'https://b.svc.test',
        'https://B.SVC.test',
      ]),
    ).toEqual({
      'https://corp.example': 'direct',
      'https://api.corp.example': 'direct',
      'https://notcorp.example': P,
      'https://internal.test': P,
      'https://a.internal.test': 'direct',
      'https://svc.test': P,
      'https://b.svc.test': 'direct',
      'https://B.SVC.test': 'direct',
    });
  });

  it('matches NO_PROXY ports against the default port of the scheme', () => {
    const env = { HTTPS_PROXY: P, no_proxy: 'a.example:443,b.example:8443,10.0.0.1:443' };
    expect(routes(env, ['https://a.example', 'https://a.example:8443', 'https://b.example:8443', 'https://b.example', 'https://10.0.0.1'])).toEqual({
      'https://a.example': 'direct',
      'https://a.example:8443': P,
      'https://b.example:8443': 'direct',
      'https://b.example': P,
      'https://10.0.0.1': 'direct',
    });
  });

  it('matches IP addresses and CIDR blocks in NO_PROXY, IPv6 included', () => {
    const env = { HTTPS_PROXY: P, NO_PROXY: '10.0.0.0/8,192.168.1.7,fd00::/8,[2001:db8::1]:443' };
    expect(
      routes(env, [
        'https://10.20.30.40',
        'https://11.0.0.1',
        'https://192.168.1.7:9443',
        'https://192.168.1.8',
        'https://[fd12::5]',
        'https://[2001:db8::1]',
        'https://[2001:db8::2]',
      ]),
    ).toEqual({
      'https://10.20.30.40': 'direct',
      'https://11.0.0.1': P,
      'https://192.168.1.7:9443': 'direct',
      'https://192.168.1.8': P,
      'https://[fd12::5]': 'direct',
      'https://[2001:db8::1]': 'direct',
      'https://[2001:db8::2]': P,
    });
  });

  it('reaches every host directly under NO_PROXY=*', () => {
    expect(routes({ HTTPS_PROXY: P, NO_PROXY: 'x.example,*' }, ['https://a.example'])).toEqual({ 'https://a.example': 'direct' });
  });

  it('reports a proxy variable that is not a usable URL, naming the variable; socks5 is usable', () => {
    const url = 'https://a.example';
    expect(routes({ HTTPS_PROXY: 'http://[bad' }, [url])[url]).toBe('unusable HTTPS_PROXY');
    expect(routes({ https_proxy: 'ftp://p:21' }, [url])[url]).toBe('unusable https_proxy');
    expect(routes({ HTTPS_PROXY: 'socks5://p:1080' }, [url])[url]).toBe('socks5://p:1080');
  });

  it('shows a proxy without its credentials', () => {
    expect(shownProxy(new URL('http://user:s3cret@proxy.example:3128/'))).toBe('http://proxy.example:3128');
  });
});
