/**
 * The client's tenant lifecycle methods against the emulator over real HTTP: the coded
 * conflicts arrive as typed errors, creates are never repeated, and the issued secret is in
 * the create's answer only.
 */
import { inspect } from 'node:util';
import { startEmulator } from '../emulator';
import { isConflict, PlatformClient, PlatformError, type ClientEvent } from './index';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

let emu: Emulator;
let client: PlatformClient;
const events: ClientEvent[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 41 });
  client = new PlatformClient({ baseUrl: emu.url, clientId: emu.clientId, clientSecret: emu.clientSecret, onEvent: (e) => events.push(e) });
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
});

const partner = () => emu.world().tenants['Northwind Partner'].id;

async function failure(p: Promise<unknown>): Promise<PlatformError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof PlatformError)) throw new Error(`expected a PlatformError, got ${String(err)}`);
  return err;
}

test('tenant: create, versioned update (stale: 409 code 1001), disable then delete', async () => {
  const t = await client.createTenant({ name: 'Client test', parent_id: partner(), kind: 'customer' });
  expect(t).toMatchObject({ version: 1, pricing_mode: 'trial' });
  const updated = await client.updateTenant(t.id, { version: 1, internal_tag: 'x' });
  expect(updated.version).toBe(2);
  const stale = await failure(client.updateTenant(t.id, { version: 1, internal_tag: 'y' }));
  expect(isConflict(stale)).toBe(true);
  expect(stale.code).toBe('1001');
  const enabled = await failure(client.deleteTenant(t.id, 2));
  expect(enabled.code).toBe('1006');
  const off = await client.updateTenant(t.id, { version: 2, enabled: false });
  await client.deleteTenant(t.id, off.version!);
  expect((await client.getTenant(t.id, { allowDeleted: true })).deleted_at).toEqual(expect.any(String));
});

test('unfiltered listing is refused by the platform: the client never lists without a filter', async () => {
  const refused = await failure(client.getTenants());
  expect(refused.status).toBe(400);
  expect(refused.code).toBe('ParameterMalformed');
  expect(await client.ownTenantId()).toBe(emu.tenantId);
});

test('pricing: trial to production once', async () => {
  const t = await client.createTenant({ name: 'Pricing test', parent_id: partner(), kind: 'customer' });
  const p = await client.getPricing(t.id);
  expect(await client.putPricing(t.id, { version: p.version, mode: 'production' })).toMatchObject({ mode: 'production', version: p.version + 1 });
  expect((await failure(client.putPricing(t.id, { version: p.version + 1, mode: 'trial' }))).status).toBe(409);
});

test('an item the parent lacks: 400 code 1021 naming the item', async () => {
  const t = await client.createTenant({ name: 'Items test', parent_id: partner(), kind: 'customer' });
  const monitoring = emu.world().applications.monitoring.id;
  const err = await failure(client.putOfferingItems(t.id, [{ application_id: monitoring, name: 'monitored_workloads', status: 1 }]));
  expect(err).toMatchObject({ status: 400, code: '1021' });
  expect(err.message).toContain('monitored_workloads');
});

test('API client: the secret is in the create answer only; the create is sent once', async () => {
  events.length = 0;
  const created = await client.createApiClient({ tenant_id: partner() });
  expect(created.client_secret.length).toBeGreaterThan(10);
  expect(events.filter((e) => e.method === 'POST' && e.endpoint === '/api/2/clients')).toHaveLength(1);
  const read = await client.getApiClient(created.client_id);
  expect(read).not.toHaveProperty('client_secret');
  expect(inspect(client)).not.toContain(emu.clientSecret);
  expect(JSON.stringify(events)).not.toContain(created.client_secret);
  expect(read).toMatchObject({ client_id: created.client_id, tenant_id: partner(), type: 'api_client', token_endpoint_auth_method: 'client_secret_basic' });
});
