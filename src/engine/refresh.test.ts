/**
 * Refresh in process: what a plan reads of the platform, and how few requests it takes.
 */
import type { Arrival } from '../emulator/channels';
import { customerEstate, requestsDuring as requestsWhile, useEngineHarness } from './testing';

const harness = useEngineHarness({ seed: 4 });

const KEYS = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6'];

const customers = customerEstate(harness, KEYS, 'Refresh');

/** The /api requests the emulator receives while `work` runs. */
const requestsDuring = async (work: () => Promise<unknown>): Promise<Arrival[]> =>
  (await requestsWhile(work)).filter((r) => r.path.startsWith('/api/') && !r.path.endsWith('/idp/token'));

beforeAll(async () => {
  expect((await harness.apply(customers)).applied).toMatchObject({ added: KEYS.length, diagnostics: [] });
});

test('reads every recorded customer in one request, and finds nothing to change', async () => {
  let changes: string[] = [];
  const requests = await requestsDuring(async () => {
    const { plan } = await harness.plan(customers);
    changes = plan.changes.filter((c) => c.action !== 'no-op').map((c) => c.address);
  });
  expect(changes).toEqual([]);
  // The data source's search, and one read of all six customers by id.
  expect(requests.filter((r) => r.method === 'GET' && r.path === '/api/2/tenants')).toHaveLength(2);
  expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
});

test('sees a change made outside, and plans to put it back', async () => {
  const api = new (await import('../emulator/testing')).TestClient(harness.emulator);
  const id = (await harness.state()).get('tenantform_tenant.customer["r3"]')!.attributes.id as string;
  const live = (await api.get(`/api/2/tenants/${id}`)).json as { version: number };
  expect((await api.put(`/api/2/tenants/${id}`, { version: live.version, name: 'Renamed in the console' })).status).toBe(200);
  const { plan } = await harness.plan(customers);
  const changed = plan.changes.filter((c) => c.action !== 'no-op');
  expect(changed).toEqual([expect.objectContaining({ address: 'tenantform_tenant.customer["r3"]', action: 'update', changed: ['name'] })]);
  expect(plan.drift.map((d) => d.address)).toEqual(['tenantform_tenant.customer["r3"]']);
});

test('with refresh off, reads no recorded object: the state is taken as it is', async () => {
  const requests = await requestsDuring(() => harness.plan(customers, { refresh: false }));
  const byId = requests.filter((r) => r.method === 'GET' && r.path === '/api/2/tenants');
  // Only the data source is read, as terraform plan -refresh=false reads data sources.
  expect(byId).toHaveLength(1);
});
