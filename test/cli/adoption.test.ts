/**
 * Identical objects and an interrupted create: the next plan adopts the one object that no
 * other address holds; when two remain, it names them and says how to resolve it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { call } from '../../src/emulator/testing';
import { configWith, run, runInterrupted, startWorld, writeConfig, type World } from './helpers';

const REPORT = {
  result_action: 'save',
  parameters: { tenant_id: '${data.tenantform_tenant.globex.id}', kind: 'usage_current', level: 'itself' },
  schedule: { type: 'monthly' },
};
const STATE = 'terraform.main.tfstate';

describe('adopting an interrupted create among identical objects', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  const readState = () => JSON.parse(readFileSync(join(world.dir, STATE), 'utf8'));
  const reportIds = (state: { resources: Array<{ type: string; name: string; instances: Array<{ attributes: { id: string } }> }> }) =>
    state.resources.filter((r) => r.type === 'tenantform_usage_report').map((r) => r.instances[0].attributes.id);

  /** The state as a run leaves it when the create of `name` was sent but its answer never recorded. */
  function interruptCreateOf(name: string): void {
    const state = readState();
    const recorded = state.resources.find((r: { type: string }) => r.type === 'tenantform_usage_report').instances[0].attributes;
    state.tenantform_pending = [
      { address: `tenantform_usage_report.${name}`, attributes: { ...recorded, id: null, version: null }, started: new Date().toISOString() },
    ];
    writeFileSync(join(world.dir, STATE), JSON.stringify(state, null, 2));
  }

  const platformCreate = () =>
    world.client.createReport({
      result_action: 'save',
      recipients: [],
      parameters: { tenant_id: world.tenant('Globex Retail'), kind: 'usage_current', level: 'itself' },
      schedule: { type: 'monthly', enabled: true },
    });

  it('adopts the one object not recorded elsewhere, then refuses to guess between two', async () => {
    const reports: Record<string, unknown> = {};
    for (let i = 0; i < 5; i++) reports[`same${i}`] = REPORT;
    let file = writeConfig(world, configWith({ tenantform_usage_report: reports }));
    const applied = await run(world, ['apply', '--auto-approve', '--config', file]);
    expect(applied.stdout).toContain('Apply complete! Resources: 5 added');

    // A sixth identical report: its create reached the platform, its answer did not.
    reports.same5 = REPORT;
    file = writeConfig(world, configWith({ tenantform_usage_report: reports }));
    interruptCreateOf('same5');
    const made = await platformCreate();
    const plan = await run(world, ['apply', '--auto-approve', '--config', file]);
    expect(plan.stderr).not.toContain('More than one');
    expect(plan.stdout + plan.stderr).toContain(`the platform has it (${made.id}). It is adopted, not created again.`);
    expect(plan.stdout).toContain('Apply complete! Resources: 0 added');
    expect(reportIds(readState())).toContain(made.id);
    expect(new Set(reportIds(readState())).size).toBe(6);

    // A seventh: two identical objects are on the platform and recorded nowhere.
    reports.same6 = REPORT;
    file = writeConfig(world, configWith({ tenantform_usage_report: reports }));
    interruptCreateOf('same6');
    const first = await platformCreate();
    const second = await platformCreate();
    const ambiguous = await run(world, ['plan', '--config', file]);
    expect(ambiguous.code).toBe(1);
    const said = ambiguous.stdout + ambiguous.stderr;
    expect(said).toContain('More than one object matches an interrupted create');
    expect(said).toContain(first.id);
    expect(said).toContain(second.id);
    expect(said).toContain('6 more are recorded for other addresses');
    expect(said).toContain('tenantform import tenantform_usage_report.same6 <id>');
  });
});

describe('an interrupted create whose tenant was deleted since', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('blocks no plan, and state rm forgets it', async () => {
    const file = writeConfig(world, configWith({}));
    expect((await run(world, ['apply', '--auto-approve', '--config', file])).code).toBe(0);
    const tenant = await world.client.createTenant({ name: 'Gone Customer', parent_id: world.tenant('Northwind Partner'), kind: 'customer' });
    const state = JSON.parse(readFileSync(join(world.dir, STATE), 'utf8'));
    const attributes = {
      id: null,
      version: null,
      result_action: 'save',
      recipients: [],
      parameters: { tenant_id: tenant.id, kind: 'usage_current', level: 'itself' },
      schedule: { type: 'monthly', enabled: true },
    };
    state.tenantform_pending = [{ address: 'tenantform_usage_report.gone', attributes, started: new Date().toISOString() }];
    writeFileSync(join(world.dir, STATE), JSON.stringify(state));
    const disabled = await world.client.updateTenant(tenant.id, { version: tenant.version ?? 1, enabled: false });
    await world.client.deleteTenant(tenant.id, disabled.version ?? 2);

    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(plan.stderr).not.toContain('Error');
    expect([0, 2]).toContain(plan.code);

    const rm = await run(world, ['state', 'rm', 'tenantform_usage_report.gone', '--config', file]);
    expect(rm.code).toBe(0);
    expect(rm.stdout).toContain('Removed tenantform_usage_report.gone');
    expect(JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')).tenantform_pending).toBeUndefined();
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
  });
});

describe('an event subscription whose create lost its answer', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  const subscriptions = async (): Promise<string[]> => Object.keys((await call(world.emulator.url, 'GET', '/_emulator/dump')).json.subscriptions);

  it('is found again by the id chosen before it was sent, never made twice (the platform cannot delete one)', async () => {
    const subscription = { topic_id: 'cti.a.p.em.topic.v1.0~a.p.tenant.v1.0', types: ['cti.a.p.em.event.v1.0~a.p.tenant.*'], tenant_depth: 'ALL' };
    const file = writeConfig(world, configWith({ tenantform_event_subscription: { events: subscription } }));
    const before = await subscriptions();
    const isCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/event_manager/v1/subscriptions';
    const crashed = await runInterrupted(world, ['apply', '--config', file, '--auto-approve'], { moment: 'answer', matches: isCreate, nth: 1 }, 'SIGKILL');
    expect(crashed.signal).toBe('SIGKILL');
    const made = (await subscriptions()).filter((id) => !before.includes(id));
    expect(made).toHaveLength(1);
    const pending = JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')).tenantform_pending;
    expect(pending).toEqual([
      expect.objectContaining({ address: 'tenantform_event_subscription.events', attributes: expect.objectContaining({ subscription_id: made[0] }) }),
    ]);

    const resumed = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(resumed.code).toBe(0);
    expect((await subscriptions()).filter((id) => !before.includes(id))).toEqual(made);
    const recorded = JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')).resources.find((r: { name: string }) => r.name === 'events').instances[0]
      .attributes;
    expect(recorded.subscription_id).toBe(made[0]);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
  });
});
