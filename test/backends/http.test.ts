import { readdirSync } from 'node:fs';
import { HttpBackend, httpSettings } from '../../src/backends/http';
import { newLockInfo } from '../../src/backends/lock-info';
import { BackendSettings } from '../../src/backends/settings';
import { configWith, infra, run, start, startWorld, writeConfig, type World } from '../cli/helpers';
import { gitlabBackend, startHttpStateServer, type HttpStateServer } from '../helpers/http-state-server';

/** The CLI as a process, its state on a real HTTP state server that follows GitLab's conventions. */
describe('http backend', () => {
  let world: World;
  let server: HttpStateServer;
  beforeAll(async () => {
    [world, server] = await Promise.all([startWorld(), startHttpStateServer()]);
  });
  afterAll(async () => {
    await world.close();
    await server.close();
  });

  const auth = () => ({ TF_HTTP_USERNAME: server.username, TF_HTTP_PASSWORD: server.password });

  it("keeps the state on GitLab's managed state (POST lock, DELETE unlock, ?ID= on writes, basic auth from TF_HTTP_*)", async () => {
    const file = writeConfig(
      world,
      { ...configWith({ tenantform_infra_component: { site: infra('Gitlab Site') } }), terraform: { backend: { http: gitlabBackend(server, 'prod') } } },
      'gitlab.tf.json',
    );
    const r = await run(world, ['apply', '--config', file, '--auto-approve'], auth());
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(server.password);
    const state = JSON.parse(server.state('prod') ?? '{}') as { resources: { name: string }[] };
    expect(state.resources.map((x) => x.name)).toContain('site');
    expect(server.lock('prod')).toBeUndefined();
    const calls = server.log.map((l) => l.replace(/ID=[0-9a-f-]+/, 'ID=<id>'));
    expect(calls[0]).toBe('POST /api/v4/projects/42/terraform/state/prod/lock 200');
    expect(calls).toContain('GET /api/v4/projects/42/terraform/state/prod 404');
    expect(calls).toContain('POST /api/v4/projects/42/terraform/state/prod?ID=<id> 200');
    expect(calls.at(-1)).toBe('DELETE /api/v4/projects/42/terraform/state/prod/lock 200');
    expect(readdirSync(world.dir).filter((f) => f.includes('tfstate'))).toEqual([]);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'], auth())).code).toBe(0);
  });

  it('takes the credentials written in the address when no setting gives any, as terraform does, and never shows them', async () => {
    const withUser = server.url.replace('://', `://${encodeURIComponent(server.username)}:${encodeURIComponent(server.password)}@`);
    const file = writeConfig(
      world,
      {
        ...configWith({ tenantform_infra_component: { site: infra('Userinfo Site') } }),
        terraform: { backend: { http: gitlabBackend(server, 'userinfo', withUser) } },
      },
      'userinfo.tf.json',
    );
    const r = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(server.password);
    expect(JSON.parse(server.state('userinfo') ?? '{}').resources.map((x: { name: string }) => x.name)).toContain('site');

    // Given both, the username and password settings win over stale credentials in the address.
    const stale = server.url.replace('://', '://old-user:0ld-Pa55word@');
    const both = writeConfig(
      world,
      {
        ...configWith({ tenantform_infra_component: { site: infra('Userinfo Site') } }),
        terraform: { backend: { http: gitlabBackend(server, 'userinfo', stale) } },
      },
      'userinfo-both.tf.json',
    );
    const plan = await run(world, ['plan', '--config', both, '--detailed-exitcode'], auth());
    expect(plan.code).toBe(0);
    expect(plan.stdout + plan.stderr).not.toMatch(/0ld-Pa55word|old-user/);
    expect(plan.stdout + plan.stderr).not.toContain(server.password);
  });

  it('groups the whole-state writes of objects recorded together, there being no journal on http', async () => {
    const sites = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`grouped_${i}`, infra(`Grouped Site ${i}`)]));
    const file = writeConfig(
      world,
      { ...configWith({ tenantform_infra_component: sites }), terraform: { backend: { http: gitlabBackend(server, 'grouped') } } },
      'grouped.tf.json',
    );
    world.emulator.setFaults({ latency_ms: 100 });
    const r = await run(world, ['apply', '--config', file, '--auto-approve', '--parallelism', '10'], auth());
    world.emulator.setFaults({ latency_ms: 0 });
    expect(r.code).toBe(0);
    // Each create is recorded as pending before it is sent and again when it finishes: one write
    // each would be 40 writes; ten at a time, they share writes.
    const writes = server.log.filter((l) => /^POST \/api\/v4\/projects\/42\/terraform\/state\/grouped\?ID=/.test(l));
    expect(writes.length).toBeLessThan(20);
    const state = JSON.parse(server.state('grouped') ?? '{}') as { resources: { name: string }[]; tenantform_pending?: unknown };
    expect(state.resources.filter((x) => x.name.startsWith('grouped_'))).toHaveLength(20);
    expect(state.tenantform_pending).toBeUndefined();
  });

  it('warns on every run that skip_cert_verification leaves the server unverified', async () => {
    const file = writeConfig(
      world,
      { ...configWith({}), terraform: { backend: { http: { ...gitlabBackend(server, 'unverified'), skip_cert_verification: true } } } },
      'unverified.tf.json',
    );
    const r = await run(world, ['plan', '--config', file], auth());
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toContain("The state backend's certificate is not verified");
    expect(r.stdout + r.stderr).not.toContain(server.password);
  });

  it("speaks Terraform's default LOCK and UNLOCK methods, with the address from TF_HTTP_ADDRESS", async () => {
    const file = writeConfig(world, { ...configWith({}), terraform: { backend: { http: {} } } }, 'defaults.tf.json');
    const address = `${server.url}/api/v4/projects/42/terraform/state/defaults`;
    const r = await run(world, ['apply', '--config', file, '--auto-approve'], {
      ...auth(),
      TF_HTTP_ADDRESS: address,
      TF_HTTP_LOCK_ADDRESS: `${address}/lock`,
      TF_HTTP_UNLOCK_ADDRESS: `${address}/lock`,
    });
    expect(r.code).toBe(0);
    expect(server.log).toContain('LOCK /api/v4/projects/42/terraform/state/defaults/lock 200');
    expect(server.log).toContain('UNLOCK /api/v4/projects/42/terraform/state/defaults/lock 200');
    expect(server.state('defaults')).toBeDefined();
  });

  it('a 423 names the holder; --lock-timeout waits for it; a wrong password is refused without showing it', async () => {
    const settings = gitlabBackend(server, 'held');
    const file = writeConfig(world, { ...configWith({}), terraform: { backend: { http: settings } } }, 'held.tf.json');
    const other = new HttpBackend(httpSettings(new BackendSettings('http', { ...settings, username: server.username, password: server.password }, {})));
    const held = await other.tryLock({ ...newLockInfo('OperationTypeApply', '1.11.0', 'held'), Who: 'runner@gitlab-42' });
    if (!('held' in held)) throw new Error('the test could not take the lock');
    try {
      const refused = await run(world, ['plan', '--config', file], auth());
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('runner@gitlab-42');
      expect(refused.stderr).toContain(held.held.info.ID);
      const waiting = start(world, ['plan', '--config', file, '--lock-timeout', '60s'], auth());
      await new Promise((r) => setTimeout(r, 1500));
      expect(waiting.child.exitCode).toBeNull();
      await held.held.release();
      expect((await waiting.result).code).toBe(0);
    } finally {
      await held.held.release();
      await other.close();
    }
    const stale = await other.tryLock(newLockInfo('OperationTypeApply', '1.11.0', 'held'));
    if (!('held' in stale)) throw new Error('the test could not take the lock');
    expect((await run(world, ['force-unlock', 'not-the-id', '--config', file], auth())).code).toBe(1);
    expect(server.lock('held')).toBeDefined();
    const unlocked = await run(world, ['force-unlock', stale.held.info.ID, '--config', file], auth());
    expect(unlocked.code).toBe(0);
    expect(server.lock('held')).toBeUndefined();
    // The http protocol does not say whether a lock was held: the message claims no removal.
    expect(unlocked.stdout).toContain(`accepted the unlock of ${stale.held.info.ID}. Its protocol does not say whether a lock with that ID was held`);
    expect(unlocked.stdout).not.toContain('Removed');
    const wrong = await run(world, ['plan', '--config', file], { TF_HTTP_USERNAME: server.username, TF_HTTP_PASSWORD: 'not-the-password-123' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('requires authentication');
    expect(wrong.stdout + wrong.stderr).not.toContain('not-the-password-123');
  });
});
