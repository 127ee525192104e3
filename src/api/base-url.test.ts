import { baseUrlProblem } from './base-url';
import { transportFailure } from './http';
import { transportErrorFields } from './retry';

describe('base URL', () => {
  it('takes https anywhere, and plain http for this machine only', () => {
    expect(baseUrlProblem('https://eu2-cloud.example.com')).toBeUndefined();
    for (const local of ['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:9', 'http://127.10.0.3']) expect(baseUrlProblem(local)).toBeUndefined();
    expect(baseUrlProblem('http://eu2-cloud.example.com')).toMatch(/plain http to eu2-cloud\.example\.com would send the client secret and tokens in clear/);
    expect(baseUrlProblem('http://10.0.0.5')).toMatch(/plain http to 10\.0\.0\.5/);
    expect(baseUrlProblem('ftp://x.example.com')).toMatch(/must use https, not ftp/);
    expect(baseUrlProblem('https://user:pw@x.example.com')).toBe('it must not carry credentials');
    expect(baseUrlProblem('not a url')).toMatch(/is not a URL/);
  });

  it('tells a host name that does not resolve from other transport failures, names the setting, and retries only a passing failure', () => {
    expect(transportErrorFields({ kind: 'unresolved', code: 'EAI_AGAIN' }, 1000)).toMatchObject({ code: 'host_not_found', retryable: true });
    const failure = transportFailure(Object.assign(new Error('getaddrinfo ENOTFOUND platform.example.invalid'), { code: 'ENOTFOUND' }));
    expect(failure).toEqual({ kind: 'unresolved', code: 'ENOTFOUND' });
    expect(transportErrorFields(failure!, 1000)).toMatchObject({
      code: 'host_not_found',
      // Failed at once: a name that does not exist will not exist in thirty seconds either.
      retryable: false,
      notProcessed: true,
      message: expect.stringContaining('TENANTFORM_BASE_URL'),
    });
  });
});
