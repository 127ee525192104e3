import { interfaceOf, isNotFound, parseErrorBody, PlatformError, ResponseShapeError } from './errors';
import { encodeQuery, fillPath, parseBaseUrl } from './http';
import { backoffDelay, parseRetryAfter, resolveRetryOptions } from './retry';

describe('parseErrorBody recognises every error body shape of the spec', () => {
  const j = (v: unknown): string => JSON.stringify(v);

  test('account management', () => {
    const p = parseErrorBody(
      404,
      j({ error: { domain: 'PlatformAccountServer', context: { id: 'x' }, code: 1104, details: { info: 'tenant' }, message: 'Tenant x cannot be resolved' } }),
      'account_management',
    );
    expect(p).toMatchObject({ shape: 'account_management', domain: 'PlatformAccountServer', code: '1104', context: { id: 'x' }, details: 'tenant' });
  });

  test('device authorization', () => {
    const p = parseErrorBody(403, j({ error: 'access_denied', error_description: 'no access' }), 'device_authorization');
    expect(p).toMatchObject({ shape: 'device_authorization', code: 'access_denied', message: 'no access' });
  });

  test('incidents', () => {
    const p = parseErrorBody(400, j({ domain: 'MDR', code: 'badRequest', message: 'customer_id missing' }), 'incidents');
    expect(p).toMatchObject({ shape: 'incidents', domain: 'MDR', code: 'badRequest', message: 'customer_id missing' });
  });

  test('task management', () => {
    const body = { domain: 'Access', code: 'taskNotFound', reason: 'taskNotFound', context: { id: 7 }, kbLink: { lineTag: 'x', build: 1 }, debug: {} };
    expect(parseErrorBody(404, j(body), 'task_management')).toMatchObject({ shape: 'task_management', code: 'taskNotFound', context: { id: 7 } });
  });

  test('alert manager', () => {
    const body = {
      domain: 'AlertManager',
      code: 'InvalidContext',
      reason: 'InvalidContext',
      context: { missing: ['a'], type: 't' },
      kbLink: {},
      debug: { msg: 'type t is not registered' },
    };
    expect(parseErrorBody(400, j(body), 'alert_manager')).toMatchObject({
      shape: 'alert_manager',
      domain: 'AlertManager',
      code: 'InvalidContext',
      message: 'type t is not registered',
    });
  });

  test('alert manager plain-text 401', () => {
    expect(parseErrorBody(401, '401 Unauthorized\n', 'alert_manager')).toMatchObject({ shape: 'unrecognised', code: 'http_401', message: '401 Unauthorized' });
  });

  test('agent manager', () => {
    const p = parseErrorBody(404, j({ code: 'AGENT_NOT_FOUND', domain: 'AGENT_MANAGER', debug: { msg: 'agent a not found' } }), 'agent_manager');
    expect(p).toMatchObject({ shape: 'agent_manager', code: 'AGENT_NOT_FOUND', message: 'agent a not found' });
  });

  test('price list', () => {
    const body = { domain: 'ACCESS', code: 'ACCESS_DENIED_ERROR', reason: 'x', context: { scope: 's' }, debug: {}, kb_link: {}, message: 'denied' };
    expect(parseErrorBody(403, j(body), 'price_list')).toMatchObject({
      shape: 'price_list',
      code: 'ACCESS_DENIED_ERROR',
      message: 'denied',
      context: { scope: 's' },
    });
  });

  test('disaster recovery', () => {
    const body = {
      error: { code: 'TooManyRequests', context: { retry_after: 3 }, debug: { msg: 'slow down', additional: 'later' }, domain: 'DisasterRecovery' },
    };
    expect(parseErrorBody(429, j(body), 'disaster_recovery')).toMatchObject({
      shape: 'disaster_recovery',
      code: 'TooManyRequests',
      message: 'slow down',
      context: { retry_after: 3 },
    });
  });

  test('event manager', () => {
    const p = parseErrorBody(409, j({ error: { domain: 'EventManager', code: 'conflict', message: 'exists' } }), 'event_manager');
    expect(p).toMatchObject({ shape: 'event_manager', domain: 'EventManager', code: 'conflict', message: 'exists' });
  });

  test('empty and non-JSON bodies', () => {
    expect(parseErrorBody(502, '', 'unknown')).toMatchObject({ shape: 'unrecognised', code: 'http_502' });
    expect(parseErrorBody(500, '<html>oops</html>', 'unknown').message).toBe('<html>oops</html>');
  });
});

