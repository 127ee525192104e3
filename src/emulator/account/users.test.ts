import { useEmulator } from '../testing';

describe('emulator: users and roles', () => {
  const fixture = useEmulator(33, 'root');
  const { tenant } = fixture;

  test('create answers 200 with version 1; a taken login 409; check_login 204 or 409; contact needs an email', async () => {
    const res = await fixture.api.post('/api/2/users', {
      tenant_id: tenant('Globex Retail'),
      login: 'globex-admin',
      contact: { email: 'admin@globex.example', firstname: 'Ada' },
      notifications: ['quota'],
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      login: 'globex-admin',
      version: 1,
      enabled: true,
      activated: false,
      tenant_id: tenant('Globex Retail'),
      notifications: ['quota'],
    });
    expect((await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'globex-admin' })).status).toBe(409);
    expect((await fixture.api.get('/api/2/users/check_login?username=globex-admin')).status).toBe(409);
    expect((await fixture.api.get('/api/2/users/check_login?username=free-login')).status).toBe(204);
    const noEmail = await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'x1', contact: { firstname: 'X' } });
    expect(noEmail.json.error.details.info).toBe('contact.email');
    expect((await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), password: 'x' })).json.error.details.info).toBe('password');
    expect((await fixture.api.post(`/api/2/users/${res.json.id}/send-activation-email`)).status).toBe(204);
    expect((await fixture.api.get(`/api/2/users/${res.json.id}`)).json.activated).toBe(true);
  });

  test('answers as the live platform: a personal tenant, the default notifications, a partial contact update', async () => {
    const made = await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'console-made', contact: { email: 'c@globex.example' } });
    expect(made.json.personal_tenant_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.json.personal_tenant_id).not.toBe(made.json.tenant_id);
    // What the console gives a new user, and the vendor's clients expect.
    expect(made.json.notifications).toEqual(['quota', 'reports', 'backup_daily_report']);
    const none = await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'no-mail', notifications: [] });
    expect(none.json.notifications).toEqual([]);
    // A first name alone, as the vendor's example sends it: the email stays.
    const renamed = await fixture.api.put(`/api/2/users/${made.json.id}`, { version: 1, contact: { firstname: 'Casey' } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.contact).toEqual({ email: 'c@globex.example', firstname: 'Casey' });
    const cleared = await fixture.api.put(`/api/2/users/${made.json.id}`, { version: 2, contact: { firstname: null } });
    expect(cleared.json.contact).toEqual({ email: 'c@globex.example', firstname: null });
    expect((await fixture.api.put(`/api/2/users/${made.json.id}`, { version: 3, contact: { email: 'not-an-email' } })).json.error.details.info).toBe(
      'contact.email',
    );
  });

  test('update needs the version (stale: 409 code 1001); delete of an enabled user is refused, then works disabled', async () => {
    const u = (await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'temp-user' })).json;
    const ok = await fixture.api.put(`/api/2/users/${u.id}`, { version: 1, language: 'fr' });
    expect(ok.json).toMatchObject({ version: 2, language: 'fr' });
    expect((await fixture.api.put(`/api/2/users/${u.id}`, { version: 1, language: 'de' })).json.error.code).toBe(1001);
    expect((await fixture.api.put(`/api/2/users/${u.id}`, { language: 'de' })).json.error.details.info).toBe('version');
    const enabled = await fixture.api.delete(`/api/2/users/${u.id}?version=2`);
    expect(enabled.status).toBe(409);
    expect(enabled.json.error.code).toBe('conflict');
    const off = await fixture.api.put(`/api/2/users/${u.id}`, { version: 2, enabled: false });
    expect((await fixture.api.delete(`/api/2/users/${u.id}?version=${off.json.version}`)).status).toBe(204);
    expect((await fixture.api.get(`/api/2/users/${u.id}`)).status).toBe(404);
  });

  test('a login changed or deleted with its user is free again, in any case; the new login is taken', async () => {
    const free = async (login: string) => (await fixture.api.get(`/api/2/users/check_login?username=${login}`)).status;
    const u = (await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'Renamed-Before' })).json;
    const renamed = await fixture.api.put(`/api/2/users/${u.id}`, { version: 1, login: 'renamed-after', enabled: false });
    expect(renamed.status).toBe(200);
    expect(await free('renamed-before')).toBe(204);
    expect(await free('RENAMED-AFTER')).toBe(409);
    expect((await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'Renamed-After' })).status).toBe(409);
    expect((await fixture.api.put(`/api/2/users/${u.id}`, { version: 2, login: 'RENAMED-AFTER' })).status).toBe(200);
    expect((await fixture.api.delete(`/api/2/users/${u.id}?version=3`)).status).toBe(204);
    expect(await free('renamed-after')).toBe(204);
    expect((await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'renamed-after' })).status).toBe(200);
    expect((await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'Renamed-Before' })).status).toBe(200);
  });

  test("a tenant's users listed: each created user appears under its own tenant only, and a deleted one is gone", async () => {
    const listed = async (name: string) => (await fixture.api.get(`/api/2/tenants/${tenant(name)}/users`)).json.items as string[];
    const before = await listed('Globex Retail');
    const a = (await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'listed-a', enabled: false })).json;
    const b = (await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'listed-b' })).json;
    expect(await listed('Globex Retail')).toEqual([...before, a.id, b.id]);
    expect(await listed('Northwind Partner')).not.toContain(a.id);
    expect((await fixture.api.delete(`/api/2/users/${a.id}?version=${a.version}`)).status).toBe(204);
    expect(await listed('Globex Retail')).toEqual([...before, b.id]);
    const c = (await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'listed-c' })).json;
    expect(await listed('Globex Retail')).toEqual([...before, b.id, c.id]);
  });

  test('roles: PUT replaces the whole set; a role on the wrong kind of tenant is 400; versions are checked', async () => {
    const u = (await fixture.api.post('/api/2/users', { tenant_id: tenant('Globex Retail'), login: 'role-user' })).json;
    const nil = '00000000-0000-0000-0000-000000000000';
    const set = await fixture.api.put(`/api/2/users/${u.id}/access_policies`, {
      items: [
        { id: nil, issuer_id: nil, trustee_id: u.id, trustee_type: 'user', tenant_id: tenant('Globex Retail'), role_id: 'company_admin', version: 0 },
        { id: nil, issuer_id: nil, trustee_id: u.id, trustee_type: 'user', tenant_id: tenant('Globex Retail'), role_id: 'backup_user', version: 0 },
      ],
    });
    expect(set.status).toBe(200);
    expect(set.json.items.map((p: { role_id: string }) => p.role_id)).toEqual(['company_admin', 'backup_user']);
    const read = await fixture.api.get(`/api/2/users/${u.id}/access_policies`);
    expect(read.json.items).toEqual(set.json.items);
    const admin = set.json.items[0];
    const replaced = await fixture.api.put(`/api/2/users/${u.id}/access_policies`, { items: [admin] });
    expect(replaced.json.items).toEqual([admin]);
    const wrongKind = await fixture.api.put(`/api/2/users/${u.id}/access_policies`, {
      items: [{ tenant_id: tenant('Globex Retail'), role_id: 'partner_admin' }],
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.json.error.details.info).toBe('items[0].role_id');
    expect(wrongKind.json.error.message).toContain('customer');
    const stale = await fixture.api.put(`/api/2/users/${u.id}/access_policies`, { items: [{ ...admin, version: admin.version + 5 }] });
    expect(stale.json.error.code).toBe(1001);
  });

  test('the users of a tenant', async () => {
    const res = await fixture.api.get(`/api/2/tenants/${tenant('Globex Retail')}/users`);
    expect(res.status).toBe(200);
    expect(res.json.items.length).toBeGreaterThanOrEqual(2);
  });
});
