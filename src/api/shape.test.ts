/**
 * Responses that do not match their schema.
 *
 * These tests use a tiny local HTTP server instead of the emulator: the emulator only ever sends
 * well-formed bodies, so it cannot produce the malformed answers that the client must reject.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Ajv from 'ajv';
import { PlatformClient, PlatformError, ResponseShapeError } from './index';
import { Agent } from './schemas';

/**
 * An agent as the vendor's reference describes it (test/contract/vendor/agents-v2.openapi.json,
 * components.schemas.Agent), written by hand with every member, optional ones included.
 */
const VENDOR_AGENT = {
  id: '0f6e3b8a-2d41-4c7e-9a55-3b1f0c9d7e21',
  name: 'FINANCE-WS-07',
  hostname: 'finance-ws-07.corp.example',
  online: true,
  enabled: true,
  auto_update: false,
  comment: 'Accounting workstation',
  distribution_type: 'msi',
  registration_date: '2023-11-02T14:37:12Z',
  registration_id: '5d0c2a7e-9b64-4e3f-8d21-7a6f4c1b2e90',
  timezone: '+0100',
  meta: { inventory: { serial: 'CZC1234XYZ' } },
  tenant: { id: '6c287abf-0f88-4e1b-b457-68edf053d3da', name: 'Acme Manufacturing' },
  platform: {
    family: 'WINDOWS',
    arch: 'X64',
    name: 'Microsoft Windows 11 Pro',
    version_major: 10,
    version_minor: 0,
    service_pack: 0,
    sku: 48,
    product_type: 1,
    caps: 0,
    suite_mask: 256,
  },
  network: {
    gateway: '10.20.0.1',
    network_interfaces: [{ cidr_notations: ['10.20.0.57/24', 'fe80::1c2b:3a4d:5e6f:7081/64'], mac_address: '3C:52:82:11:AB:CD' }],
    dns_server_ip_addresses: ['10.20.0.2', '10.20.0.3'],
  },
  installer_version: { current: { major: 24, minor: 3, build_number: 37719 }, latest: { major: 24, minor: 6, build_number: 38396 } },
  core_version: { current: { build: '24.3.37719', release_id: 'C24.03', release_name: '24.3' }, latest: { build: '24.6.38396', release_id: 'C24.06' } },
  units: [
    { name: 'atp-agent', version: { current: { build: '24.3.37719', release_id: 'C24.03' }, latest: { build: '24.6.38396', release_id: 'C24.06' } } },
    { name: 'tray-monitor', version: { current: { build: '24.6.38396', release_id: 'C24.06', release_name: '24.6' } } },
  ],
  unattended_update: {
    automatic: true,
    inherited_from_tenant_id: '2b7c9e14-5f0a-4d83-b6c1-9e8d7f6a5b43',
    maintenance_window: { time_from: '01:00:00', time_to: '04:30:00', days_of_week: ['SATURDAY', 'SUNDAY'] },
    update_channel: 'STABLE',
    status: 'OK',
  },
};

/** The page of agents the local server answers after `after=page-2`. */
const SECOND_AGENT = { ...VENDOR_AGENT, id: 'a1b2c3d4-0000-4000-8000-000000000002', name: 'FINANCE-WS-08', hostname: 'finance-ws-08.corp.example' };
const agentQueries: string[] = [];

let server: Server;
let baseUrl: string;

function reply(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  req.resume();
  switch (`${req.method} ${url.pathname}`) {
    case 'POST /api/2/idp/token':
      return reply(res, 200, JSON.stringify({ access_token: 'tok', id_token: 'id', expires_on: Math.floor(Date.now() / 1000) + 3600, token_type: 'bearer' }));
    case 'GET /api/2/infra':
      return reply(
        res,
        200,
        JSON.stringify({
          items: [{ id: 'i1', owner_tenant_id: 't', location_id: 'l', name: 'n', url: 'https://x', capabilities: [], backend_type: null, version: 'seven' }],
        }),
      );
    case 'GET /api/2/applications':
      return reply(res, 200, '<html>maintenance</html>', 'text/html');
    case 'GET /api/2/tenants/t1/applications':
      return reply(res, 200, JSON.stringify({ things: [] }));
    case 'GET /api/agent_manager/v2/agents': {
      agentQueries.push(url.search);
      const tenant = url.searchParams.get('tenant_id');
      if (tenant === 'vendor') return reply(res, 200, JSON.stringify({ items: [VENDOR_AGENT], paging: { cursors: { after: 'page-2' } } }));
      if (url.searchParams.get('after') === 'page-2')
        return reply(res, 200, JSON.stringify({ items: [SECOND_AGENT], paging: { cursors: { before: 'page-1' } } }));
      if (tenant === 'flat') {
        // the flat agent of old: no longer the platform's shape
        const flat = { id: 'a', hostname: 'h', tenant_id: 't', os_family: 'LINUX', online: true, up_to_date: true, unit: 'servers' };
        return reply(res, 200, JSON.stringify({ items: [flat], paging: { cursors: {} } }));
      }
      // Always the same cursor: a client that trusted it would loop forever.
      return reply(res, 200, JSON.stringify({ items: [], paging: { cursors: { after: 'again' } } }));
    }
    default:
      return reply(res, 404, JSON.stringify({ error: { domain: 'x', code: 'not_found', message: 'no route', context: {}, details: { info: '' } } }));
  }
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function client(): PlatformClient {
  return new PlatformClient({ baseUrl, clientId: 'c', clientSecret: 's3cr3t-value', retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } });
}

