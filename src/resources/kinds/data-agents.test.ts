import type { Agent } from '../../api';
import { readDataSource } from '../operations';
import { validateConfig } from '../validate';
import { useEmulatorClient } from '../testing';
import kind, { summary } from './data-agents';

const ADDRESS = 'data.tenantform_agents.test';
const TENANT = '6c287abf-0f88-4e1b-b457-68edf053d3da';

describe('tenantform_agents validation', () => {
  it('needs a tenant; the OS family is one of the reference’s', () => {
    expect(validateConfig(kind, { tenant_id: TENANT }, ADDRESS)).toEqual([]);
    expect(validateConfig(kind, { tenant_id: TENANT, os_family: 'SOLARIS', unit: 'servers', online: true }, ADDRESS)).toEqual([]);
    expect(validateConfig(kind, { tenant_id: TENANT, os_family: 'BEOS' }, ADDRESS)).toMatchObject([{ address: ADDRESS, path: ['os_family'] }]);
    expect(validateConfig(kind, {}, ADDRESS)).toMatchObject([{ address: ADDRESS, path: ['tenant_id'] }]);
  });

  it('summarises an agent from the nested shape', () => {
    const agent = {
      id: 'a1',
      name: 'WS-1',
      hostname: 'ws-1',
      tenant: { id: TENANT, name: 'Acme' },
      platform: { family: 'LINUX', arch: 'ARM64', name: 'Debian 12', version_major: 6, version_minor: 1 },
      online: false,
      enabled: true,
      auto_update: false,
      registration_date: '2024-01-01T00:00:00Z',
      registration_id: 'r1',
      timezone: 'UTC',
      meta: {},
      installer_version: { current: { major: 24, minor: 6, build_number: 1 } },
      core_version: { current: { build: '24.6.1', release_id: 'C24.06' } },
      units: [
        { name: 'servers', version: { current: { build: '24.6.1', release_id: 'C24.06' } } },
        { name: 'atp-agent', version: { current: { build: '24.6.1', release_id: 'C24.06' } } },
      ],
    } satisfies Agent;
    expect(summary(agent)).toEqual({ id: 'a1', hostname: 'ws-1', tenant_id: TENANT, os_family: 'LINUX', online: false, units: ['servers', 'atp-agent'] });
  });
});

describe('tenantform_agents against the emulator', () => {
  const platform = useEmulatorClient(1);

  const read = (config: Record<string, unknown>) => readDataSource({ kind, address: ADDRESS, ctx: { client: platform.client }, config });
  const tenant = (name: string) => platform.emulator.world().tenants[name];
  const agentsOf = (value: Record<string, unknown> | undefined) =>
    value?.agents as Array<{ id: string; hostname: string; tenant_id: string; os_family: string; online: boolean; units: string[] }>;

  it('lists a customer’s agents with tenant, OS family and units taken from the nested shape', async () => {
    const acme = tenant('Acme Manufacturing');
    const r = await read({ tenant_id: acme.id });
    expect(r.diagnostics).toEqual([]);
    const ids = platform.emulator.world().agents['Acme Manufacturing'];
    expect([...(r.value?.ids as string[])].sort()).toEqual([...ids].sort());
    expect(r.value?.hostnames).toEqual(['acme-manufacturing-host-01', 'acme-manufacturing-host-02', 'acme-manufacturing-host-03']);
    expect(agentsOf(r.value)).toEqual([
      { id: expect.any(String), hostname: 'acme-manufacturing-host-01', tenant_id: acme.id, os_family: 'WINDOWS', online: true, units: ['servers'] },
      { id: expect.any(String), hostname: 'acme-manufacturing-host-02', tenant_id: acme.id, os_family: 'LINUX', online: true, units: ['workstations'] },
      { id: expect.any(String), hostname: 'acme-manufacturing-host-03', tenant_id: acme.id, os_family: 'MACOSX', online: false, units: ['workstations'] },
    ]);
    expect(agentsOf(r.value).map((a) => a.id)).toEqual(r.value?.ids);
  });

  it('filters by unit, OS family, online state and host name across a subtree', async () => {
    const partner = tenant('Northwind Partner').id;
    const servers = await read({ tenant_id: partner, unit: 'servers', online: true });
    expect(servers.diagnostics).toEqual([]);
    expect(servers.value?.hostnames).toEqual(['acme-manufacturing-host-01', 'globex-retail-host-01']);
    expect(agentsOf(servers.value).every((a) => a.units.includes('servers') && a.online)).toBe(true);
    expect(new Set(agentsOf(servers.value).map((a) => a.tenant_id))).toEqual(new Set([tenant('Acme Manufacturing').id, tenant('Globex Retail').id]));

    const mac = await read({ tenant_id: partner, os_family: 'MACOSX' });
    expect(agentsOf(mac.value).map((a) => [a.hostname, a.os_family])).toEqual([
      ['acme-manufacturing-host-03', 'MACOSX'],
      ['globex-retail-host-03', 'MACOSX'],
    ]);

    const masked = await read({ tenant_id: partner, hostname: 'tlike(-02)', os_family: 'LINUX' });
    expect(masked.value?.hostnames).toEqual(['acme-manufacturing-host-02', 'globex-retail-host-02']);
    expect((await read({ tenant_id: partner, unit: 'no-such-unit' })).value?.ids).toEqual([]);
  });
});
