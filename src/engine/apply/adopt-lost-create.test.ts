/**
 * A create whose answer is lost is adopted (the object it made found on the platform), then
 * finished: what the create had still to do is written by an update. Each of those answers may be
 * lost too; one apply still converges.
 */
import { TestClient } from '../../emulator/testing';
import { useEngineHarness } from '../testing';

const harness = useEngineHarness({ seed: 5 });

test('a customer whose create answer was lost is adopted and finished (its pricing switched), even when the finishing update answer is lost too', async () => {
  const isCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/2/tenants';
  const isUpdate = (r: { method: string; path: string }) => r.method === 'PUT' && /^\/api\/2\/tenants\/[^/]+$/.test(r.path);
  harness.emulator.loseAnswer(isCreate);
  harness.emulator.loseAnswer(isUpdate);
  const doc = harness.stack({
    data: { tenantform_tenant: { northwind: { name: 'Northwind Partner' } } },
    resource: {
      tenantform_tenant: {
        finished: { parent_id: '${data.tenantform_tenant.northwind.id}', kind: 'customer', name: 'Finished Customer', pricing_mode: 'production' },
      },
    },
  });
  const { applied } = await harness.apply(doc);
  expect(applied).toMatchObject({ added: 1, diagnostics: [] });

  const recorded = (await harness.state()).get('tenantform_tenant.finished')?.attributes;
  expect(recorded).toMatchObject({ pricing_mode: 'production' });
  const console = new TestClient(harness.emulator);
  const northwind = harness.emulator.world().tenants['Northwind Partner'].id;
  const children = (await console.get(`/api/2/tenants?parent_id=${northwind}`)).json as { items: Array<{ id: string; name: string }> };
  expect(children.items.filter((t) => t.name === 'Finished Customer').map((t) => t.id)).toEqual([recorded?.id]);
  expect((await console.get(`/api/2/tenants/${String(recorded?.id)}/pricing`)).json).toMatchObject({ mode: 'production' });
  const again = await harness.plan(doc);
  expect(again.plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
});
