/**
 * Deleting an infrastructure component that customers still use (GAPS "Infrastructure component
 * delete while in use"), against the emulator over real HTTP: the refusal is told apart from a
 * stale version by reading the version again, and `force_delete` sends the spec's `force`.
 */
import { PlatformClient } from '../../api';
import { startEmulator } from '../../emulator';
import type { State } from '../declaration';
import { createResource, deleteResource, readResource, updateResource } from '../operations';
import { planResource } from '../plan';
import { infraComponent } from './infra-component';
import { stateOf } from '../testing';

const ADDRESS = 'tenantform_infra_component.shared';
let emu: Awaited<ReturnType<typeof startEmulator>>;
let client: PlatformClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 5 });
  client = new PlatformClient({ baseUrl: emu.url, clientId: emu.clientId, clientSecret: emu.clientSecret });
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

async function useBy(infraId: string, tenants: Array<{ tenant_id: string; offering_items_on: boolean }>): Promise<void> {
  const res = await fetch(`${emu.url}/_emulator/infra_usage`, { method: 'PUT', body: JSON.stringify({ infra_id: infraId, tenants }) });
  expect(res.status).toBe(200);
}

it('refuses while in use, names the usage, never calls it a version conflict; force_delete deletes it once no offering item is on', async () => {
  const ctx = { client };
  const base = { kind: infraComponent, address: ADDRESS, ctx };
  const acme = emu.world().tenants['Acme Manufacturing'].id;
  const config: State = {
    owner_tenant_id: emu.tenantId,
    name: 'Shared storage',
    url: 'https://shared.example.com',
    capabilities: ['backup'],
    location_id: '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f',
  };
  const created = stateOf(infraComponent, (await createResource({ ...base, planned: (await planResource({ ...base, config, prior: null })).planned! })).value);
  expect(created.force_delete).toBe(false);
  await useBy(created.id, [{ tenant_id: acme, offering_items_on: true }]);

  const refused = await deleteResource({ ...base, prior: created });
  expect(refused.diagnostics).toEqual([expect.objectContaining({ code: 'delete_refused', address: ADDRESS, path: ['force_delete'] })]);
  expect(refused.diagnostics[0].detail).toContain(`is in use by 1 customer tenant(s): ${acme}`);
  expect(refused.diagnostics[0].detail).not.toContain('changed by someone else');

  // force_delete is kept in the state only: turning it on sends nothing and leaves the version.
  const forcing = await planResource({ ...base, config: { ...config, force_delete: true }, prior: created });
  expect(forcing.action).toBe('update');
  const forced = (await updateResource({ ...base, prior: created, planned: forcing.planned! })).value!;
  expect(forced).toMatchObject({ force_delete: true, version: created.version });
  expect((await readResource({ ...base, state: forced })).value).toEqual(forced);

  const stillOffered = await deleteResource({ ...base, prior: forced });
  expect(stillOffered.diagnostics[0].detail).toContain(`has offering items turned on for customer tenant(s): ${acme}`);

  await useBy(created.id, [{ tenant_id: acme, offering_items_on: false }]);
  expect((await deleteResource({ ...base, prior: forced })).diagnostics).toEqual([]);
  expect((await readResource({ ...base, state: forced })).value).toBeNull();
});

it('a stale version is still a version conflict', async () => {
  const ctx = { client };
  const base = { kind: infraComponent, address: ADDRESS, ctx };
  const config: State = {
    owner_tenant_id: emu.tenantId,
    name: 'Moved',
    url: 'https://moved.example.com',
    capabilities: ['backup'],
    location_id: '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f',
  };
  const created = stateOf(infraComponent, (await createResource({ ...base, planned: (await planResource({ ...base, config, prior: null })).planned! })).value);
  await client.updateInfra(created.id, { name: 'Renamed', url: 'https://moved.example.com', capabilities: ['backup'], version: Number(created.version) });
  const stale = await deleteResource({ ...base, prior: created });
  expect(stale.diagnostics).toEqual([expect.objectContaining({ code: 'version_conflict' })]);
  expect(stale.diagnostics[0].detail).toContain('at version 2 on the platform');
});
