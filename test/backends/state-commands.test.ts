import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBackend } from '../../src/backends';
import { newLockInfo } from '../../src/backends/lock-info';
import { configWith, infra, run, startWorld, writeConfig, type World } from '../cli/helpers';
import { gitlabBackend, startHttpStateServer, type HttpStateServer } from '../helpers/http-state-server';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres';

/** `tenantform state ...` as a process, on each backend tenantform speaks. */
describe('tenantform state', () => {
  let world: World;
  let pg: RunningPostgres;
  let server: HttpStateServer;
  beforeAll(async () => {
    [world, pg, server] = await Promise.all([startWorld(), startPostgres(), startHttpStateServer()]);
  });
  afterAll(async () => {
    await world.close();
    await pg.stop();
    await server.close();
  });

  const backends: [string, () => Promise<Record<string, unknown>>][] = [
    ['local', async () => ({ local: { path: 'edited.tfstate' } })],
    ['pg', async () => ({ pg: { conn_str: await createDatabase(pg, 'state_commands') } })],
    ['http', async () => ({ http: { ...gitlabBackend(server, 'edited'), username: server.username, password: server.password } })],
  ];

  it.each(backends)(
    'list, show, pull, mv, rm and push on the %s backend, under the lock',
    async (type, backend) => {
      const block = await backend();
      const config = { ...configWith({ tenantform_infra_component: { one: infra('State One'), two: infra('State Two') } }), terraform: { backend: block } };
      const file = writeConfig(world, config, `state-${type}.tf.json`);
      const state = (...args: string[]) => run(world, ['state', ...args, '--config', file]);
      expect((await run(world, ['apply', '--config', file, '--auto-approve'])).code).toBe(0);

      const list = await state('list');
      expect(list.stdout.split('\n').filter((l) => l.startsWith('tenantform_'))).toEqual(['tenantform_infra_component.one', 'tenantform_infra_component.two']);
      expect((await state('list', 'tenantform_infra_component.two')).stdout).toBe('tenantform_infra_component.two\n');
      const show = await state('show', 'tenantform_infra_component.one');
      expect(show.stdout).toContain('resource "tenantform_infra_component" "one" {');
      expect(show.stdout).toMatch(/name += "State One"/);
      expect((await state('show', 'tenantform_infra_component.nope')).code).toBe(1);

      const pulled = await state('pull');
      const before = JSON.parse(pulled.stdout) as { serial: number; lineage: string };
      const saved = join(mkdtempSync(join(tmpdir(), 'tenantform-pull-')), 'pulled.tfstate');
      writeFileSync(saved, pulled.stdout);

      // -dry-run says what would change and writes nothing (the serial below counts the two real edits).
      const wouldMove = await state('mv', '-dry-run', 'tenantform_infra_component.one', 'tenantform_infra_component.first');
      expect(wouldMove.stdout).toBe('Would move "tenantform_infra_component.one" to "tenantform_infra_component.first"\n');
      expect((await state('rm', '-dry-run', 'tenantform_infra_component.two')).stdout).toBe('Would remove tenantform_infra_component.two\n');
      expect((await state('list')).stdout).toContain('tenantform_infra_component.one\n');
      expect((await state('mv', 'tenantform_infra_component.one', 'tenantform_infra_component.first')).code).toBe(0);
      expect((await state('mv', 'tenantform_infra_component.two', 'tenantform_usage_report.two')).stderr).toContain('keeps its resource type');
      expect((await state('rm', 'tenantform_infra_component.two')).code).toBe(0);
      expect((await state('list')).stdout).toContain('tenantform_infra_component.first\n');
      expect((await state('list')).stdout).not.toContain('.two');
      const after = JSON.parse((await state('pull')).stdout) as { serial: number; lineage: string };
      expect(after.lineage).toBe(before.lineage);
      expect(after.serial).toBe(before.serial + 2);

      const older = await state('push', saved);
      expect(older.code).toBe(1);
      expect(older.stderr).toContain(`serial ${before.serial}, older`);
      writeFileSync(saved, JSON.stringify({ ...JSON.parse(pulled.stdout), lineage: 'another-lineage' }));
      expect((await state('push', saved)).stderr).toContain('lineage another-lineage');
      writeFileSync(saved, pulled.stdout);
      const forced = await state('push', saved, '--force');
      expect(forced.code).toBe(0);
      expect((await state('list')).stdout).toContain('tenantform_infra_component.one\n');
      expect(JSON.parse((await state('pull')).stdout).serial).toBe(after.serial + 1);
      expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);

      const holder = openBackend({ configFile: join(world.dir, file), defaultState: '', cwd: world.dir, env: {} });
      const held = await holder.tryLock({ ...newLockInfo('OperationTypeApply', 'test', 'x'), Who: 'bob@laptop' });
      if (!('held' in held)) throw new Error('the test could not take the lock');
      try {
        const locked = await state('rm', 'tenantform_infra_component.one');
        expect(locked.code).toBe(1);
        expect(locked.stderr).toContain('The state is locked');
        expect(locked.stderr).toContain(type === 'pg' ? 'PostgreSQL session' : 'bob@laptop');
        expect((await state('list')).stdout).toContain('tenantform_infra_component.one\n');
      } finally {
        await held.held.release();
        await holder.close();
      }
      const output = [list, show, pulled, forced].map((r) => r.stdout + r.stderr).join('');
      expect(output).not.toContain(pg.password);
      expect(output).not.toContain(server.password);
      // A dozen runs of the command: well over the default timeout on a loaded two-core machine.
    },
    240_000,
  );
});
