import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from './index';
import { TestClient } from './testing';

describe('emulator: seeded world and persistence', () => {
  test('the same seed gives the same world and credentials; another seed another', async () => {
    const a = await startEmulator({ account: 'root', seed: 5 });
    const b = await startEmulator({ account: 'root', seed: 5 });
    const c = await startEmulator({ account: 'root', seed: 6 });
    try {
      expect(a.world()).toEqual(b.world());
      expect([a.clientId, a.clientSecret]).toEqual([b.clientId, b.clientSecret]);
      expect(c.world().rootTenantId).not.toBe(a.world().rootTenantId);
      expect(c.clientSecret).not.toBe(a.clientSecret);
      expect(Object.keys(a.world().tenants)).toHaveLength(9);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  test('with a data file the world survives a restart and is written atomically', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tenantform-emulator-'));
    const dataFile = path.join(dir, 'world.json');
    try {
      const first = await startEmulator({ account: 'root', seed: 8, dataFile });
      const api = new TestClient(first);
      const infra = await api.post('/api/2/infra', {
        owner_tenant_id: first.rootTenantId,
        location_id: '11111111-2222-4333-8444-555555555555',
        name: 'persisted',
        url: 'https://persisted.example',
        capabilities: ['backup'],
      });
      await api.put(`/api/2/infra/${infra.json.id}`, { version: 1, name: 'persisted v2' });
      const backup = first.world().applications.backup?.id;
      await api.put(`/api/2/applications/${backup}/settings/tenants/${first.rootTenantId}/retention_days`, { value: 45 });
      const creds = [first.clientId, first.clientSecret, first.rootTenantId];
      await first.close();

      expect(fs.existsSync(dataFile)).toBe(true);
      expect(fs.readdirSync(dir)).toEqual(['world.json']); // no temporary file left behind
      expect(JSON.parse(fs.readFileSync(dataFile, 'utf8')).infra[infra.json.id].name).toBe('persisted v2');

      // another seed: the file wins
      const second = await startEmulator({ account: 'root', seed: 9, dataFile });
      try {
        expect([second.clientId, second.clientSecret, second.rootTenantId]).toEqual(creds);
        const again = new TestClient(second);
        const read = await again.get(`/api/2/infra?uuids=${infra.json.id}`);
        expect(read.json.items[0]).toMatchObject({ name: 'persisted v2', version: 2 });
        const setting = await again.get(`/api/2/applications/${backup}/settings/tenants/${second.rootTenantId}/retention_days`);
        expect(setting.json.own.value).toBe(45);
        // ids made after the restart do not repeat earlier ones
        const another = await again.post('/api/2/infra', {
          owner_tenant_id: second.rootTenantId,
          location_id: '11111111-2222-4333-8444-555555555555',
          name: 'second',
          url: 'https://second.example',
        });
        expect(another.json.id).not.toBe(infra.json.id);
      } finally {
        await second.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('emulator: versions as the live platform answers them', () => {
  test("each change's version is a millisecond timestamp, strictly growing, and a stale one is refused", async () => {
    const e = await startEmulator({ account: 'root', seed: 8, versions: 'timestamps' });
    const api = new TestClient(e);
    try {
      const before = Date.now();
      const made = await api.post('/api/2/tenants', { name: 'Stamped', parent_id: e.world().tenants['Northwind Partner'].id, kind: 'customer' });
      expect(made.json.version).toBeGreaterThanOrEqual(before);
      let version = made.json.version as number;
      for (const name of ['Stamped 2', 'Stamped 3', 'Stamped 4']) {
        const changed = await api.put(`/api/2/tenants/${made.json.id}`, { version, name });
        expect(changed.json.version).toBeGreaterThan(version);
        version = changed.json.version;
      }
      expect((await api.put(`/api/2/tenants/${made.json.id}`, { version: made.json.version, name: 'Stale' })).status).toBe(409);
    } finally {
      await e.close();
    }
  });
});
