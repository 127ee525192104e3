import { useEmulator } from './testing';

describe('emulator: account management', () => {
  const fixture = useEmulator(21, 'root');
  const { tenant, app } = fixture;

  describe('applications and bindings', () => {
    test('the catalogue has the eight application types with names, usages and base urls', async () => {
      const res = await fixture.api.get('/api/2/applications');
      expect(res.status).toBe(200);
      const types = (res.json.items as Array<{ type: string }>).map((a) => a.type).sort();
      expect(types).toEqual(['backup', 'files_cloud', 'hci', 'monitoring', 'notary', 'physical_data_shipping', 'platform', 'storage']);
      const one = await fixture.api.get(`/api/2/applications/${app('backup')}`);
      expect(one.json).toMatchObject({ id: app('backup'), type: 'backup', name: 'Cyber Protection' });
      expect(Array.isArray(one.json.usages)).toBe(true);
      expect(typeof one.json.api_base_url).toBe('string');
      const missing = await fixture.api.get('/api/2/applications/00000000-0000-4000-8000-000000000000');
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe('application_not_found');
      expect(missing.json.error.context.id).toBe('00000000-0000-4000-8000-000000000000');
    });

    test('seeded bindings: partners have backup and platform, customers platform', async () => {
      const partner = await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/applications`);
      expect(partner.json.items.sort()).toEqual([app('backup'), app('platform')].sort());
      const customer = await fixture.api.get(`/api/2/tenants/${tenant('Acme Manufacturing')}/applications`);
      expect(customer.json.items).toEqual([app('platform')]);
      const unknown = await fixture.api.get('/api/2/tenants/00000000-0000-4000-8000-000000000000/applications');
      expect(unknown.status).toBe(404);
      expect(unknown.json.error.code).toBe(1104);
    });

    test('enabling under a parent that lacks the application is refused with 409; the root has everything', async () => {
      const refused = await fixture.api.post(`/api/2/applications/${app('monitoring')}/bindings/tenants/${tenant('Acme Manufacturing')}`);
      expect(refused.status).toBe(409);
      expect(refused.json.error.code).toBe('conflict');
      // the partner's parent is the root, which counts as having every application
      expect((await fixture.api.post(`/api/2/applications/${app('monitoring')}/bindings/tenants/${tenant('Northwind Partner')}`)).status).toBe(204);
      expect((await fixture.api.post(`/api/2/applications/${app('monitoring')}/bindings/tenants/${tenant('Acme Manufacturing')}`)).status).toBe(204);
      // idempotent
      expect((await fixture.api.post(`/api/2/applications/${app('monitoring')}/bindings/tenants/${tenant('Acme Manufacturing')}`)).status).toBe(204);
      const on = await fixture.api.get(`/api/2/tenants/${tenant('Acme Manufacturing')}/applications`);
      expect(on.json.items).toContain(app('monitoring'));
    });

    test('disabling: a child still having it answers 409, a missing binding 404', async () => {
      const blocked = await fixture.api.delete(`/api/2/applications/${app('monitoring')}/bindings/tenants/${tenant('Northwind Partner')}`);
      expect(blocked.status).toBe(409);
      expect((await fixture.api.delete(`/api/2/applications/${app('monitoring')}/bindings/tenants/${tenant('Acme Manufacturing')}`)).status).toBe(204);
      expect((await fixture.api.delete(`/api/2/applications/${app('monitoring')}/bindings/tenants/${tenant('Northwind Partner')}`)).status).toBe(204);
      const again = await fixture.api.delete(`/api/2/applications/${app('monitoring')}/bindings/tenants/${tenant('Northwind Partner')}`);
      expect(again.status).toBe(404);
      expect(again.json.error.code).toBe('binding_not_found');
    });
  });

  describe('settings inheritance', () => {
    const path = (t: string, name: string) => `/api/2/applications/${app('backup')}/settings/tenants/${tenant(t)}/${name}`;

    test('a tenant without its own value inherits the root value', async () => {
      const res = await fixture.api.get(path('Acme Manufacturing', 'retention_days'));
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        name: 'retention_days',
        application_id: app('backup'),
        own: null,
        effective: { owner: { type: 'tenant', id: fixture.emulator.rootTenantId }, value: 30, lock: false },
      });
    });

    test('an own value wins for the tenant and its children; deleting it inherits again', async () => {
      const put = await fixture.api.put(path('Northwind Partner', 'retention_days'), { value: 60, lock: false, exclusive: false });
      expect(put.status).toBe(200);
      expect(put.json.own).toEqual({ value: 60, lock: false, exclusive: false });
      expect(put.json.effective).toEqual({ owner: { type: 'tenant', id: tenant('Northwind Partner') }, value: 60, lock: false });
      const child = await fixture.api.get(path('Acme Manufacturing', 'retention_days'));
      expect(child.json.effective.value).toBe(60);
      expect(child.json.effective.owner.id).toBe(tenant('Northwind Partner'));
      const other = await fixture.api.get(path('Umbrella Health', 'retention_days'));
      expect(other.json.effective.value).toBe(30);

      expect((await fixture.api.delete(path('Northwind Partner', 'retention_days'))).status).toBe(204);
      expect((await fixture.api.get(path('Acme Manufacturing', 'retention_days'))).json.effective.value).toBe(30);
      expect((await fixture.api.delete(path('Northwind Partner', 'retention_days'))).status).toBe(404);
    });

    test('an exclusive value applies to its tenant only: children inherit from further up', async () => {
      await fixture.api.put(path('Southridge Partner', 'retention_days'), { value: 90, lock: false, exclusive: true });
      const own = await fixture.api.get(path('Southridge Partner', 'retention_days'));
      expect(own.json.effective.value).toBe(90);
      const child = await fixture.api.get(path('Stark Logistics', 'retention_days'));
      expect(child.json.effective).toEqual({ owner: { type: 'tenant', id: fixture.emulator.rootTenantId }, value: 30, lock: false });
      await fixture.api.delete(path('Southridge Partner', 'retention_days'));
    });

    test('a value locked above cannot be overridden below (409) and is what descendants see', async () => {
      const refused = await fixture.api.put(path('Globex Retail', 'encryption_required'), { value: false, lock: false, exclusive: false });
      expect(refused.status).toBe(409);
      expect(refused.json.error.code).toBe('conflict');
      const seen = await fixture.api.get(path('Globex Retail', 'encryption_required'));
      expect(seen.json.effective).toEqual({ owner: { type: 'tenant', id: fixture.emulator.rootTenantId }, value: true, lock: true });
      // the owner of the lock can still change its own value
      expect((await fixture.api.put(path('Cloud Root', 'encryption_required'), { value: true, lock: true, exclusive: false })).status).toBe(200);

      // a partner locks a value: its customers cannot override it, other partners' customers can
      await fixture.api.put(path('Northwind Partner', 'compression'), { value: 'high', lock: true, exclusive: false });
      expect((await fixture.api.put(path('Acme Manufacturing', 'compression'), { value: 'low' })).status).toBe(409);
      expect((await fixture.api.put(path('Wayne Legal', 'compression'), { value: 'low' })).status).toBe(200);
    });

    test('a locked but exclusive value does not bind the children', async () => {
      await fixture.api.put(path('Southridge Partner', 'dedup'), { value: true, lock: true, exclusive: true });
      const put = await fixture.api.put(path('Umbrella Health', 'dedup'), { value: false, lock: false, exclusive: false });
      expect(put.status).toBe(200);
      expect(put.json.effective.value).toBe(false);
    });

    test("a setting nobody on the path set answers 404 setting_not_found; there is no listing of a tenant's settings", async () => {
      const missing = await fixture.api.get(path('Acme Manufacturing', 'never_set'));
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe('setting_not_found');
      for (const name of ['retention_days', 'encryption_required', 'backup_window', 'compression']) {
        expect((await fixture.api.get(path('Acme Manufacturing', name))).status).toBe(200);
      }
      // The reference reads a setting by name only.
      const list = await fixture.api.get(`/api/2/applications/${app('backup')}/settings/tenants/${tenant('Acme Manufacturing')}`);
      expect(list.status).toBe(404);
    });

    test('a bad setting body answers 400 naming the field', async () => {
      const res = await fixture.api.put(path('Acme Manufacturing', 'x'), { value: 1, lock: 'yes' });
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe(400);
      expect(res.json.error.details.info).toBe('lock');
      expect((await fixture.api.put(path('Acme Manufacturing', 'x'), { lock: true })).status).toBe(400);
    });
  });

  describe('infrastructure components', () => {
    const body = () => ({
      owner_tenant_id: tenant('Northwind Partner'),
      location_id: '11111111-2222-4333-8444-555555555555',
      name: 'Northwind storage',
      url: 'https://storage.northwind.example',
      capabilities: ['backup', 'files_cloud'],
      content_url: 'https://content.northwind.example',
      backend_type: 'azure',
    });

    test("a component registered without a location belongs to its owner's default location, and is listed there", async () => {
      const { location_id: _none, ...withoutLocation } = body();
      const created = await fixture.api.post('/api/2/infra', { ...withoutLocation, name: 'Without location' });
      expect(created.status).toBe(201);
      expect(created.json.location_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
      const locations = await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/locations`);
      expect(locations.json.items.map((l: { id: string }) => l.id)).toContain(created.json.location_id);
      expect((await fixture.api.get(`/api/2/locations/${created.json.location_id}/infra`)).json.infras).toContain(created.json.id);
      // No content address was given: the answer leaves them out (the reference has no null for a link).
      expect(created.json).not.toHaveProperty('content_mobile_url');
      await fixture.api.delete(`/api/2/infra/${created.json.id}?version=1`);
    });

    test('create, read, update with version and delete with version; stale versions answer 409', async () => {
      const created = await fixture.api.post('/api/2/infra', body());
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ ...body(), version: 1, platform_owned: false });
      const id = created.json.id as string;

      // Listed by location, as the reference lists components; the owner's locations include it.
      const listed = await fixture.api.get(`/api/2/locations/${body().location_id}/infra`);
      expect(listed.json).toEqual({ infras: [id] });
      const locations = await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/locations`);
      expect(locations.json.items.map((l: { id: string }) => l.id)).toContain(body().location_id);
      expect((await fixture.api.get(`/api/2/tenants/${tenant('Northwind Partner')}/infra`)).status).toBe(404);
      const read = await fixture.api.get(`/api/2/infra?uuids=${id}`);
      expect(read.json.items[0].id).toBe(id);

      const updated = await fixture.api.put(`/api/2/infra/${id}`, { name: 'Renamed', version: 1 });
      expect(updated.status).toBe(200);
      expect(updated.json).toMatchObject({ id, name: 'Renamed', version: 2, url: body().url, capabilities: ['backup', 'files_cloud'] });

      const stale = await fixture.api.put(`/api/2/infra/${id}`, { name: 'Again', version: 1 });
      expect(stale.status).toBe(409);
      expect(stale.json.error.code).toBe('conflict');
      expect((await fixture.api.put(`/api/2/infra/${id}`, { name: 'No version' })).status).toBe(400);

      expect((await fixture.api.delete(`/api/2/infra/${id}?version=1`)).status).toBe(409);
      expect((await fixture.api.delete(`/api/2/infra/${id}?version=2`)).status).toBe(204);
      const gone = await fixture.api.get(`/api/2/infra?uuids=${id}`);
      expect(gone.status).toBe(404);
      expect(gone.json.error.code).toBe('infra_not_found');
    });

    test('url pattern and capabilities are validated', async () => {
      for (const url of ['HTTPS://x', 'https:/x', '://x', 'https:// ', '1http://x']) {
        const res = await fixture.api.post('/api/2/infra', { ...body(), url });
        expect([url, res.status]).toEqual([url, 400]);
        expect(res.json.error.details.info).toBe('url');
      }
      expect((await fixture.api.post('/api/2/infra', { ...body(), url: 's3+http://bucket' })).status).toBe(201);
      const caps = await fixture.api.post('/api/2/infra', { ...body(), capabilities: ['backup', 'mining'] });
      expect(caps.status).toBe(400);
      expect(caps.json.error.details.info).toBe('capabilities[1]');
      expect((await fixture.api.post('/api/2/infra', { ...body(), content_mobile_url: 'nope' })).status).toBe(400);
      const missingOne = await fixture.api.get(`/api/2/infra?uuids=00000000-0000-4000-8000-000000000000`);
      expect(missingOne.status).toBe(404);
    });
  });

  describe('usage report configurations', () => {
    const monthly = () => ({
      result_action: 'save',
      recipients: ['aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee'],
      parameters: { tenant_id: tenant('Acme Manufacturing'), kind: 'usage_summary', level: 'itself', formats: ['csv', 'json_v2_0'], show_skus: true },
      schedule: { type: 'monthly', enabled: true },
    });

    test('create answers 200 with version 1; listing and reading work', async () => {
      const res = await fixture.api.post('/api/2/reports', monthly());
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ ...monthly(), version: 1 });
      expect(res.json.generation_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      const list = await fixture.api.get(`/api/2/tenants/${tenant('Acme Manufacturing')}/reports`);
      expect(list.json.items).toContain(res.json.id);
      expect((await fixture.api.get(`/api/2/reports/${res.json.id}`)).json.id).toBe(res.json.id);
      const missing = await fixture.api.get('/api/2/reports/00000000-0000-4000-8000-000000000000');
      expect(missing.status).toBe(404);
      expect(missing.json.error.code).toBe('report_not_found');
    });

    test("a report without recipients is made with none, as live answers the vendor's example", async () => {
      const res = await fixture.api.post('/api/2/reports', { ...monthly(), recipients: undefined });
      expect(res.status).toBe(200);
      expect(res.json.recipients).toEqual([]);
    });

    test('create rejects unknown fields, missing required fields and values outside the enumerations', async () => {
      const cases: Array<[unknown, string]> = [
        [{ ...monthly(), colour: 'red' }, 'colour'],
        [{ ...monthly(), parameters: { ...monthly().parameters, extra: 1 } }, 'parameters.extra'],
        [{ ...monthly(), id: 'x' }, 'id'],
        [{ ...monthly(), result_action: 'print' }, 'result_action'],
        [{ ...monthly(), parameters: { ...monthly().parameters, kind: undefined } }, 'parameters.kind'],
        [{ ...monthly(), parameters: { ...monthly().parameters, level: 'everyone' } }, 'parameters.level'],
        [{ ...monthly(), parameters: { ...monthly().parameters, formats: ['pdf'] } }, 'parameters.formats[0]'],
        [{ ...monthly(), parameters: { ...monthly().parameters, tenant_id: undefined } }, 'parameters.tenant_id'],
        [{ ...monthly(), schedule: { enabled: true } }, 'schedule.type'],
        [{ ...monthly(), schedule: { type: 'weekly' } }, 'schedule.type'],
      ];
      for (const [body, field] of cases) {
        const res = await fixture.api.post('/api/2/reports', body);
        expect([field, res.status, res.json.error.details.info]).toEqual([field, 400, field]);
      }
    });

    test('update: only recipients, kind, level and enabled of a monthly report change; the PUT carries no version', async () => {
      const created = (await fixture.api.post('/api/2/reports', monthly())).json;
      const ok = await fixture.api.put(`/api/2/reports/${created.id}`, {
        parameters: { kind: 'usage_daily', level: 'all_customers' },
        schedule: { enabled: false },
      });
      expect(ok.status).toBe(200);
      expect(ok.json).toMatchObject({ version: 2, parameters: { kind: 'usage_daily', level: 'all_customers' }, schedule: { enabled: false } });

      // GAPS: the PUT is not conditional; recipients change in place.
      const recipients = await fixture.api.put(`/api/2/reports/${created.id}`, { recipients: [] });
      expect(recipients.status).toBe(200);
      expect(recipients.json).toMatchObject({ id: created.id, recipients: [], version: 3 });

      const formats = await fixture.api.put(`/api/2/reports/${created.id}`, { parameters: { formats: ['html'] } });
      expect(formats.status).toBe(400);
      expect(formats.json.error.details.info).toBe('parameters.formats');
      const type = await fixture.api.put(`/api/2/reports/${created.id}`, { schedule: { type: 'once' } });
      expect(type.status).toBe(400);
      // sending unchanged values is fine
      expect((await fixture.api.put(`/api/2/reports/${created.id}`, { result_action: monthly().result_action })).status).toBe(200);

      const once = (await fixture.api.post('/api/2/reports', { ...monthly(), schedule: { type: 'once' } })).json;
      const onceUpdate = await fixture.api.put(`/api/2/reports/${once.id}`, { parameters: { kind: 'usage_daily' } });
      expect(onceUpdate.status).toBe(400);
    });

    test('delete needs the current version', async () => {
      const created = (await fixture.api.post('/api/2/reports', monthly())).json;
      expect((await fixture.api.delete(`/api/2/reports/${created.id}?version=7`)).status).toBe(409);
      expect((await fixture.api.delete(`/api/2/reports/${created.id}`)).status).toBe(400);
      expect((await fixture.api.delete(`/api/2/reports/${created.id}?version=1`)).status).toBe(204);
      expect((await fixture.api.get(`/api/2/reports/${created.id}`)).status).toBe(404);
    });
  });

  describe('tenants and search', () => {
    test('subtree listing is sorted by level and pages with opaque cursors that keep the filters', async () => {
      const first = await fixture.api.get(`/api/2/tenants?subtree_root_id=${tenant('Northwind Partner')}&limit=2&lod=basic`);
      expect(first.status).toBe(200);
      expect(typeof first.json.timestamp).toBe('string');
      expect(first.json.items.map((t: { name: string }) => t.name)).toEqual(['Northwind Partner', 'Acme Manufacturing']);
      expect(first.json.items[0]).not.toHaveProperty('barrier');
      expect(first.json.items[0]).toHaveProperty('kind', 'partner');
      const after = first.json.paging.cursors.after as string;
      expect(typeof after).toBe('string');
      const second = await fixture.api.get(`/api/2/tenants?after=${encodeURIComponent(after)}`);
      expect(second.json.items.map((t: { name: string }) => t.name)).toEqual(['Globex Retail', 'Initech Finance']);
      expect(second.json.items[0]).not.toHaveProperty('barrier'); // lod=basic kept by the cursor
      expect(second.json.paging.cursors.after).toBeUndefined();
    });

    test('listing without a filter answers 400 ParameterMalformed naming the four parameters', async () => {
      const res = await fixture.api.get('/api/2/tenants?lod=basic');
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ domain: 'PlatformAccountServer', code: 'ParameterMalformed' });
      for (const p of ['uuids', 'parent_id', 'subtree_root_id', 'after']) expect(res.json.error.message).toContain(p);
    });

    test('all tenants from the root sort by level; lod selects fields; parent_id and uuids filter', async () => {
      const all = await fixture.api.get(`/api/2/tenants?subtree_root_id=${fixture.emulator.rootTenantId}`);
      const names = all.json.items.map((t: { name: string }) => t.name);
      expect(names.slice(0, 3)).toEqual(['Cloud Root', 'Northwind Partner', 'Southridge Partner']);
      expect(names).toHaveLength(9);
      const initech = all.json.items.find((t: { name: string }) => t.name === 'Initech Finance');
      expect(initech.barrier).toBe(1); // the reference: an integer
      const stamps = await fixture.api.get(`/api/2/tenants?uuids=${tenant('Acme Manufacturing')},${tenant('Wayne Legal')}&lod=stamps`);
      expect(stamps.json.items).toHaveLength(2);
      expect(stamps.json.items[0]).not.toHaveProperty('name');
      expect(stamps.json.items[0]).toHaveProperty('version');
      // By level whatever the order asked in; an unknown id is left out.
      const unknown = '00000000-0000-4000-8000-0000000000aa';
      const mixed = await fixture.api.get(`/api/2/tenants?uuids=${tenant('Wayne Legal')},${unknown},${tenant('Southridge Partner')}&lod=basic`);
      expect(mixed.json.items.map((t: { name: string }) => t.name)).toEqual(['Southridge Partner', 'Wayne Legal']);
      const children = await fixture.api.get(`/api/2/tenants?parent_id=${tenant('Southridge Partner')}`);
      expect(children.json.items.map((t: { name: string }) => t.name)).toEqual(['Umbrella Health', 'Stark Logistics', 'Wayne Legal']);
      expect((await fixture.api.get(`/api/2/tenants?parent_id=${tenant('Southridge Partner')}&uuids=${tenant('Wayne Legal')}`)).status).toBe(400);
      const many = Array.from({ length: 101 }, () => tenant('Wayne Legal')).join(',');
      expect((await fixture.api.get(`/api/2/tenants?uuids=${many}`)).status).toBe(400);
      expect((await fixture.api.get(`/api/2/tenants?subtree_root_id=${fixture.emulator.rootTenantId}&lod=huge`)).json.error.details.info).toBe('lod');
      expect((await fixture.api.get(`/api/2/tenants?subtree_root_id=${fixture.emulator.rootTenantId}&limit=0`)).json.error.details.info).toBe('limit');
    });

    test('search finds tenants by name under a tenant', async () => {
      const res = await fixture.api.get(`/api/2/search?tenant=${tenant('Northwind Partner')}&text=GLOBEX`);
      expect(res.status).toBe(200);
      expect(res.json.items).toEqual([
        expect.objectContaining({ id: tenant('Globex Retail'), obj_type: 'tenant', name: 'Globex Retail', path: ['Cloud Root', 'Northwind Partner'] }),
      ]);
      const limited = await fixture.api.get(`/api/2/search?tenant=${fixture.emulator.rootTenantId}&text=partner&limit=1`);
      expect(limited.json.items).toHaveLength(1);
      expect((await fixture.api.get(`/api/2/search?tenant=${fixture.emulator.rootTenantId}`)).status).toBe(400);
    });
  });
});
