/**
 * A create of a kind that records it as pending before the request (so that an interrupted
 * create is adopted by the next run): the trace it leaves when the platform refuses it.
 */
import { TestClient } from '../../emulator/testing';
import { customerEstate, useEngineHarness } from '../testing';

const harness = useEngineHarness({ seed: 4 });

test('a create the platform refuses leaves no pending trace: nothing was made to adopt', async () => {
  // The login is taken in the console: the platform refuses the user's create, its customer is made.
  const console = new TestClient(harness.emulator);
  const acme = harness.emulator.world().tenants['Acme Manufacturing'].id;
  expect((await console.post('/api/2/users', { tenant_id: acme, login: 'refused-taken', contact: { email: 'taken@acme.example' } })).status).toBe(200);
  const { applied } = await harness.apply(customerEstate(harness, ['taken'], 'Refused', 'refused'));
  expect(applied.added).toBe(1);
  expect(applied.diagnostics).toEqual([expect.objectContaining({ severity: 'error', address: 'tenantform_user.admin["taken"]' })]);

  const state = await harness.state();
  expect(state.pending()).toEqual([]);
  expect(state.objects().map((o) => o.address)).not.toContain('tenantform_user.admin["taken"]');
});
