import { issueToken, TestClient, useEmulator } from '../testing';

describe('emulator: API clients', () => {
  const fixture = useEmulator(34);
  const { tenant } = fixture;

  test('only the 201 of the create carries the secret; the created client obtains tokens and sees its own tenant', async () => {
    const res = await fixture.api.post('/api/2/clients', { type: 'api_client', tenant_id: tenant('Acme Manufacturing'), data: { purpose: 'monitoring' } });
    expect(res.status).toBe(201);
    expect(typeof res.json.client_secret).toBe('string');
    expect(res.json).toMatchObject({
      tenant_id: tenant('Acme Manufacturing'),
      status: 'enabled',
      token_endpoint_auth_method: 'client_secret_basic',
      data: { purpose: 'monitoring' },
    });
    const read = await fixture.api.get(`/api/2/clients/${res.json.client_id}`);
    expect(read.status).toBe(200);
    expect(read.json).not.toHaveProperty('client_secret');
    expect(read.text).not.toContain(res.json.client_secret);
    // The reference has no listing of a tenant's clients.
    expect((await fixture.api.get(`/api/2/tenants/${tenant('Acme Manufacturing')}/clients`)).status).toBe(404);

    const own = new TestClient(fixture.emulator, res.json.client_id, res.json.client_secret);
    const self = await own.get(`/api/2/clients/${res.json.client_id}`);
    expect(self.json.tenant_id).toBe(tenant('Acme Manufacturing'));
    // The client sees its own subtree only.
    expect((await own.get(`/api/2/tenants/${tenant('Globex Retail')}`)).status).toBe(404);
  });

  test('update changes status, data and redirect uris; a disabled client gets 401 on the token endpoint; delete 204', async () => {
    const c = (await fixture.api.post('/api/2/clients', { tenant_id: tenant('Globex Retail') })).json;
    const off = await fixture.api.put(`/api/2/clients/${c.client_id}`, { status: 'disabled', redirect_uris: ['https://mon.example/cb'] });
    expect(off.json).toMatchObject({ status: 'disabled', redirect_uris: ['https://mon.example/cb'] });
    expect((await issueToken(fixture.emulator.url, c.client_id, c.client_secret)).status).toBe(401);
    expect((await fixture.api.put(`/api/2/clients/${c.client_id}`, { client_secret: 'x' })).json.error.details.info).toBe('client_secret');
    expect((await fixture.api.delete(`/api/2/clients/${c.client_id}`)).status).toBe(204);
    expect((await fixture.api.get(`/api/2/clients/${c.client_id}`)).status).toBe(404);
  });
});
