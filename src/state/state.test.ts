import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import infraComponent from '../resources/kinds/infra-component';
import { Unknown } from '../resources/values';
import { StateStore } from './state';

const attributes = {
  id: 'c1',
  owner_tenant_id: 't',
  name: 'n',
  url: 'https://x',
  capabilities: ['backup'],
  location_id: null,
  content_url: null,
  content_mobile_url: null,
  backend_type: null,
  version: 1,
  platform_owned: false,
  readonly: false,
};

describe('state file', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tenantform-state-'));
    path = join(dir, 'terraform.main.tfstate');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes Terraform state version 4, bumping the serial on every write and keeping a backup', async () => {
    const store = await StateStore.open(path);
    expect(store.existed).toBe(false);
    store.put('tenantform_infra_component.primary', infraComponent, attributes, ['data.tenantform_tenant.acme']);
    await store.save();
    const first = JSON.parse(readFileSync(path, 'utf8'));
    expect(first).toEqual({
      version: 4,
      terraform_version: expect.any(String),
      serial: 1,
      lineage: store.lineage,
      outputs: {},
      check_results: null,
      resources: [
        {
          mode: 'managed',
          type: 'tenantform_infra_component',
          name: 'primary',
          provider: 'provider["registry.terraform.io/tenantform/tenantform"]',
          instances: [{ schema_version: 0, attributes, sensitive_attributes: [], dependencies: ['data.tenantform_tenant.acme'] }],
        },
      ],
    });
    expect(existsSync(`${path}.backup`)).toBe(false);

    store.remove('tenantform_infra_component.primary');
    await store.save();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ serial: 2, resources: [] });
    expect(JSON.parse(readFileSync(`${path}.backup`, 'utf8'))).toMatchObject({ serial: 1 });
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const reopened = await StateStore.open(path);
    expect(reopened).toMatchObject({ existed: true, serial: 2, lineage: store.lineage });
  });

  it('finds each instance by its address after objects before it were removed, and keeps the order of the rest', async () => {
    const store = await StateStore.open(path);
    const at = (address: string) => store.get(address)?.attributes.id;
    store.put('tenantform_infra_component.a', infraComponent, { ...attributes, id: 'a' }, []);
    store.put('tenantform_infra_component.b', infraComponent, { ...attributes, id: 'b' }, []);
    store.put('tenantform_infra_component.many[0]', infraComponent, { ...attributes, id: 'm0' }, []);
    store.put('tenantform_infra_component.many[1]', infraComponent, { ...attributes, id: 'm1' }, []);
    store.put('tenantform_infra_component.keyed["x"]', infraComponent, { ...attributes, id: 'kx' }, []);
    store.put('tenantform_infra_component.c', infraComponent, { ...attributes, id: 'c' }, []);
    // Listed between changes: the list is kept until the next change, never past it.
    expect(store.objects()).toHaveLength(6);
    // Its size counts objects, every instance of a repeated block: the journal goes by it.
    expect(store.size).toBe(6);

    store.remove('tenantform_infra_component.a');
    store.remove('tenantform_infra_component.many[0]');
    expect(store.objects()).toHaveLength(4);
    expect([
      at('tenantform_infra_component.b'),
      at('tenantform_infra_component.many[1]'),
      at('tenantform_infra_component.keyed["x"]'),
      at('tenantform_infra_component.c'),
    ]).toEqual(['b', 'm1', 'kx', 'c']);
    expect(store.get('tenantform_infra_component.a')).toBeUndefined();
    expect(store.get('tenantform_infra_component.many[0]')).toBeUndefined();
    expect(store.get('tenantform_infra_component.keyed["y"]')).toBeUndefined();

    store.remove('tenantform_infra_component.b');
    store.put('tenantform_infra_component.c', infraComponent, { ...attributes, id: 'c2' }, []);
    store.put('tenantform_infra_component.d', infraComponent, { ...attributes, id: 'd' }, []);
    expect(store.objects().map((o) => `${o.address}=${o.attributes.id}`)).toEqual([
      'tenantform_infra_component.many[1]=m1',
      'tenantform_infra_component.keyed["x"]=kx',
      'tenantform_infra_component.c=c2',
      'tenantform_infra_component.d=d',
    ]);
    expect(at('tenantform_infra_component.d')).toBe('d');
  });

  it('queues concurrent writes so that each lands whole, in order', async () => {
    const store = await StateStore.open(path);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        store.put(`tenantform_infra_component.c${i}`, infraComponent, { ...attributes, id: `c${i}` }, []);
        return store.save();
      }),
    );
    const doc = JSON.parse(readFileSync(path, 'utf8'));
    expect(doc.serial).toBe(20);
    expect(doc.resources).toHaveLength(20);
  });

  it('records pending creates under tenantform_pending and clears them', async () => {
    const store = await StateStore.open(path);
    store.addPending('tenantform_infra_component.primary', { name: 'n' });
    await store.save();
    expect(JSON.parse(readFileSync(path, 'utf8')).tenantform_pending).toEqual([
      { address: 'tenantform_infra_component.primary', attributes: { name: 'n' }, started: expect.any(String) },
    ]);
    store.removePending('tenantform_infra_component.primary');
    await store.save();
    expect(JSON.parse(readFileSync(path, 'utf8'))).not.toHaveProperty('tenantform_pending');
  });

  it('never records a value that is not known yet', async () => {
    const store = await StateStore.open(path);
    expect(() => store.put('tenantform_infra_component.primary', infraComponent, { ...attributes, id: Unknown }, [])).toThrow('not known yet');
  });

  it('refuses a damaged or foreign state with a way out', async () => {
    writeFileSync(path, '{"version": 3, "serial": 1}');
    await expect(StateStore.open(path)).rejects.toThrow(/version 3.*\.backup/s);
    writeFileSync(path, '{ half');
    await expect(StateStore.open(path)).rejects.toThrow('not JSON');
  });

  it('keeps the outputs a state holds, and reads the empty file Terraform creates when it locks as no state', async () => {
    const outputs = { endpoint: { value: 'https://x', type: 'string' }, token: { value: 'sha256:ab', type: 'string', sensitive: true } };
    writeFileSync(path, JSON.stringify({ version: 4, terraform_version: '1.11.4', serial: 3, lineage: 'l', outputs, resources: [], check_results: null }));
    const store = await StateStore.open(path);
    store.put('tenantform_infra_component.a', infraComponent, attributes, []);
    await store.save();
    expect(JSON.parse(readFileSync(path, 'utf8')).outputs).toEqual(outputs);
    const reopened = await StateStore.open(path);
    expect(reopened.outputs()).toEqual(outputs);
    reopened.setOutputs({ endpoint: { value: 'https://y', type: 'string' } });
    await reopened.save();
    expect((await StateStore.open(path)).outputs()).toEqual({ endpoint: { value: 'https://y', type: 'string' } });
    writeFileSync(path, '');
    expect((await StateStore.open(path)).existed).toBe(false);
  });
});
