import { z } from 'zod';
import { closed, list, refusal, text } from './body';
import { useEmulator } from './testing';

describe('request bodies: parsed once at the router, a refused one answered naming its field', () => {
  const fixture = useEmulator(61, 'root');
  const { tenant } = fixture;

  test('the field is the path to the first problem; an unknown member comes first; the body itself is `body`', () => {
    const Set = closed({ items: list(closed({ name: text() }, 'an item')) }, 'a set');
    const fieldOf = (value: unknown) => refusal(Set.safeParse(value).error ?? new z.ZodError([]));
    expect(fieldOf({ items: [{ name: 'a' }, { name: 1 }] })).toEqual({ field: 'items[1].name', problem: 'must be a string' });
    expect(fieldOf({ items: [{}] })).toEqual({ field: 'items[0].name', problem: 'is required' });
    expect(fieldOf({ items: [{ name: 1, colour: 'red' }] })).toEqual({ field: 'items[0].colour', problem: 'is not a field of an item' });
    expect(fieldOf([])).toEqual({ field: 'body', problem: 'must be an object' });
  });

  test('account management: 400, code 400, details.info naming the field', async () => {
    const report = await fixture.api.post('/api/2/reports', {
      result_action: 'save',
      parameters: { tenant_id: tenant('Globex Retail'), kind: 'usage_current', level: 'itself', formats: ['csv', 'pdf'] },
      schedule: { type: 'once' },
    });
    expect(report.status).toBe(400);
    expect(report.json.error).toMatchObject({ domain: 'PlatformAccountServer', code: 400, details: { info: 'parameters.formats[1]' } });
    const client = await fixture.api.post('/api/2/clients', { tenant_id: tenant('Globex Retail'), redirect_uris: ['nowhere'] });
    expect([client.status, client.json.error.details.info]).toEqual([400, 'redirect_uris[0]']);
  });

  test('agent manager: 400 BAD_REQUEST, the message naming the field', async () => {
    const res = await fixture.api.put('/api/agent_manager/v2/agent_update_settings', {
      items: [
        {
          tenant_id: tenant('Globex Retail'),
          update_channel: 'STABLE',
          automatic: true,
          maintenance_window: { time_from: '25:00:00', time_to: '03:00:00', days_of_week: ['MONDAY'] },
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ domain: 'AGENT_MANAGER', code: 'BAD_REQUEST' });
    expect(res.json.debug.msg).toBe('items[0].maintenance_window.time_from must be a time HH:MM:SS');
  });

  test('alert manager: 400 badRequest, the message naming the field', async () => {
    const res = await fixture.api.post('/api/alert_manager/v1/types', { items: [{ id: 'NoLists', contextKeys: [], searchableDetails: [] }] });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ domain: 'AlertManager', code: 'badRequest', debug: { msg: 'items[0].supportedOS is required' } });
  });
});