describe('PlatformError', () => {
  test('retryable follows the status', () => {
    const mk = (status: number): PlatformError =>
      new PlatformError({ status, interface: 'account_management', code: 'x', message: 'm', method: 'GET', endpoint: '/api/2/x' });
    expect([429, 500, 502, 503, 504, 0].map((s) => mk(s).retryable)).toEqual([true, true, true, true, true, true]);
    expect([400, 401, 403, 404, 409, 415].map((s) => mk(s).retryable)).toEqual([false, false, false, false, false, false]);
    expect(isNotFound(mk(404))).toBe(true);
    expect(isNotFound(mk(409))).toBe(false);
    expect(isNotFound(new Error('404'))).toBe(false);
    // A 404 without the platform's error body (a wrong base URL, a proxy) says nothing about the object.
    expect(
      isNotFound(new PlatformError({ status: 404, interface: 'unknown', code: 'http_404', message: 'Not Found', method: 'GET', endpoint: '/api/2/x' })),
    ).toBe(false);
  });

  test('a shape error names the endpoint and the field path', () => {
    const e = new ResponseShapeError({ status: 200, method: 'GET', endpoint: '/api/2/infra', fieldPath: 'items[0].version', problem: 'expected number' });
    expect(e).toBeInstanceOf(PlatformError);
    expect(e.code).toBe('invalid_response');
    expect(e.message).toContain('GET /api/2/infra');
    expect(e.message).toContain('items[0].version');
  });

  test('interfaceOf', () => {
    expect(interfaceOf('/api/2/infra/{infra_id}')).toBe('account_management');
    expect(interfaceOf('/api/2/idp/token')).toBe('token');
    expect(interfaceOf('/api/2/idp/device_authorization')).toBe('device_authorization');
    expect(interfaceOf('/api/agent_manager/v2/agents')).toBe('agent_manager');
    expect(interfaceOf('/api/event_manager/v1/topics')).toBe('event_manager');
    expect(interfaceOf('/api/alert_manager/v1/alerts')).toBe('alert_manager');
    expect(interfaceOf('/api/dr/v2/servers')).toBe('disaster_recovery');
    expect(interfaceOf('/api/price_sync/v1/effective_price_lists')).toBe('price_list');
    expect(interfaceOf('/api/mdr/v1/incidents')).toBe('incidents');
    expect(interfaceOf('/api/task_manager/v2/tasks')).toBe('task_management');
  });
});

describe('helpers', () => {
  test('Retry-After in seconds and as an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Mon, 31 Dec 2029 00:00:05 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  test('full-jitter backoff stays under a doubling ceiling', () => {
    const o = resolveRetryOptions({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.999 });
    expect(backoffDelay(1, o)).toBe(99);
    expect(backoffDelay(3, o)).toBe(399);
    expect(backoffDelay(10, o)).toBe(999);
    expect(backoffDelay(3, { ...o, random: () => 0 })).toBe(0);
    expect(() => resolveRetryOptions({ maxAttempts: 0 })).toThrow(/maxAttempts/);
  });

  test('query, path and base URL encoding', () => {
    expect(encodeQuery({ a: 'x y', b: undefined, c: true, d: ['1', '2'], e: null })).toBe('?a=x%20y&c=true&d=1&d=2');
    expect(encodeQuery({})).toBe('');
    expect(fillPath('/a/{id}/b/{name}', { id: 'x/y', name: 'n m' })).toBe('/a/x%2Fy/b/n%20m');
    expect(() => fillPath('/a/{id}', {})).toThrow(/id/);
    expect(parseBaseUrl('http://127.0.0.1:8080/')).toEqual({ origin: 'http://127.0.0.1:8080', prefix: '' });
    expect(parseBaseUrl('https://dc.example.com/base/')).toEqual({ origin: 'https://dc.example.com', prefix: '/base' });
    expect(() => parseBaseUrl('ftp://x')).toThrow();
    expect(() => parseBaseUrl('http://u:p@x')).toThrow(/credentials/);
  });
});
