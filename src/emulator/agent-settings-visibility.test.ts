/**
 * Agent update settings and who can see them (spec 2, as the seeds set it up): a DELETE of
 * settings the caller cannot see answers 204 and changes nothing; reads and writes of them are
 * refused as GET /agents refuses a tenant the caller cannot see.
 */
import { ALL_SCOPES } from './store';
import { createClient, TestClient } from './testing';
import { startEmulator, type RunningEmulator, type WorldSummary } from './index';

const BASE = '/api/agent_manager/v2';
let e: RunningEmulator;
let root: TestClient;
let acmeAdmin: TestClient;
let w: WorldSummary;

beforeAll(async () => {
  e = await startEmulator({ port: 0, seed: 31 });
  root = new TestClient(e);
  w = e.world();
  acmeAdmin = await createClient(e, [...ALL_SCOPES], w.tenants['Acme Manufacturing'].id);
});
afterAll(() => e.close());

it('a DELETE of settings the caller cannot see answers 204 and changes nothing', async () => {
  const globexAgent = w.agents['Globex Retail'][0];
  const northwind = w.tenants['Northwind Partner'].id;
  const settings = { update_channel: 'STABLE', automatic: true };
  expect(
    (
      await root.put(`${BASE}/agent_update_settings`, {
        items: [
          { agent_id: globexAgent, ...settings },
          { tenant_id: northwind, ...settings },
        ],
      })
    ).status,
  ).toBe(204);

  expect((await acmeAdmin.delete(`${BASE}/agent_update_settings/${globexAgent}`)).status).toBe(204);
  expect((await acmeAdmin.delete(`${BASE}/agent_update_settings?id=${northwind}&master=true`)).status).toBe(204);

  expect((await root.get(`${BASE}/agent_update_settings/${globexAgent}`)).json).toEqual({ agent_id: globexAgent, ...settings });
  expect((await root.get(`${BASE}/agent_update_settings/${northwind}?master=true`)).json).toEqual({ tenant_id: northwind, ...settings });
});

it('settings of a tenant or agent the caller cannot see are neither read nor written, as GET /agents', async () => {
  const globex = w.tenants['Globex Retail'].id;
  expect((await acmeAdmin.get(`${BASE}/agents?tenant_id=${globex}`)).status).toBe(400);
  expect((await acmeAdmin.get(`${BASE}/agent_update_settings/${globex}?master=true`)).status).toBe(404);
  expect((await acmeAdmin.get(`${BASE}/agent_update_settings/${w.agents['Globex Retail'][0]}`)).status).toBe(404);
  expect((await acmeAdmin.put(`${BASE}/agent_update_settings`, { items: [{ tenant_id: globex, update_channel: 'STABLE', automatic: true }] })).status).toBe(
    400,
  );
});
