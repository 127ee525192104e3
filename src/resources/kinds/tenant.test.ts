import { planResource } from '../plan';
import { validateConfig } from '../validate';
import kind from './tenant';

const ADDRESS = 'tenantform_tenant.contoso';
const PARENT = '7d3e1b2a-5c4f-4e6d-8a9b-1c2d3e4f5a6b';
const ID = '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';

const config = (extra: Record<string, unknown> = {}) => ({ parent_id: PARENT, kind: 'customer', name: 'Contoso', ...extra });
const prior = (extra: Record<string, unknown> = {}) => ({
  id: ID,
  ...config(),
  customer_type: 'default',
  customer_id: null,
  internal_tag: null,
  language: 'en',
  enabled: true,
  contact: null,
  update_lock: false,
  ancestral_access: true,
  pricing_mode: 'production',
  version: 3,
  has_children: false,
  production_start_date: '2026-01-01',
  ...extra,
});

describe('tenantform_tenant', () => {
  it('takes a pricing mode on customers only, naming the attribute', () => {
    expect(validateConfig(kind, config({ pricing_mode: 'trial' }), ADDRESS)).toEqual([]);
    expect(validateConfig(kind, config({ kind: 'partner', pricing_mode: 'trial' }), ADDRESS)).toMatchObject([{ address: ADDRESS, path: ['pricing_mode'] }]);
    expect(validateConfig(kind, config({ kind: 'root' }), ADDRESS)).toMatchObject([{ address: ADDRESS, path: ['kind'] }]);
    expect(validateConfig(kind, config({ contact: { types: ['billing', 'billing'] } }), ADDRESS)).toMatchObject([{ path: ['contact', 'types', 1] }]);
  });

  it('refuses production back to trial in the plan, before any request', async () => {
    const r = await planResource({ kind, address: ADDRESS, config: config({ pricing_mode: 'trial' }), prior: prior() });
    expect(r.diagnostics).toMatchObject([{ severity: 'error', address: ADDRESS, path: ['pricing_mode'] }]);
    const forward = await planResource({ kind, address: ADDRESS, config: config({ pricing_mode: 'production' }), prior: prior({ pricing_mode: 'trial' }) });
    expect(forward.diagnostics).toEqual([]);
    expect(forward.action).toBe('update');
  });

  it("refuses to clear a contact's types in the plan: the platform cannot clear them", async () => {
    const contact = {
      email: 'it@contoso.example',
      first_name: null,
      last_name: null,
      phone: null,
      address1: null,
      address2: null,
      city: null,
      state: null,
      zipcode: null,
      country: null,
    };
    const withTypes = prior({ pricing_mode: null, contact: { ...contact, types: ['primary'] } });
    const cleared = await planResource({ kind, address: ADDRESS, config: config({ contact: { email: 'it@contoso.example' } }), prior: withTypes });
    expect(cleared.diagnostics).toMatchObject([{ severity: 'error', address: ADDRESS, path: ['contact', 'types'] }]);
    const kept = await planResource({
      kind,
      address: ADDRESS,
      config: config({ contact: { email: 'it@contoso.example', types: ['billing'] } }),
      prior: withTypes,
    });
    expect(kept.diagnostics).toEqual([]);
    expect(kept.action).toBe('update');
  });

  it('replaces on a new parent or kind, updates the rest in place', async () => {
    expect((await planResource({ kind, address: ADDRESS, config: config({ parent_id: ID }), prior: prior() })).action).toBe('replace');
    expect((await planResource({ kind, address: ADDRESS, config: config({ internal_tag: 'gold' }), prior: prior() })).action).toBe('update');
  });

  it('warns that a destroy takes sub-tenants, users and data with it', async () => {
    const alone = await planResource({ kind, address: ADDRESS, config: null, prior: prior() });
    expect(alone.action).toBe('delete');
    expect(alone.diagnostics).toMatchObject([{ severity: 'warning', address: ADDRESS, detail: expect.stringContaining('its users and data') }]);
    const parent = await planResource({ kind, address: ADDRESS, config: null, prior: prior({ has_children: true }) });
    expect(parent.diagnostics[0].detail).toContain('its sub-tenants, their users and data');
  });
});
