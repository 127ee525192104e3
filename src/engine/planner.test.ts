/**
 * Planning in process: what a plan holds for targets, requested replacements and destroy, and
 * that a configuration the platform would refuse is refused before any request is sent.
 */
import { customerEstate, requestsDuring, useEngineHarness, type Document } from './testing';

const harness = useEngineHarness({ seed: 6 });

function estate(keys: readonly string[], prefix = 'Planner'): Document {
  return customerEstate(harness, keys, prefix, 'planner');
}

/** The estate with customers whose name is empty, which the platform would refuse. */
function unnamed(keys: readonly string[]): Document {
  const document = estate(keys);
  const resource = document.resource as { tenantform_tenant: { customer: Record<string, unknown> } };
  return { ...document, resource: { ...resource, tenantform_tenant: { customer: { ...resource.tenantform_tenant.customer, name: '' } } } };
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

  test('a value the platform would refuse is an error naming the block and the attribute, once for all its instances, before any request', async () => {
    const sent = await requestsDuring(async () => {
      const problems = await harness.problems(unnamed(['a', 'b', 'c']));
      expect(problems.map((p) => [p.address, p.path])).toEqual([['tenantform_tenant.customer', ['name']]]);
      await expect(harness.plan(unnamed(['a']))).rejects.toThrow(/does not load/);
    });
    expect(sent).toEqual([]);
  });
});
