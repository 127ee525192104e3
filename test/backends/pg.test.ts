import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { PgBackend, pgSettings } from '../../src/backends/pg';
import { newLockInfo } from '../../src/backends/lock-info';
import { BackendSettings } from '../../src/backends/settings';
import { configWith, infra, run, start, startWorld, writeConfig, type World } from '../cli/helpers';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres';

/** The CLI as a process, its state in a real PostgreSQL (started once for this file) in Terraform's pg layout. */
describe('pg backend', () => {
  let world: World;
  let pg: RunningPostgres;
  beforeAll(async () => {
    [world, pg] = await Promise.all([startWorld(), startPostgres()]);
  });
  afterAll(async () => {
    await world.close();
    await pg.stop();
  });

  const rows = async (url: string, schema = 'terraform_remote_state') => {
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query(`SELECT id, name, data FROM "${schema}".states ORDER BY name`)).rows as { id: string; name: string; data: string }[];
    } finally {
      await c.end();
    }
  };

  it("keeps the state in Terraform's table; a fresh runner applies again without creating anything twice", async () => {
    const url = await createDatabase(pg, 'fresh_runner');
    const file = writeConfig(
      world,
      { ...configWith({ tenantform_infra_component: { site: infra('Fresh Runner Site') } }), terraform: { backend: { pg: { conn_str: url } } } },
      'fresh.tf.json',
    );
    const first = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(first.code).toBe(0);
    expect(first.stdout + first.stderr).not.toContain(pg.password);
    const [row] = await rows(url);
    expect(row.name).toBe('default');
    const state = JSON.parse(row.data) as { version: number; serial: number; resources: { name: string }[] };
    expect(state.version).toBe(4);
    expect(state.resources.map((r) => r.name)).toContain('site');

    // A fresh runner: only the configuration is there.
    for (const entry of readdirSync(world.dir)) if (entry !== file) rmSync(join(world.dir, entry), { recursive: true, force: true });
    const second = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('0 added');
    const components = await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')));
    expect(components.filter((c) => c.name === 'Fresh Runner Site')).toHaveLength(1);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
    expect(readdirSync(world.dir).filter((f) => f.includes('tfstate'))).toEqual([]);
  });

  it('reads PG_CONN_STR and PG_SCHEMA_NAME, and a lock held by another session makes plan wait or fail naming it', async () => {
    const url = await createDatabase(pg, 'locking');
    const file = writeConfig(world, { ...configWith({}), terraform: { backend: { pg: {} } } }, 'pglock.tf.json');
    const env = { PG_CONN_STR: url, PG_SCHEMA_NAME: 'team_states' };
    expect((await run(world, ['apply', '--config', file, '--auto-approve'], env)).code).toBe(0);
    expect((await rows(url, 'team_states')).map((r) => r.name)).toEqual(['default']);

    const holder = new PgBackend(
      pgSettings(new BackendSettings('pg', { conn_str: `${url}&application_name=nightly-apply`, schema_name: 'team_states' }, {}), 'default'),
    );
    const held = await holder.tryLock(newLockInfo('OperationTypeApply', 'test', 'x'));
    if (!('held' in held)) throw new Error('the test could not take the lock');
    try {
      const refused = await run(world, ['plan', '--config', file], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('The state is locked');
      expect(refused.stderr).toContain('nightly-apply');
      expect(refused.stderr).not.toContain(pg.password);
      // force-unlock cannot end another session's lock: it names the statement that would, with that session's pid.
      const pid = Number(/PostgreSQL session (\d+)/.exec(refused.stderr)?.[1]);
      expect(pid).toBeGreaterThan(0);
      const forced = await run(world, ['force-unlock', held.held.info.ID, '--config', file], env);
      expect(forced.code).toBe(1);
      expect(forced.stderr).toContain(`SELECT pg_terminate_backend(${pid})`);
      const waiting = start(world, ['plan', '--config', file, '--lock-timeout', '60s'], env);
      await new Promise((r) => setTimeout(r, 1500));
      expect(waiting.child.exitCode).toBeNull();
      await held.held.release();
      expect((await waiting.result).code).toBe(0);
    } finally {
      await holder.close();
    }
  });

  it('never shows the password when the database cannot be reached', async () => {
    const url = pg.connectionString('no_such_database');
    const file = writeConfig(world, { ...configWith({}), terraform: { backend: { pg: { conn_str: url } } } }, 'unreachable.tf.json');
    const before = world.requests.length;
    const r = await run(world, ['plan', '--config', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Cannot reach the state backend');
    expect(r.stderr).toContain('no_such_database');
    expect(r.stdout + r.stderr).not.toContain(pg.password);
    expect(world.requests.slice(before)).toEqual([]);
  });
});
