import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, runInterrupted, startWorld, writeConfig, type World, renameInfraByHand } from './helpers';

describe('tenantform plan and apply options', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('reports every configuration problem and exits 1 before any request', async () => {
    const file = writeConfig(world, {
      provider: { tenantform: { client_secret: 'a-secret-in-the-file' } },
      resource: {
        tenantform_infra_component: { bad: { owner_tenant_id: 'x', name: 'n', url: 'u', capabilities: ['backup'], count: 2 } },
        tenantform_tenant_setting: { s: { application_id: '${var.app}', tenant_id: 'y', name: 'n', value: '1' } },
      },
    });
    world.requests.length = 0;
    const r = await run(world, ['plan', '--config', file]);
    expect(r.code).toBe(1);
    // A problem every instance of a counted block has is said once, at the block, as terraform validate says it.
    expect(r.stderr).toContain('tenantform_infra_component.bad: owner_tenant_id:');
    expect(r.stderr).not.toContain('tenantform_infra_component.bad[1]');
    expect(r.stderr).toContain('tenantform_tenant_setting.s: application_id: Reference to an undeclared name');
    expect(r.stderr).toContain('tenantform_tenant_setting.s: tenant_id: Invalid value');
    expect(r.stderr).toContain('nothing was sent to the platform');
    expect(world.requests).toEqual([]);
  });

  it('exits 1 with a way forward when credentials are missing, and never prints the secret', async () => {
    const file = writeConfig(world, configWith({}));
    const missing = await run(world, ['plan', '--config', file], { TENANTFORM_CLIENT_ID: '' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Set TENANTFORM_CLIENT_ID');
    expect(`${missing.stdout}${missing.stderr}`).not.toContain(world.env.TENANTFORM_CLIENT_SECRET);
  });

  it('names every missing credential in one error, not only the first', async () => {
    const file = writeConfig(world, configWith({}));
    const missing = await run(world, ['plan', '--config', file], { TENANTFORM_BASE_URL: '', TENANTFORM_CLIENT_ID: '', TENANTFORM_CLIENT_SECRET: '' });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Set TENANTFORM_BASE_URL, TENANTFORM_CLIENT_ID, TENANTFORM_CLIENT_SECRET');
  });

  it('a targeted plan sees the other objects as the state has them: their outputs do not change, and nothing to do exits 0', async () => {
    const file = writeConfig(
      world,
      {
        ...configWith({ tenantform_infra_component: { left: infra('Target Left'), right: infra('Target Right') } }),
        output: { left_id: { value: '${tenantform_infra_component.left.id}' }, right_id: { value: '${tenantform_infra_component.right.id}' } },
      },
      'targeted-outputs.tf.json',
    );
    const state = ['--state', 'targeted-outputs.tfstate'];
    expect((await run(world, ['apply', '--config', file, ...state, '--auto-approve'])).code).toBe(0);
    // The left one changes in the configuration; the plan targets the right one.
    writeConfig(
      world,
      {
        ...configWith({ tenantform_infra_component: { left: infra('Target Left Renamed'), right: infra('Target Right') } }),
        output: { left_id: { value: '${tenantform_infra_component.left.id}' }, right_id: { value: '${tenantform_infra_component.right.id}' } },
      },
      'targeted-outputs.tf.json',
    );
    const targeted = await run(world, ['plan', '--config', file, ...state, '--target', 'tenantform_infra_component.right', '--detailed-exitcode']);
    expect(targeted.stdout).toContain('No changes.');
    expect(targeted.stdout).not.toContain('Changes to Outputs');
    expect(targeted.code).toBe(0);
    expect((await run(world, ['plan', '--config', file, ...state, '--target', 'tenantform_infra_component.left', '--detailed-exitcode'])).code).toBe(2);
  });

  it('plans only targets and their dependencies, and trusts the state with --refresh=false', async () => {
    const file = writeConfig(world, configWith({ tenantform_infra_component: { a: infra('Target A'), b: infra('Target B') } }));
    const targeted = await run(world, ['apply', '--config', file, '--auto-approve', '--target', 'tenantform_infra_component.a']);
    expect(targeted.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(targeted.stdout).not.toContain('tenantform_infra_component.b');
    const unknownTarget = await run(world, ['plan', '--config', file, '--target', 'tenantform_infra_component.zzz']);
    expect(unknownTarget.code).toBe(1);
    expect(unknownTarget.stdout).toContain('--target tenantform_infra_component.zzz is neither declared');

    expect((await run(world, ['apply', '--config', file, '--auto-approve'])).code).toBe(0);
    const state = JSON.parse(readFileSync(join(world.dir, 'terraform.main.tfstate'), 'utf8'));
    const id = state.resources.find((r: { name: string }) => r.name === 'a').instances[0].attributes.id;
    await renameInfraByHand(world.client, id, 'Changed by hand');
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode', '--refresh=false'])).code).toBe(0);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(2);
  });

  it('plans offline with --refresh=false when nothing needs reading: no token, no request, no wait on an unreachable platform', async () => {
    const offline = { owner_tenant_id: world.tenant('Northwind Partner') };
    const config = { ...configWith({ tenantform_infra_component: { offline: infra('Offline', offline) } }), data: undefined };
    const file = writeConfig(world, config, 'offline.tf.json');
    expect((await run(world, ['apply', '--config', file, '--auto-approve'])).code).toBe(0);
    world.requests.length = 0;
    const trusted = await run(world, ['plan', '--config', file, '--detailed-exitcode', '--refresh=false']);
    expect(trusted.stdout).toContain('No changes.');
    expect(trusted.code).toBe(0);
    expect(world.requests).toEqual([]);
    // Nothing listens on port 1: a token asked for first would fail there after its retries.
    const unreachable = await run(world, ['plan', '--config', file, '--detailed-exitcode', '--refresh=false'], { TENANTFORM_BASE_URL: 'http://127.0.0.1:1' });
    expect(unreachable.stderr).toBe('');
    expect(unreachable.code).toBe(0);
  });

  it('refuses to destroy what prevent_destroy protects, also after the block is removed', async () => {
    const protectedInfra = { ...infra('Protected'), lifecycle: { prevent_destroy: true } };
    let file = writeConfig(world, configWith({ tenantform_infra_component: { keep: protectedInfra } }), 'protected.tf.json');
    expect((await run(world, ['apply', '--config', file, '--auto-approve'])).code).toBe(0);
    file = writeConfig(world, configWith({}), 'protected.tf.json');
    const r = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('tenantform_infra_component.keep: The object is protected from destruction');
  });

  it('releases the lock when interrupted', async () => {
    const file = writeConfig(world, configWith({ tenantform_infra_component: { slow: infra('Slow') } }), 'slow.tf.json');
    world.emulator.setFaults({ latency_ms: 300 });
    const lockFile = join(world.dir, '.terraform.slow.tfstate.lock.info');
    // Interrupted when its first request reaches the platform: the plan holds the lock by then.
    let lockHeld = false;
    const r = await runInterrupted(
      world,
      ['plan', '--config', file],
      { moment: 'arrival', matches: (q) => q.path.startsWith('/api/'), nth: 1 },
      'SIGINT',
      () => {
        lockHeld = existsSync(lockFile);
      },
    );
    world.emulator.setFaults({ latency_ms: 0 });
    expect(lockHeld).toBe(true);
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('the state lock was released');
    expect(existsSync(join(world.dir, '.terraform.slow.tfstate.lock.info'))).toBe(false);
  });

  it('reads a data source that depends on a managed object once that object exists', async () => {
    const config = configWith({
      tenantform_infra_component: { owned: infra('Owned') },
      tenantform_tenant_setting: {
        after: {
          application_id: '${data.tenantform_application.backup.id}',
          tenant_id: '${data.tenantform_tenant.owner.id}',
          name: 'retention_days',
          value: '30',
        },
      },
    }) as { data: Record<string, Record<string, unknown>> };
    config.data = {
      ...config.data,
      tenantform_tenant: { ...config.data.tenantform_tenant, owner: { id: '${tenantform_infra_component.owned.owner_tenant_id}' } },
    };
    const file = writeConfig(world, config, 'late.tf.json');
    const apply = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(apply.stdout).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
    expect(apply.stderr.indexOf('data.tenantform_tenant.owner: Read complete')).toBeGreaterThan(
      apply.stderr.indexOf('tenantform_infra_component.owned: Creation complete'),
    );
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('force-unlock without a lock says so', async () => {
    const file = writeConfig(world, configWith({}));
    const r = await run(world, ['force-unlock', '0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('The state is not locked');
  });
});
