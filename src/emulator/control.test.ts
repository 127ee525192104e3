import { call, useEmulator } from './testing';

describe('emulator control: the dump of the world', () => {
  const fixture = useEmulator(12);
  const { tenant } = fixture;

  test('holds every object, the ones made through the interface too, and no client secret', async () => {
    const created = await fixture.api.post('/api/2/tenants', { name: 'Dumped', parent_id: tenant('Northwind Partner'), kind: 'customer' });
    expect(created.status).toBe(201);
    const client = await fixture.api.post('/api/2/clients', { type: 'api_client', tenant_id: created.json.id });
    const dump = await call(fixture.emulator.url, 'GET', '/_emulator/dump');
    expect(dump.status).toBe(200);
    expect(dump.json.tenants.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(['Cloud Root', 'Northwind Partner', 'Dumped']));
    expect(dump.json.clients.map((c: { client_id: string }) => c.client_id)).toEqual(
      expect.arrayContaining([fixture.emulator.clientId, client.json.client_id]),
    );
    expect(Object.keys(dump.json)).toEqual(expect.arrayContaining(['settings', 'infra', 'reports', 'agents']));
    expect(dump.text).not.toContain(fixture.emulator.clientSecret);
    expect(dump.text).not.toContain(client.json.client_secret);
  });
});
