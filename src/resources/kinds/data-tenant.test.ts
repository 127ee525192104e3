import { PlatformClient, type Tenant } from '../../api';
import { ALL_SCOPES } from '../../emulator/store';
import { createClient } from '../../emulator/testing';
import { readDataSource } from '../operations';
import { validateConfig } from '../validate';
import { useEmulatorClient } from '../testing';
import kind, { matchTenants } from './data-tenant';

const ADDRESS = 'data.tenantform_tenant.test';
const ID = '7d3e1b2a-5c4f-4e6d-8a9b-1c2d3e4f5a6b';

describe('tenantform_tenant validation', () => {
  it('takes an id, or a name with an optional parent', () => {
    expect(validateConfig(kind, { id: ID }, ADDRESS)).toEqual([]);
    expect(validateConfig(kind, { name: 'Acme' }, ADDRESS)).toEqual([]);
    expect(validateConfig(kind, { name: 'Acme', parent_id: ID }, ADDRESS)).toEqual([]);
  });

  it('needs exactly one of id and name', () => {
    expect(validateConfig(kind, {}, ADDRESS)).toMatchObject([{ code: 'exactly_one_of', address: ADDRESS, path: ['id'] }]);
    expect(validateConfig(kind, { id: ID, name: 'Acme' }, ADDRESS)).toMatchObject([{ code: 'exactly_one_of', address: ADDRESS, path: ['name'] }]);
  });

  it('takes parent_id only with name', () => {
    expect(validateConfig(kind, { id: ID, parent_id: ID }, ADDRESS)).toMatchObject([{ address: ADDRESS, path: ['parent_id'] }]);
  });

  it('checks ids are uuids', () => {
    expect(validateConfig(kind, { name: 'Acme', parent_id: 'root' }, ADDRESS)).toMatchObject([{ address: ADDRESS, path: ['parent_id'] }]);
  });

  it('reports two tenants of the same name as ambiguous, unless the parent tells them apart', () => {
    const t = (id: string, parent: string): Tenant => ({ id, parent_id: parent, name: 'Branch', kind: 'unit' });
    const tenants = [t('a', 'p1'), t('b', 'p2'), { ...t('c', 'p1'), name: 'branch' }];
    expect(() => matchTenants(tenants, 'Branch')).toThrow(expect.objectContaining({ code: 'data_source_ambiguous' }));
    expect(matchTenants(tenants, 'Branch', 'p2').id).toBe('b');
    expect(matchTenants(tenants, 'branch').id).toBe('c');
    expect(() => matchTenants(tenants, 'Branch', 'p3')).toThrow(expect.objectContaining({ code: 'data_source_not_found' }));
  });
});

describe('tenantform_tenant against the emulator', () => {
  const platform = useEmulatorClient(1);

  const read = (config: Record<string, unknown>) => readDataSource({ kind, address: ADDRESS, ctx: { client: platform.client }, config });
  const tenant = (name: string) => platform.emulator.world().tenants[name];

  it('finds a tenant by id', async () => {
    const acme = tenant('Acme Manufacturing');
    const r = await read({ id: acme.id });
    expect(r.diagnostics).toEqual([]);
    expect(r.value).toEqual({ id: acme.id, name: 'Acme Manufacturing', kind: 'customer', parent_id: tenant('Northwind Partner').id });
  });

  it("finds the caller's own tenant by id", async () => {
    const r = await read({ id: platform.emulator.tenantId });
    expect(r.value).toEqual({ id: platform.emulator.tenantId, name: 'Northwind Partner', kind: 'partner', parent_id: platform.emulator.rootTenantId });
  });

  it('finds a tenant by name, also behind a visibility barrier', async () => {
    const r = await read({ name: 'Initech Finance' });
    expect(r.diagnostics).toEqual([]);
    expect(r.value).toEqual({ id: tenant('Initech Finance').id, name: 'Initech Finance', kind: 'customer', parent_id: tenant('Northwind Partner').id });
  });

  it('finds a tenant by name among the children of a parent', async () => {
    const northwind = tenant('Northwind Partner').id;
    const r = await read({ name: 'Globex Retail', parent_id: northwind });
    expect(r.diagnostics).toEqual([]);
    expect(r.value).toEqual({ id: tenant('Globex Retail').id, name: 'Globex Retail', kind: 'customer', parent_id: northwind });
  });

  it('matches names exactly and only among direct children', async () => {
    const cases = [
      { name: 'globex retail' },
      { name: 'Globex' },
      { name: 'Globex Retail', parent_id: tenant('Acme Manufacturing').id },
      { name: 'Wayne Legal' }, // another partner's customer: outside the caller's tenant
      { name: 'Wayne Legal', parent_id: tenant('Southridge Partner').id },
    ];
    for (const config of cases) {
      const r = await read(config);
      expect(r.value).toBeUndefined();
      expect(r.diagnostics).toMatchObject([{ severity: 'error', code: 'data_source_not_found', address: ADDRESS }]);
    }
  });

  it('reports an unknown parent as not found', async () => {
    const r = await read({ name: 'Wayne Legal', parent_id: ID });
    expect(r.diagnostics).toMatchObject([{ severity: 'error', code: 'data_source_not_found', address: ADDRESS }]);
    expect(r.diagnostics[0].detail).toContain(ID);
  });

  it('reports an unknown id as not found', async () => {
    const r = await read({ id: ID });
    expect(r.diagnostics).toMatchObject([{ severity: 'error', code: 'data_source_not_found', address: ADDRESS }]);
    expect(r.diagnostics[0].detail).toContain(ID);
  });
  it("without a parent, searches the subtree of the API client's own tenant", async () => {
    const partner = await createClient(platform.emulator, [...ALL_SCOPES], tenant('Northwind Partner').id);
    const partnerClient = new PlatformClient({ baseUrl: platform.emulator.url, clientId: partner.clientId, clientSecret: partner.clientSecret });
    try {
      const inside = await readDataSource({ kind, address: ADDRESS, ctx: { client: partnerClient }, config: { name: 'Acme Manufacturing' } });
      expect(inside.value).toMatchObject({ id: tenant('Acme Manufacturing').id });
      const outside = await readDataSource({ kind, address: ADDRESS, ctx: { client: partnerClient }, config: { name: 'Wayne Legal' } });
      expect(outside.diagnostics).toMatchObject([{ code: 'data_source_not_found' }]);
    } finally {
      await partnerClient.close();
    }
  });
});
