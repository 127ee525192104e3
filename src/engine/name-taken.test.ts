/**
 * A create whose name a sibling already has: the plan says so, with the import that adopts the
 * sibling, before the apply; the parent's children are listed once however many customers the
 * plan creates under it; a plan from the state alone (-refresh=false) asks nothing.
 */
import { customerEstate, requestLine, requestsDuring, useEngineHarness } from './testing';

const harness = useEngineHarness({ seed: 7 });
const CUSTOMERS = Array.from({ length: 40 }, (_, i) => `c${i}`);

/** Acme Manufacturing is a customer the console made under Northwind Partner (the emulator's MSP world). */
function withAcme(keys: readonly string[]) {
  const document = customerEstate(harness, keys, 'Planned');
  const resource = document.resource as { tenantform_tenant: Record<string, unknown> };
  const acme = { parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name: 'Acme Manufacturing' };
  return { ...document, resource: { ...resource, tenantform_tenant: { ...resource.tenantform_tenant, acme } } };
}

test('the plan refuses a create whose name a sibling has, with the import block that adopts it, and lists the parent once', async () => {
  const acmeId = harness.emulator.world().tenants['Acme Manufacturing'].id;
  let planned: Awaited<ReturnType<typeof harness.plan>> | undefined;
  const sent = await requestsDuring(async () => {
    planned = await harness.plan(withAcme(CUSTOMERS));
  });
  const errors = planned!.plan.diagnostics.filter((d) => d.severity === 'error');
  expect(errors.map((d) => [d.address, d.summary])).toEqual([['tenantform_tenant.acme', 'An object with this name already exists']]);
  expect(errors[0].detail).toContain(`import { to = tenantform_tenant.acme, id = "${acmeId}" }`);
  // The data source's lookup of Northwind, and one listing of its children for all 41 creates.
  expect(sent.map(requestLine).filter((line) => line === 'GET /api/2/tenants')).toHaveLength(2);
  // Nothing is written by a refused plan.
  expect(sent.filter((r) => r.method !== 'GET' && !r.path.startsWith('/api/2/idp/token'))).toEqual([]);
});

test('a plan from the state alone (-refresh=false) sends no request for it', async () => {
  const sent = await requestsDuring(async () => {
    const { plan } = await harness.plan(withAcme(['x']), { refresh: false });
    expect(plan.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
  expect(sent.map(requestLine).filter((line) => line === 'GET /api/2/tenants')).toHaveLength(1);
});
