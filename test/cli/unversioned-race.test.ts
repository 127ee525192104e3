/**
 * Another administrator changes an object without a version between the plan and the write of
 * a plain `apply --auto-approve`: the change is refused, not overwritten, for a tenant setting
 * and for agent update settings sent together in one request.
 */
import { configWith, run, startWorld, writeConfig, type World } from './helpers';

describe('objects without a version, changed during apply', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
    await world.client.listApplications(); // the colleague's token, so that the change is one request
  });
  afterAll(() => world.close());

  /**
   * Runs `colleague` as soon as the emulator has answered the `occurrence`-th request matching
   * `pattern`, and slows the platform down meanwhile, so that the change lands between the
   * plan's read and apply's write.
   */
  function whenAnswered(pattern: RegExp, occurrence: number, colleague: () => Promise<unknown>): Promise<void> {
    let seen = 0;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const push = world.requests.push.bind(world.requests);
    world.requests.push = (...lines: string[]) => {
      for (const line of lines) {
        if (pattern.test(line) && ++seen === occurrence) {
          void world.emulator.setFaults({ latency_ms: 300 });
          void colleague().then(async () => {
            await world.emulator.setFaults({ latency_ms: 0 });
            done();
          });
        }
      }
      return push(...lines);
    };
    return finished;
  }

  afterEach(() => {
    delete (world.requests as { push?: unknown }).push;
  });

  it('a tenant setting', async () => {
    const backup = world.application('backup');
    const acme = world.tenant('Acme Manufacturing');
    const setting = (value: string) =>
      configWith({ tenantform_tenant_setting: { retention: { application_id: backup, tenant_id: acme, name: 'retention_days', value } } });
    const file = writeConfig(world, setting('30'));
    expect((await run(world, ['apply', '--auto-approve', '--config', file])).code).toBe(0);

    writeConfig(world, setting('60'));
    const colleague = whenAnswered(new RegExp(`^GET /api/2/applications/${backup}/settings/tenants/${acme}(/retention_days)? 200`), 1, () =>
      world.client.putSetting(backup, acme, 'retention_days', { value: 45, lock: false, exclusive: false }),
    );
    const applied = await run(world, ['apply', '--auto-approve', '--config', file]);
    await colleague;
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('tenantform_tenant_setting.retention changed on the platform after the plan was made (value)');
    expect(applied.stderr).toContain('Nothing was overwritten.');
    expect((await world.client.getSetting(backup, acme, 'retention_days')).own).toMatchObject({ value: 45 });
  });

  it('agent update settings sent in one request', async () => {
    const [first, second] = world.emulator.world().agents['Acme Manufacturing'];
    const window = { time_from: '01:00:00', time_to: '03:00:00', days_of_week: ['SUNDAY'] };
    const settings = (channel: string) =>
      configWith({
        tenantform_agent_update_settings: {
          one: { agent_id: first, update_channel: channel, automatic: true, maintenance_window: window },
          two: { agent_id: second, update_channel: channel, automatic: true, maintenance_window: window },
        },
      });
    const file = writeConfig(world, settings('CURRENT'));
    expect((await run(world, ['apply', '--auto-approve', '--config', file])).code).toBe(0);

    writeConfig(world, settings('STABLE'));
    const theirs = { time_from: '22:00:00', time_to: '23:00:00', days_of_week: ['FRIDAY'] };
    const colleague = whenAnswered(new RegExp(`^GET /api/agent_manager/v2/agent_update_settings/${second}\\?master=false 200`), 1, () =>
      world.client.putAgentUpdateSettings([{ agent_id: second, update_channel: 'CURRENT', automatic: true, maintenance_window: theirs }]),
    );
    const applied = await run(world, ['apply', '--auto-approve', '--config', file]);
    await colleague;
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('tenantform_agent_update_settings.two changed on the platform after the plan was made (maintenance_window)');
    expect(await world.client.getAgentUpdateSettings(second, { master: false })).toMatchObject({ update_channel: 'CURRENT', maintenance_window: theirs });
  });
});
