import { startEmulator, type RunningEmulator, type WorldSummary } from './index';
import { TestClient } from './testing';

const BASE = '/api/agent_manager/v2';

describe('emulator: agent management', () => {
  let e: RunningEmulator;
  let api: TestClient;
  let w: WorldSummary;
  const tenant = (name: string): string => w.tenants[name]?.id;
  const agentOf = (name: string, i = 0): string => w.agents[name]?.[i];

  beforeAll(async () => {
    e = await startEmulator({ account: 'root', seed: 31 });
    api = new TestClient(e);
    w = e.world();
  });
  afterAll(() => e.close());

  describe('agent listing', () => {
    const VENDOR_AGENT_MEMBERS = [
      'auto_update',
      'core_version',
      'enabled',
      'hostname',
      'id',
      'installer_version',
      'meta',
      'name',
      'online',
      'platform',
      'registration_date',
      'registration_id',
      'tenant',
      'timezone',
      'units',
    ];
    interface Listed {
      id: string;
      hostname: string;
      online: boolean;
      tenant: { id: string; name: string };
      platform: { family: string; arch: string };
      units: Array<{ name: string; version: { current: { build: string }; latest?: { build: string } } }>;
      core_version: { current: { build: string }; latest?: { build: string } };
      installer_version: { current: Record<string, number>; latest?: Record<string, number> };
      unattended_update?: { automatic: boolean; update_channel: string; status: string; inherited_from_tenant_id?: string };
      auto_update: boolean;
    }
    const upToDate = (a: Listed): boolean =>
      a.core_version.current.build === a.core_version.latest?.build && a.units.every((u) => u.version.current.build === u.version.latest?.build);

    test('three agents per customer; the barrier customer is left out of its ancestors’ listings', async () => {
      expect(Object.keys(w.agents).sort()).toEqual(
        ['Acme Manufacturing', 'Globex Retail', 'Initech Finance', 'Stark Logistics', 'Umbrella Health', 'Wayne Legal'].sort(),
      );
      const all = await api.get(`${BASE}/agents`);
      expect(all.status).toBe(200);
      expect(all.json.items).toHaveLength(15);
      expect(all.json.paging).toEqual({ cursors: {} });
      const tenants = new Set(all.json.items.map((a: Listed) => a.tenant.id));
      expect(tenants.has(tenant('Initech Finance'))).toBe(false);
      for (const a of all.json.items as Listed[]) {
        // the vendor's Agent: every required member, none of the flat members of old
        expect(Object.keys(a)).toEqual(expect.arrayContaining(VENDOR_AGENT_MEMBERS));
        for (const flat of ['tenant_id', 'os_family', 'up_to_date', 'unit']) expect(a).not.toHaveProperty(flat);
      }

      const partner = await api.get(`${BASE}/agents?tenant_id=${tenant('Northwind Partner')}`);
      expect(partner.json.items).toHaveLength(6);
      const behindBarrier = await api.get(`${BASE}/agents?tenant_id=${tenant('Initech Finance')}`);
      expect(behindBarrier.json.items).toHaveLength(3);
    });

    test('an agent in the vendor’s nested shape', async () => {
      const id = agentOf('Acme Manufacturing');
      const res = await api.get(`${BASE}/agents?tenant_id=${tenant('Acme Manufacturing')}&hostname=acme-manufacturing-host-01`);
      expect(res.json.items).toHaveLength(1);
      const a = res.json.items[0];
      expect(a).toEqual({
        id,
        name: 'acme-manufacturing-host-01',
        hostname: 'acme-manufacturing-host-01',
        tenant: { id: tenant('Acme Manufacturing'), name: 'Acme Manufacturing' },
        platform: { family: 'WINDOWS', arch: 'X64', name: 'Microsoft Windows Server 2022 Standard', version_major: 10, version_minor: 0 },
        online: true,
        enabled: true,
        auto_update: true,
        registration_date: expect.stringMatching(/^2024-0[12]-\d\dT\d\d:\d\d:00Z$/),
        registration_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        timezone: expect.stringMatching(/^(UTC|[+-](?:[01]\d|2[0-3])[0-5]\d)$/),
        meta: {},
        installer_version: { current: { major: 24, minor: 6, build_number: 38396 }, latest: { major: 24, minor: 6, build_number: 38396 } },
        core_version: {
          current: { build: '24.6.38396', release_id: 'C24.06', release_name: '24.6' },
          latest: { build: '24.6.38396', release_id: 'C24.06', release_name: '24.6' },
        },
        units: [
          {
            name: 'servers',
            version: {
              current: { build: '24.6.38396', release_id: 'C24.06', release_name: '24.6' },
              latest: { build: '24.6.38396', release_id: 'C24.06', release_name: '24.6' },
            },
          },
        ],
        // the seeded master settings of the root apply
        unattended_update: { automatic: true, update_channel: 'STABLE', status: 'OK', inherited_from_tenant_id: w.rootTenantId },
      });
      // the same on every read
      expect((await api.get(`${BASE}/agents?tenant_id=${tenant('Acme Manufacturing')}&hostname=acme-manufacturing-host-01`)).json.items[0]).toEqual(a);
    });

    test('limit and after page through the agents in hostname order with the filters kept', async () => {
      const seen: string[] = [];
      let res = await api.get(`${BASE}/agents?tenant_id=${tenant('Southridge Partner')}&limit=4`);
      for (;;) {
        expect(res.status).toBe(200);
        expect(res.json.items.length).toBeLessThanOrEqual(4);
        seen.push(...res.json.items.map((a: { hostname: string }) => a.hostname));
        const after = res.json.paging.cursors.after as string | undefined;
        if (after === undefined) break;
        res = await api.get(`${BASE}/agents?after=${encodeURIComponent(after)}`);
      }
      expect(seen).toHaveLength(9);
      expect([...seen].sort()).toEqual(seen);
      expect(new Set(seen).size).toBe(9);
      expect((await api.get(`${BASE}/agents?after=abc&online=true`)).status).toBe(400);
    });

    test('before pages back; after and before take no other parameter than limit', async () => {
      const first = await api.get(`${BASE}/agents?tenant_id=${tenant('Southridge Partner')}&limit=4`);
      expect(first.json.paging.cursors.before).toBeUndefined();
      const second = await api.get(`${BASE}/agents?after=${encodeURIComponent(first.json.paging.cursors.after)}&limit=4`);
      expect(second.status).toBe(200);
      const back = await api.get(`${BASE}/agents?before=${encodeURIComponent(second.json.paging.cursors.before)}`);
      expect(back.status).toBe(200);
      expect(back.json.items.map((a: Listed) => a.id)).toEqual(first.json.items.map((a: Listed) => a.id));
      expect(back.json.paging.cursors.before).toBeUndefined();
      expect(back.json.paging.cursors.after).toBeDefined();

      const after = encodeURIComponent(first.json.paging.cursors.after);
      for (const extra of ['online=true', `tenant_id=${tenant('Southridge Partner')}`, 'hostname=x', `before=${after}`]) {
        const res = await api.get(`${BASE}/agents?after=${after}&${extra}`);
        expect([extra, res.status]).toEqual([extra, 400]);
        expect(res.json).toMatchObject({ domain: 'AGENT_MANAGER', code: 'BAD_REQUEST' });
      }
      expect((await api.get(`${BASE}/agents?before=${encodeURIComponent(second.json.paging.cursors.before)}&up_to_date=true`)).status).toBe(400);
      // a cursor is for its own direction
      expect((await api.get(`${BASE}/agents?before=${after}`)).status).toBe(400);
    });

    test('filters: online, os_family, up_to_date, unit, hostname masks, order', async () => {
      const online = await api.get(`${BASE}/agents?online=false`);
      expect(online.json.items.every((a: Listed) => !a.online)).toBe(true);
      expect(online.json.items.length).toBeGreaterThan(0);
      const linux = await api.get(`${BASE}/agents?os_family=linux`);
      expect(linux.json.items.length).toBeGreaterThan(0);
      expect(linux.json.items.every((a: Listed) => a.platform.family === 'LINUX')).toBe(true);
      const stale = await api.get(`${BASE}/agents?up_to_date=false`);
      expect(stale.json.items.length).toBeGreaterThan(0);
      expect(stale.json.items.every((a: Listed) => !upToDate(a))).toBe(true);
      const current = await api.get(`${BASE}/agents?up_to_date=true`);
      expect(current.json.items.every((a: Listed) => upToDate(a))).toBe(true);
      expect(stale.json.items.length + current.json.items.length).toBe(15);
      const servers = await api.get(`${BASE}/agents?unit=servers`);
      expect(servers.json.items).toHaveLength(5);
      expect(servers.json.items.every((a: Listed) => a.units.some((u) => u.name === 'servers'))).toBe(true);
      const mask = await api.get(`${BASE}/agents?hostname=hlike(acme)`);
      expect(mask.json.items).toHaveLength(3);
      const desc = await api.get(`${BASE}/agents?order=desc(hostname)&limit=1`);
      expect(desc.json.items[0].hostname.startsWith('wayne')).toBe(true);
      const bad = await api.get(`${BASE}/agents?tenant_id=00000000-0000-4000-8000-000000000000`);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ domain: 'AGENT_MANAGER', code: 'BAD_REQUEST' });
      expect((await api.get(`${BASE}/agents?os_family=BEOS`)).status).toBe(400);
    });

    test('an agent’s own update settings show as its unattended update and auto_update', async () => {
      const id = agentOf('Stark Logistics', 1);
      const listed = async (): Promise<Listed> =>
        ((await api.get(`${BASE}/agents?tenant_id=${tenant('Stark Logistics')}`)).json.items as Listed[]).find((a) => a.id === id) as Listed;
      expect((await api.put(`${BASE}/agent_update_settings`, { items: [{ agent_id: id, update_channel: 'CURRENT', automatic: false }] })).status).toBe(204);
      expect(await listed()).toMatchObject({ auto_update: false, unattended_update: { automatic: false, update_channel: 'CURRENT', status: 'OK' } });
      expect((await listed()).unattended_update).not.toHaveProperty('inherited_from_tenant_id');
      expect((await api.delete(`${BASE}/agent_update_settings/${id}`)).status).toBe(204);
      expect(await listed()).toMatchObject({
        auto_update: true,
        unattended_update: { automatic: true, update_channel: 'STABLE', inherited_from_tenant_id: w.rootTenantId },
      });
    });
  });

  describe('unattended update settings', () => {
    const window = { time_from: '01:00:00', time_to: '04:30:00', days_of_week: ['SATURDAY', 'SUNDAY'] };

    test('the seeded master settings on the root reach an agent with no settings of its own', async () => {
      const res = await api.get(`${BASE}/agent_update_settings/${agentOf('Acme Manufacturing')}`);
      expect(res.status).toBe(200);
      // The reference marks where inherited settings live.
      expect(res.json).toEqual({
        agent_id: agentOf('Acme Manufacturing'),
        update_channel: 'STABLE',
        automatic: true,
        inherited_from_tenant_id: w.rootTenantId,
      });
    });

    test('a tenant without its own settings gets the nearest ancestor’s, carrying the requested tenant id', async () => {
      const res = await api.get(`${BASE}/agent_update_settings/${tenant('Globex Retail')}?master=true`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ tenant_id: tenant('Globex Retail'), update_channel: 'STABLE', automatic: true, inherited_from_tenant_id: w.rootTenantId });

      const put = await api.put(`${BASE}/agent_update_settings`, {
        items: [{ tenant_id: tenant('Northwind Partner'), update_channel: 'CURRENT', automatic: false, maintenance_window: window }],
      });
      expect(put.status).toBe(204);
      expect(put.text).toBe('');
      const inherited = await api.get(`${BASE}/agent_update_settings/${tenant('Globex Retail')}?master=true`);
      expect(inherited.json).toEqual({
        tenant_id: tenant('Globex Retail'),
        update_channel: 'CURRENT',
        automatic: false,
        maintenance_window: window,
        inherited_from_tenant_id: tenant('Northwind Partner'),
      });
      const agent = await api.get(`${BASE}/agent_update_settings/${agentOf('Globex Retail', 1)}`);
      expect(agent.json).toEqual({
        agent_id: agentOf('Globex Retail', 1),
        update_channel: 'CURRENT',
        automatic: false,
        maintenance_window: window,
        inherited_from_tenant_id: tenant('Northwind Partner'),
      });
    });

    test('a barrier tenant does not look above itself', async () => {
      const tenantRead = await api.get(`${BASE}/agent_update_settings/${tenant('Initech Finance')}?master=true`);
      expect(tenantRead.status).toBe(404);
      expect(tenantRead.json).toMatchObject({ domain: 'AGENT_MANAGER', code: 'UNATTENDED_AGENT_UPDATE_SETTINGS_NOT_FOUND' });
      const agentRead = await api.get(`${BASE}/agent_update_settings/${agentOf('Initech Finance')}`);
      expect(agentRead.status).toBe(404);
      expect(agentRead.json.code).toBe('UNATTENDED_AGENT_UPDATE_SETTINGS_NOT_FOUND');

      await api.put(`${BASE}/agent_update_settings`, { items: [{ tenant_id: tenant('Initech Finance'), update_channel: 'STABLE', automatic: false }] });
      const own = await api.get(`${BASE}/agent_update_settings/${agentOf('Initech Finance')}`);
      expect(own.json).toEqual({
        agent_id: agentOf('Initech Finance'),
        update_channel: 'STABLE',
        automatic: false,
        inherited_from_tenant_id: tenant('Initech Finance'),
      });
    });

    test('an agent’s own settings win; deleting them falls back to the master settings', async () => {
      const id = agentOf('Wayne Legal', 2);
      expect((await api.put(`${BASE}/agent_update_settings`, { items: [{ agent_id: id, update_channel: 'CURRENT', automatic: false }] })).status).toBe(204);
      expect((await api.get(`${BASE}/agent_update_settings/${id}`)).json).toEqual({ agent_id: id, update_channel: 'CURRENT', automatic: false });
      expect((await api.delete(`${BASE}/agent_update_settings?id=${id}`)).status).toBe(204);
      expect((await api.get(`${BASE}/agent_update_settings/${id}`)).json.update_channel).toBe('STABLE');
      // deleting what is absent is fine too
      expect((await api.delete(`${BASE}/agent_update_settings/${id}`)).status).toBe(204);
      expect((await api.delete(`${BASE}/agent_update_settings`)).status).toBe(400);
    });

    test('deleting master settings with master=true', async () => {
      await api.put(`${BASE}/agent_update_settings`, { items: [{ tenant_id: tenant('Stark Logistics'), update_channel: 'CURRENT', automatic: true }] });
      expect((await api.get(`${BASE}/agent_update_settings/${tenant('Stark Logistics')}?master=true`)).json.update_channel).toBe('CURRENT');
      expect((await api.delete(`${BASE}/agent_update_settings/${tenant('Stark Logistics')}?master=true`)).status).toBe(204);
      expect((await api.get(`${BASE}/agent_update_settings/${tenant('Stark Logistics')}?master=true`)).json.update_channel).toBe('STABLE');
    });

    test('404 codes for unknown agents and tenants', async () => {
      const agent = await api.get(`${BASE}/agent_update_settings/00000000-0000-4000-8000-000000000000`);
      expect(agent.status).toBe(404);
      expect(agent.json.code).toBe('AGENT_NOT_FOUND');
      const t = await api.get(`${BASE}/agent_update_settings/00000000-0000-4000-8000-000000000000?master=true`);
      expect(t.status).toBe(404);
      expect(t.json.code).toBe('TENANT_NOT_FOUND');
    });

    test('validation of settings items', async () => {
      const good = { tenant_id: tenant('Umbrella Health'), update_channel: 'STABLE', automatic: true };
      const bad: unknown[] = [
        { ...good, update_channel: 'BETA' },
        { ...good, automatic: 'yes' },
        { ...good, maintenance_window: { ...window, time_from: '1:00:00' } },
        { ...good, maintenance_window: { ...window, time_to: '24:00:00' } },
        { ...good, maintenance_window: { ...window, days_of_week: [] } },
        { ...good, maintenance_window: { ...window, days_of_week: ['MONDAY', 'MONDAY'] } },
        { ...good, maintenance_window: { ...window, days_of_week: ['Monday'] } },
        { ...good, maintenance_window: { ...window, days_of_week: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY', 'MONDAY'] } },
        { update_channel: 'STABLE', automatic: true },
        { agent_id: '00000000-0000-4000-8000-000000000000', update_channel: 'STABLE', automatic: true },
        { ...good, colour: 'red' },
      ];
      for (const item of bad) {
        const res = await api.put(`${BASE}/agent_update_settings`, { items: [item] });
        expect([item, res.status]).toEqual([item, 400]);
        expect(res.json.domain).toBe('AGENT_MANAGER');
      }
      // a bad item changes nothing, not even the good items of the same request
      const mixed = await api.put(`${BASE}/agent_update_settings`, { items: [{ ...good, update_channel: 'CURRENT' }, bad[0]] });
      expect(mixed.status).toBe(400);
      expect((await api.get(`${BASE}/agent_update_settings/${tenant('Umbrella Health')}?master=true`)).json.update_channel).toBe('STABLE');
      const all = { ...good, maintenance_window: { ...window, days_of_week: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] } };
      expect((await api.put(`${BASE}/agent_update_settings`, { items: [all] })).status).toBe(204);
    });
  });

  describe('forced update (spec 02: POST /agents/update:force)', () => {
    const upToDate = async (id: string): Promise<boolean> => {
      const dumped = await api.get('/_emulator/dump', { token: null });
      return (dumped.json.agents as Array<{ id: string; up_to_date: boolean }>).find((a) => a.id === id)?.up_to_date ?? false;
    };
    const outdated = async (): Promise<string[]> => {
      const dumped = await api.get('/_emulator/dump', { token: null });
      return (dumped.json.agents as Array<{ id: string; up_to_date: boolean }>).filter((a) => !a.up_to_date).map((a) => a.id);
    };

    it('accepts the named agents with 202 and no body; they are up to date', async () => {
      const [id] = await outdated();
      const res = await api.post(`${BASE}/agents/update:force`, { agent_ids: [id.toUpperCase()] });
      expect([res.status, res.text]).toEqual([202, '']);
      expect(await upToDate(id)).toBe(true);
    });

    it('refuses an id that is no agent with 400 naming it, and updates none of the others', async () => {
      const [id] = await outdated();
      const missing = '5b0f6f58-0000-4000-8000-000000000009';
      const res = await api.post(`${BASE}/agents/update:force`, { agent_ids: [id, missing] });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'BAD_REQUEST', domain: 'AGENT_MANAGER' });
      expect(res.json.debug.msg).toContain(missing);
      expect(await upToDate(id)).toBe(false);
    });

    it('refuses a body without agent_ids', async () => {
      const res = await api.post(`${BASE}/agents/update:force`, { agents: [] });
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('UNMARSHALLING_ERROR');
    });
  });
});
