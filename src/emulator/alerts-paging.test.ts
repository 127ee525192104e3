/**
 * GET /alerts over real HTTP: pages with `after`, the spec's filters, and a client that reads
 * every page.
 */
import { PlatformClient } from '../api';
import { startEmulator } from './index';

let emu: Awaited<ReturnType<typeof startEmulator>>;
let client: PlatformClient;
const TYPE = 'PagingProbe';

beforeAll(async () => {
  emu = await startEmulator({ port: 0, account: 'root', seed: 9 });
  client = new PlatformClient({ baseUrl: emu.url, clientId: emu.clientId, clientSecret: emu.clientSecret });
  await client.registerAlertTypes([
    { id: TYPE, severity: 'warning', enabled: true, category: 'custom', contextKeys: [], searchableDetails: [], supportedOS: [] },
  ]);
  const acme = emu.world().tenants['Acme Manufacturing'].id;
  const severities = ['information', 'warning', 'error', 'critical'];
  for (let i = 0; i < 25; i++) {
    await client.createAlert({
      type: TYPE,
      tenantID: i % 5 === 0 ? acme : emu.rootTenantId,
      severity: severities[i % 4],
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    });
  }
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

async function page(
  query: string,
): Promise<{ status: number; json: { items: Array<{ id: string; severity: string }>; paging: { cursors: { after?: string } } } }> {
  const token = (
    (await await fetch(`${emu.url}/api/2/idp/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${emu.clientId}:${emu.clientSecret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    }).then((r) => r.json())) as { access_token: string }
  ).access_token;
  const res = await fetch(`${emu.url}/api/alert_manager/v1/alerts?${query}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, json: (await res.json()) as never };
}

it('pages with after until the last page, which has no cursor', async () => {
  const first = await page(`type=${TYPE}&limit=10`);
  expect(first.json.items).toHaveLength(10);
  expect(first.json.paging.cursors.after).toEqual(expect.any(String));
  const second = await page(`after=${first.json.paging.cursors.after}`);
  const third = await page(`after=${second.json.paging.cursors.after}`);
  expect(third.json.items).toHaveLength(5);
  expect(third.json.paging.cursors).toEqual({});
  const ids = [...first.json.items, ...second.json.items, ...third.json.items].map((a) => a.id);
  expect(new Set(ids).size).toBe(25);
  expect((await page('after=not-a-cursor')).status).toBe(400);
});

it('the client reads every page', async () => {
  expect(await client.listAlerts({ type: TYPE, limit: 4 })).toHaveLength(25);
});

it('filters by severity, tenant, created_at and deletion', async () => {
  expect((await client.listAlerts({ type: TYPE, severity: 'critical', limit: 2 })).map((a) => a.severity)).toEqual(Array(6).fill('critical'));
  expect(await client.listAlerts({ type: TYPE, severity: 'ge(error)' })).toHaveLength(12);
  expect(await client.listAlerts({ type: TYPE, severity: 'or(information,critical)' })).toHaveLength(13);
  expect(await client.listAlerts({ type: TYPE, tenant: emu.world().tenants['Acme Manufacturing'].id })).toHaveLength(5);
  const tenMinutes = BigInt(Date.UTC(2026, 0, 1, 0, 10)) * 1_000_000n;
  expect(await client.listAlerts({ type: TYPE, createdAt: `ge(${tenMinutes})`, limit: 7 })).toHaveLength(15);
  expect(await client.listAlerts({ type: TYPE, createdAt: `lt(${tenMinutes})` })).toHaveLength(10);
  expect(await client.listAlerts({ type: TYPE, showDeleted: true })).toHaveLength(25);
  expect((await page(`type=${TYPE}&show_deleted_only=true`)).json.items).toHaveLength(0);
  expect((await page('severity=lt(fatal)')).status).toBe(400);
});