test('a field of the wrong type is named by its path', async () => {
  const c = client();
  try {
    const err = await c.getInfra(['i1']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    const e = err as ResponseShapeError;
    expect(e.code).toBe('invalid_response');
    expect(e.fieldPath).toBe('items[0].version');
    expect(e.endpoint).toBe('/api/2/infra');
    expect(e.message).toMatch(/GET \/api\/2\/infra: HTTP 200.*items\[0\]\.version/);
    expect(e.retryable).toBe(false);
    expect(e.attempts).toBe(1);
  } finally {
    await c.close();
  }
});

test('a body that is not JSON, and a missing member', async () => {
  const c = client();
  try {
    const e1 = (await c.listApplications().catch((e: unknown) => e)) as PlatformError;
    expect(e1).toBeInstanceOf(ResponseShapeError);
    expect(e1.message).toContain('not JSON');
    const e2 = (await c.listTenantApplications('t1').catch((e: unknown) => e)) as ResponseShapeError;
    expect(e2).toBeInstanceOf(ResponseShapeError);
    expect(e2.fieldPath).toBe('items');
    expect(e2.endpoint).toBe('/api/2/tenants/{tenant_id}/applications');
  } finally {
    await c.close();
  }
});

test('a repeated page cursor stops paging instead of looping', async () => {
  const c = client();
  try {
    const err = (await c.listAgents({ limit: 5 }).catch((e: unknown) => e)) as PlatformError;
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.code).toBe('invalid_response');
    expect(err.message).toContain('same page cursor');
  } finally {
    await c.close();
  }
});

describe('agents in the vendor’s shape (agents v2 reference)', () => {
  const reference = JSON.parse(readFileSync(join(__dirname, '../../test/contract/vendor/agents-v2.openapi.json'), 'utf8')) as {
    components: { schemas: Record<string, unknown> };
  };

  test('the hand-written example is valid against the reference', () => {
    const ajv = new Ajv({ allErrors: true, strictSchema: false, unicodeRegExp: false });
    ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
    const schemas = JSON.parse(JSON.stringify(reference.components.schemas).replace(/"#\/components\/schemas\//g, '"#/definitions/')) as Record<
      string,
      unknown
    >;
    const validate = ajv.compile({ definitions: schemas, $ref: '#/definitions/AgentCollection' });
    expect(validate({ items: [VENDOR_AGENT, SECOND_AGENT], paging: { cursors: { after: 'page-2' } } }) ? [] : validate.errors).toEqual([]);
    // the reference refuses the flat agent of old
    expect(validate({ items: [{ id: 'a', hostname: 'h', tenant_id: 't', os_family: 'LINUX', online: true, up_to_date: true }], paging: { cursors: {} } })).toBe(
      false,
    );
  });

  test('the client parses the vendor’s example agent as it is', () => {
    const parsed = Agent.parse(VENDOR_AGENT);
    expect(parsed).toEqual(VENDOR_AGENT);
    expect(parsed.tenant.id).toBe('6c287abf-0f88-4e1b-b457-68edf053d3da');
    expect(parsed.platform.family).toBe('WINDOWS');
    expect(parsed.units.map((u) => u.name)).toEqual(['atp-agent', 'tray-monitor']);
    // required members only: the optional ones may be absent
    const { comment: _c, distribution_type: _d, network: _n, unattended_update: _u, ...required } = VENDOR_AGENT;
    expect(Agent.safeParse({ ...required, installer_version: { current: VENDOR_AGENT.installer_version.current }, units: [] }).success).toBe(true);
  });

  test('listing follows paging.cursors.after, sending only after and limit', async () => {
    const c = client();
    try {
      agentQueries.length = 0;
      const agents = await c.listAgents({ tenantId: 'vendor', hostname: 'like(finance)', limit: 1 });
      expect(agents).toEqual([VENDOR_AGENT, SECOND_AGENT]);
      expect(agents.map((a) => a.tenant.id)).toEqual([VENDOR_AGENT.tenant.id, VENDOR_AGENT.tenant.id]);
      expect(agentQueries).toHaveLength(2);
      expect(Object.fromEntries(new URLSearchParams(agentQueries[1]))).toEqual({ after: 'page-2', limit: '1' });
    } finally {
      await c.close();
    }
  });

  test('a flat agent is not the platform’s shape: the missing member is named', async () => {
    const c = client();
    try {
      const e = (await c.listAgents({ tenantId: 'flat' }).catch((err: unknown) => err)) as ResponseShapeError;
      expect(e).toBeInstanceOf(ResponseShapeError);
      expect(e.endpoint).toBe('/api/agent_manager/v2/agents');
      expect(e.fieldPath).toMatch(
        /^items\[0\]\.(name|tenant|platform|enabled|auto_update|registration_date|registration_id|timezone|meta|installer_version|core_version|units)$/,
      );
    } finally {
      await c.close();
    }
  });
});
