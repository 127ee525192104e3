import { Contract } from './openapi';

const contract = new Contract();
const TENANT = '6c287abf-0f88-4e1b-b457-68edf053d3da';

function exchange(method: string, pathAndQuery: string, body?: unknown, status = 200, responseBody?: unknown) {
  const url = new URL(pathAndQuery, 'http://platform.invalid');
  return {
    method,
    path: url.pathname,
    query: url.searchParams,
    requestBody: Buffer.from(body === undefined ? '' : JSON.stringify(body)),
    contentType: body === undefined ? undefined : 'application/json',
    status,
    responseBody,
  };
}

describe('the contract of the vendor references', () => {
  it('knows the operations and prefers a literal segment over a parameter', () => {
    expect(contract.operationOf('GET', `/api/2/tenants/${TENANT}`)?.compiled.name).toBe('GET /api/2/tenants/{tenant_id}');
    expect(contract.operationOf('GET', '/api/2/users/check_login')?.compiled.name).toBe('GET /api/2/users/check_login');
    expect(contract.operationOf('GET', '/api/agent_manager/v2/agents')?.compiled.name).toBe('GET /api/agent_manager/v2/agents');
    expect(contract.check(exchange('GET', `/api/2/tenants/${TENANT}/infra`))).toEqual([
      { operation: `GET /api/2/tenants/${TENANT}/infra`, code: 'unknown_operation', path: '', message: 'the reference has no such path and method' },
    ]);
  });

  it('names the member of a request body the closed schema refuses', () => {
    const problems = contract.checkRequest(
      exchange('POST', '/api/2/tenants', { name: 'Northwind', parent_id: TENANT, kind: 'customer', customer_id: null, contact: { types: [] } }),
    );
    expect(problems.map((p) => [p.code, p.path])).toEqual(
      expect.arrayContaining([
        ['invalid_request_body', 'body.customer_id'],
        ['invalid_request_body', 'body.contact.types'],
      ]),
    );
    expect(problems.every((p) => p.operation === 'POST /api/2/tenants')).toBe(true);
    expect(contract.checkRequest(exchange('PUT', `/api/2/tenants/${TENANT}`, { version: 3, name: 'Northwind' }))).toEqual([]);
  });

  it('checks query parameters: known, valid, required and never exclusive ones together', () => {
    expect(contract.checkRequest(exchange('GET', `/api/2/tenants?parent_id=${TENANT}&subtree_root_id=${TENANT}`)).map((p) => p.code)).toEqual([
      'exclusive_parameters',
    ]);
    expect(contract.checkRequest(exchange('GET', `/api/2/tenants?parent_id=${TENANT}&colour=red`)).map((p) => p.path)).toEqual(['query.colour']);
    expect(contract.checkRequest(exchange('DELETE', `/api/2/tenants/${TENANT}`)).map((p) => [p.code, p.path])).toEqual([
      ['missing_parameter', 'query.version'],
    ]);
    expect(contract.checkRequest(exchange('DELETE', `/api/2/tenants/${TENANT}?version=two`)).map((p) => [p.code, p.path])).toEqual([
      ['invalid_parameter', 'query.version'],
    ]);
    expect(contract.checkRequest(exchange('GET', '/api/agent_manager/v2/agents?after=abc&tenant_id=x')).map((p) => p.code)).toEqual(['exclusive_parameters']);
    expect(contract.checkRequest(exchange('GET', '/api/agent_manager/v2/agents?after=abc&limit=10'))).toEqual([]);
  });

  it('checks that a status is documented and its body valid', () => {
    expect(contract.checkResponse(exchange('DELETE', `/api/2/tenants/${TENANT}?version=1`, undefined, 409, { error: {} })).map((p) => p.code)).toEqual([
      'undocumented_status',
    ]);
    const flatAgent = { items: [{ id: 'a', tenant_id: TENANT, os_family: 'LINUX' }], paging: { cursors: {} } };
    const problems = contract.checkResponse(exchange('GET', '/api/agent_manager/v2/agents', undefined, 200, flatAgent));
    expect(problems.map((p) => p.path)).toEqual(expect.arrayContaining(['response.items[0].tenant', 'response.items[0].platform']));
    expect(problems.every((p) => p.code === 'invalid_response_body' && p.path.startsWith('response.items[0]'))).toBe(true);
  });
});
