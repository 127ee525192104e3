/**
 * The engine in process (plan, then apply) against the emulator: order, parallelism, a failure
 * stopping only its dependents, batched writes and an interrupted create.
 */
import { TestClient } from '../emulator/testing';
import { customerEstate, requestLine, requestsDuring as requestsWhile, useEngineHarness, type Document } from './testing';

const harness = useEngineHarness({ seed: 3 });

const each = (keys: readonly string[]) => ({ for_each: `\${toset(${JSON.stringify(keys)})}` });
const NORTHWIND = { tenantform_tenant: { northwind: { name: 'Northwind Partner' } } };

/** Customers under Northwind, each with an administrator: the shape an MSP's estate has. */
function estate(keys: readonly string[], extra: Record<string, unknown> = {}): Document {
  const document = customerEstate(harness, keys, 'Engine', 'engine');
  return { ...document, resource: { ...(document.resource as Record<string, unknown>), ...extra } };
}

/** The requests the emulator receives while `work` runs, as `METHOD path`. */
const requestsDuring = async (work: () => Promise<unknown>): Promise<string[]> => (await requestsWhile(work)).map(requestLine);

const isTenantCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/2/tenants';

describe('apply, in process', () => {
  afterEach(async () => {
    // Each test leaves an empty state behind it: destroying what it made is part of what it checks.
    const { applied } = await harness.apply(harness.stack({}), { destroy: true });
    expect(applied.diagnostics).toEqual([]);
  });

  test('creates what an object depends on first, and deletes in the reverse order', async () => {
    let created!: Awaited<ReturnType<typeof harness.apply>>;
    const creates = await requestsDuring(async () => (created = await harness.apply(estate(['a']))));
    expect(created.applied).toMatchObject({ added: 2, diagnostics: [] });
    const writes = creates.filter((r) => r === 'POST /api/2/tenants' || r === 'POST /api/2/users');
    expect(writes).toEqual(['POST /api/2/tenants', 'POST /api/2/users']);

    let destroyed!: Awaited<ReturnType<typeof harness.apply>>;
    const deletes = await requestsDuring(async () => (destroyed = await harness.apply(estate([]))));
    expect(destroyed.applied).toMatchObject({ destroyed: 2, diagnostics: [] });
    const userDelete = deletes.findIndex((r) => r.startsWith('DELETE /api/2/users/'));
    const tenantDelete = deletes.findIndex((r) => r.startsWith('DELETE /api/2/tenants/'));
    expect(userDelete).toBeGreaterThanOrEqual(0);
    expect(tenantDelete).toBeGreaterThan(userDelete);
  });

  test('runs as many objects at once as the parallelism allows, and never more', async () => {
    const keys = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
    harness.emulator.takePeakInFlight();
    // The first three creates are answered only once all three are in flight: a lower bound never gets there.
    const three = harness.emulator.gather(isTenantCreate, 3);
    // Slow answers keep requests in flight, so that more than three at once would be seen (correct code passes at any speed).
    harness.emulator.setFaults({ latency_ms: 20 });
    try {
      const { applied } = await harness.apply(estate(keys), { parallelism: 3 });
      expect(applied).toMatchObject({ added: 14, diagnostics: [] });
    } finally {
      harness.emulator.setFaults({ latency_ms: 0 });
    }
    await three;
    expect(harness.emulator.takePeakInFlight()).toBe(3);
  });

  test('a failed object stops only what depends on it; everything else is applied and recorded', async () => {
    // Someone took a login in the console: the user of "taken" cannot be created; its customer can.
    const console = new TestClient(harness.emulator);
    const acme = harness.emulator.world().tenants['Acme Manufacturing'].id;
    expect((await console.post('/api/2/users', { tenant_id: acme, login: 'engine-taken', contact: { email: 'taken@acme.example' } })).status).toBe(200);
    const roles = {
      tenantform_user_roles: {
        admin: {
          ...each(['ok', 'taken']),
          user_id: '${tenantform_user.admin[each.key].id}',
          roles: [{ tenant_id: '${tenantform_tenant.customer[each.key].id}', role_id: 'company_admin' }],
        },
      },
    };
    const requests = await requestsDuring(async () => {
      const { applied } = await harness.apply(estate(['ok', 'taken'], roles));
      expect(applied.added).toBe(4);
      expect(applied.diagnostics).toEqual([
        expect.objectContaining({ severity: 'error', address: 'tenantform_user.admin["taken"]' }),
        expect.objectContaining({ severity: 'warning', summary: 'Not applied', address: 'tenantform_user_roles.admin["taken"]' }),
      ]);
    });
    // One role assignment was sent: the one whose user exists.
    expect(requests.filter((r) => /^PUT \/api\/2\/users\/[^/]+\/access_policies$/.test(r))).toHaveLength(1);
    const recorded = (await harness.state()).objects().map((o) => o.address);
    expect(recorded.sort()).toEqual([
      'data.tenantform_tenant.northwind',
      'tenantform_tenant.customer["ok"]',
      'tenantform_tenant.customer["taken"]',
      'tenantform_user.admin["ok"]',
      'tenantform_user_roles.admin["ok"]',
    ]);
  });

  test("writes a kind's batched creates in one request", async () => {
    const settings = (tenant: string) => ({
      tenant_id: `\${data.tenantform_tenant.${tenant}.id}`,
      update_channel: 'STABLE',
      automatic: true,
      maintenance_window: { time_from: '22:00:00', time_to: '06:00:00', days_of_week: ['SATURDAY'] },
    });
    const document = harness.stack({
      data: {
        tenantform_tenant: {
          ...NORTHWIND.tenantform_tenant,
          acme: { name: 'Acme Manufacturing', parent_id: '${data.tenantform_tenant.northwind.id}' },
          globex: { name: 'Globex Retail', parent_id: '${data.tenantform_tenant.northwind.id}' },
        },
      },
      resource: { tenantform_agent_update_settings: { acme: settings('acme'), globex: settings('globex') } },
    });
    const requests = await requestsDuring(async () => expect((await harness.apply(document)).applied).toMatchObject({ added: 2, diagnostics: [] }));
    expect(requests.filter((r) => r === 'PUT /api/agent_manager/v2/agent_update_settings')).toHaveLength(1);
    expect((await harness.plan(document)).plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
  });

  test('a create whose answer was lost is found on the platform and recorded, never made twice', async () => {
    harness.emulator.loseAnswer(isTenantCreate);
    const requests = await requestsDuring(async () => expect((await harness.apply(estate(['lost']))).applied).toMatchObject({ added: 2, diagnostics: [] }));
    expect(requests.filter((r) => r === 'POST /api/2/tenants')).toHaveLength(1);
    const named = Object.keys(harness.emulator.world().tenants).filter((name) => name === 'Engine lost');
    expect(named).toHaveLength(1);
    expect((await harness.plan(estate(['lost']))).plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
  });
});
