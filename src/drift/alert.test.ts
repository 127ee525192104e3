import { PlatformClient, type ClientEvent } from '../api';
import { startEmulator, type RunningEmulator } from '../emulator';
import { TenantformError } from '../errors';
import { DRIFT_ALERT_TYPE, raiseDriftAlert } from './alert';

describe('raiseDriftAlert against the emulator', () => {
  let emulator: RunningEmulator;
  let client: PlatformClient;
  let events: ClientEvent[];
  let northwind: string;

  beforeEach(async () => {
    emulator = await startEmulator({ port: 0, seed: 11 });
    events = [];
    client = new PlatformClient({
      baseUrl: emulator.url,
      clientId: emulator.clientId,
      clientSecret: emulator.clientSecret,
      onEvent: (e) => events.push(e),
    });
    northwind = emulator.world().tenants['Northwind Partner'].id;
  });

  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  const requests = (method: string, endpoint: string) => events.filter((e) => e.method === method && e.endpoint.endsWith(endpoint));

  it('registers the alert type on first use only', async () => {
    await expect(client.getAlertType(DRIFT_ALERT_TYPE)).rejects.toMatchObject({ status: 404 });

    const first = await raiseDriftAlert(client, {
      tenantId: northwind,
      stack: 'msp',
      addresses: ['tenantform_infra_component.dr'],
      summary: '1 resource changed outside tenantform',
    });
    const second = await raiseDriftAlert(client, {
      tenantId: northwind,
      stack: 'msp',
      addresses: ['tenantform_infra_component.dr'],
      summary: '1 resource changed outside tenantform',
    });

    expect(first.typeRegistered).toBe(true);
    expect(second.typeRegistered).toBe(false);
    expect(requests('POST', '/types')).toHaveLength(1);
    expect(await client.getAlertType(DRIFT_ALERT_TYPE)).toMatchObject({
      id: DRIFT_ALERT_TYPE,
      severity: 'warning',
      enabled: true,
      contextKeys: [],
      supportedOS: [],
    });
    expect(first.alertId).not.toBe(second.alertId);
  });

  it('raises one alert per run, with the stack and the drifted addresses', async () => {
    const addresses = ['tenantform_tenant_setting.acme_retention', 'tenantform_infra_component.northwind_dr_site'];
    const raised = await raiseDriftAlert(client, {
      tenantId: northwind,
      stack: 'msp-onboarding',
      addresses,
      summary: '2 resources changed outside tenantform',
    });

    expect(requests('POST', '/alerts')).toHaveLength(1);
    const alerts = await client.listAlerts({ type: DRIFT_ALERT_TYPE });
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({
      id: raised.alertId,
      type: DRIFT_ALERT_TYPE,
      severity: 'warning',
      tenant: { id: northwind },
      details: { source: 'tenantform', stack: 'msp-onboarding', drifted: addresses, drifted_count: 2, summary: '2 resources changed outside tenantform' },
    });
  });

  it('lists at most 100 addresses and counts them all', async () => {
    const addresses = Array.from({ length: 150 }, (_, i) => `tenantform_application_binding.b${i}`);
    await raiseDriftAlert(client, { tenantId: northwind, stack: 'big', addresses, summary: '150 resources changed outside tenantform' });
    const [alert] = await client.listAlerts({ type: DRIFT_ALERT_TYPE });
    expect(alert.details).toMatchObject({ drifted_count: 150, drifted_truncated: true });
    expect(alert.details?.drifted).toHaveLength(100);
  });

  it('reports a refused alert once, without sending it again', async () => {
    const unknownTenant = '00000000-0000-4000-8000-000000000000';
    const failure = raiseDriftAlert(client, { tenantId: unknownTenant, stack: 'msp', addresses: ['x.y'], summary: 'drift' });
    await expect(failure).rejects.toBeInstanceOf(TenantformError);
    await expect(failure).rejects.toMatchObject({ code: 'drift_alert_failed' });
    expect(requests('POST', '/alerts')).toHaveLength(1);
    expect(await client.listAlerts({ type: DRIFT_ALERT_TYPE })).toHaveLength(0);
  });
});
