/**
 * Objects made by hand under "Northwind Partner" (as an administrator would in the console),
 * for the export tests against the emulator.
 */
import type { PlatformClient } from '../api';
import type { WorldSummary } from '../emulator';

export interface SeededNorthwind {
  readonly northwind: string;
  readonly acme: string;
  readonly globex: string;
  readonly backup: string;
  readonly platform: string;
  readonly infraId: string;
  readonly reportId: string;
}

export const DR_LOCATION = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';

export async function seedNorthwind(client: PlatformClient, world: WorldSummary): Promise<SeededNorthwind> {
  const northwind = world.tenants['Northwind Partner'].id;
  const acme = world.tenants['Acme Manufacturing'].id;
  const globex = world.tenants['Globex Retail'].id;
  const backup = world.applications.backup.id;
  const platform = world.applications.platform.id;

  await client.enableApplication(backup, acme);
  await client.putSetting(backup, northwind, 'backup_window', { value: { start: '22:00', end: '04:00' }, lock: true, exclusive: false });
  await client.putSetting(backup, acme, 'retention_days', { value: 90, lock: false, exclusive: true });
  const infra = await client.createInfra({
    owner_tenant_id: northwind,
    location_id: DR_LOCATION,
    name: 'Northwind DR site',
    url: 'https://dr.northwind.example',
    capabilities: ['backup', 'disaster_recovery'],
    backend_type: 'acronis',
  });
  // Acme gets its own master settings; Globex and Northwind keep inheriting the root's.
  await client.putAgentUpdateSettings([
    {
      tenant_id: acme,
      update_channel: 'CURRENT',
      automatic: false,
      maintenance_window: { time_from: '01:00:00', time_to: '05:00:00', days_of_week: ['SATURDAY', 'SUNDAY'] },
    },
  ]);
  const report = await client.createReport({
    result_action: 'save',
    recipients: [],
    parameters: { tenant_id: northwind, kind: 'usage_summary', level: 'all_customers', formats: ['csv', 'json_v2_0'] },
    schedule: { type: 'monthly' },
  });
  return { northwind, acme, globex, backup, platform, infraId: infra.id, reportId: report.id };
}
