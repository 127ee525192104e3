/**
 * Planning in process: what a plan holds for targets, requested replacements and destroy, and
 * that a configuration the platform would refuse is refused before any request is sent.
 */
import { requestsDuring, useEngineHarness, type Document } from './testing';

const harness = useEngineHarness({ seed: 6 });

function estate(keys: readonly string[], name = 'Planner ${each.key}'): Document {
  const each = { for_each: `\${toset(${JSON.stringify(keys)})}` };
  return harness.stack({
    data: { tenantform_tenant: { northwind: { name: 'Northwind Partner' } } },
    resource: {
      tenantform_tenant: { customer: { ...each, parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name } },
      tenantform_user: {
        admin: { ...each, tenant_id: '${tenantform_tenant.customer[each.key].id}', login: 'planner-${each.key}', email: '${each.key}@planner.example' },
      },
    },
  });
}

const actions = (plan: { changes: ReadonlyArray<{ address: string; action: string }> }) =>
  Object.fromEntries(plan.changes.filter((c) => c.action !== 'no-op').map((c) => [c.address, c.action]));

test('a target plans that object and what it depends on, nothing else', async () => {
  const { plan } = await harness.plan(estate(['a', 'b']), { targets: ['tenantform_user.admin["a"]'] });
  expect(actions(plan)).toEqual({ 'tenantform_tenant.customer["a"]': 'create', 'tenantform_user.admin["a"]': 'create' });
});

describe('with the estate applied', () => {
  beforeAll(async () => {
    expect((await harness.apply(estate(['a', 'b']))).applied).toMatchObject({ added: 4, diagnostics: [] });
  });

  test('a requested replacement deletes and creates that object, and plans its dependents by their own arguments', async () => {
    const { plan } = await harness.plan(estate(['a', 'b']), { replace: ['tenantform_user.admin["b"]'] });
    expect(actions(plan)).toEqual({ 'tenantform_user.admin["b"]': 'replace' });
  });

  test('destroy plans every recorded object', async () => {
    const { plan } = await harness.plan(estate(['a', 'b']), { destroy: true });
    expect(Object.values(actions(plan))).toEqual(['delete', 'delete', 'delete', 'delete']);
  });

  test('a value the platform would refuse is an error naming the address and the attribute, before any request', async () => {
    const sent = await requestsDuring(async () => {
      const problems = await harness.problems(estate(['a', 'b', 'c'], ''));
      expect(problems.map((p) => [p.address, p.path])).toEqual([
        ['tenantform_tenant.customer["a"]', ['name']],
        ['tenantform_tenant.customer["b"]', ['name']],
        ['tenantform_tenant.customer["c"]', ['name']],
      ]);
      await expect(harness.plan(estate(['a'], ''))).rejects.toThrow(/does not load/);
    });
    expect(sent).toEqual([]);
  });
});
