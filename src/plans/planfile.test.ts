import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../api';
import { startEmulator, type RunningEmulator } from '../emulator';
import infraComponent from '../resources/kinds/infra-component';
import { Unknown } from '../resources/values';
import { parseConfiguration } from '../config/config';
import type { Plan, PlannedChange } from '../plans/model';
import { loadPlan, savePlan } from './planfile';
import { assertPlanFresh } from '../engine/plan-freshness';
import { seenOf } from '../engine/planner';
import { resourceKind } from '../resources/registry';
import { StateStore } from '../state/state';
import { ProviderClients } from '../engine/clients';
import { changeAt } from '../engine/testing';

const configuration = parseConfiguration({}, { file: 'main.tf.json', stack: 'main' }).configuration!;

function plan(state: StateStore, changes: PlannedChange[] = []): Plan {
  return {
    stack: 'main',
    configHash: configuration.hash,
    priorState: state.existed ? { lineage: state.lineage, serial: state.serial } : null,
    changes,
    drift: [],
    outputChanges: [],
    diagnostics: [],
    refreshOnly: false,
    createdAt: new Date().toISOString(),
  };
}

describe('saved plans', () => {
  let emulator: RunningEmulator;
  let client: PlatformClient;
  let dir: string;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, seed: 3 });
    client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tenantform-planfile-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const check = async (saved: { plan: Plan; data: Record<string, never> }, state: StateStore, config = configuration) =>
    assertPlanFresh({ saved, configuration: config, state, clients: ProviderClients.single(client), parallelism: 4, kindOf: resourceKind });

  it('round-trips values known only after apply', async () => {
    const state = await StateStore.open(join(dir, 's.tfstate'));
    const change = changeAt('tenantform_infra_component.a', 'create', { after: { id: Unknown, list: ['x', Unknown] } });
    await savePlan(join(dir, 'p.plan'), { plan: plan(state, [change]), data: {} });
    const loaded = loadPlan(join(dir, 'p.plan'));
    expect(loaded.plan.changes[0].after).toEqual({ id: Unknown, list: ['x', Unknown] });
    writeFileSync(join(dir, 'bad.plan'), '{"format":"other"}');
    expect(() => loadPlan(join(dir, 'bad.plan'))).toThrow('at format: expected "tenantform-plan", found "other"');
  });

  it('refuses a plan whose state moved on, was replaced, or whose configuration changed', async () => {
    const path = join(dir, 's.tfstate');
    const state = await StateStore.open(path);
    await state.save();
    const saved = { plan: plan(await StateStore.open(path)), data: {} };
    await expect(check(saved, await StateStore.open(path))).resolves.toBeUndefined();

    await state.save();
    await expect(check(saved, await StateStore.open(path))).rejects.toThrow('serial 2, the plan saw 1');

    rmSync(path);
    const other = await StateStore.open(path);
    await other.save();
    await expect(check(saved, await StateStore.open(path))).rejects.toThrow('a different state');

    const fresh = { plan: plan(await StateStore.open(path)), data: {} };
    await expect(check(fresh, await StateStore.open(path), { ...configuration, hash: 'a different configuration' })).rejects.toThrow(
      'The configuration changed since the plan was made.',
    );
  });

  it('refuses a plan when a touched object changed or vanished on the platform', async () => {
    const owner = emulator.world().tenants['Northwind Partner'].id;
    const created = await client.createInfra({ owner_tenant_id: owner, location_id: owner, name: 'c', url: 'https://c.example', capabilities: ['backup'] });
    const live = (await infraComponent.read({ client }, { id: created.id }))!;
    const change = changeAt('tenantform_infra_component.c', 'update', {
      before: live,
      after: { ...live, name: 'd' },
      changed: ['name'],
      seen: seenOf(infraComponent, live),
    });
    const state = await StateStore.open(join(dir, 's.tfstate'));
    const saved = { plan: plan(state, [change]), data: {} };
    await expect(check(saved, state)).resolves.toBeUndefined();
    await client.updateInfra(created.id, { name: 'moved', location_id: owner, url: created.url, capabilities: ['backup'], version: created.version });
    await expect(check(saved, state)).rejects.toThrow(`is at version ${created.version + 1} on the platform, but the plan saw version ${created.version}`);
    await client.deleteInfra(created.id, created.version + 1);
    await expect(check(saved, state)).rejects.toThrow('was deleted on the platform after the plan was made');
  });
});
