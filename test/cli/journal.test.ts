import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres';
import { configWith, infra, run, runInterrupted, startWorld, writeConfig, type World } from './helpers';

const STATE = 'terraform.main.tfstate';
const JOURNAL = `${STATE}.journal`;
/** Enough recorded objects that a pending create goes to the journal rather than a whole state write. */
const SETTINGS = 110;
const SITES = ['One', 'Two', 'Three', 'Four', 'Five', 'Six'];

function stack(withSites: boolean) {
  const settings = Object.fromEntries(
    Array.from({ length: SETTINGS }, (_, i) => [
      `s${i}`,
      {
        application_id: '${data.tenantform_application.backup.id}',
        tenant_id: '${data.tenantform_tenant.northwind.id}',
        name: `journal_${i}`,
        value: String(i),
      },
    ]),
  );
  const sites = Object.fromEntries(SITES.map((n) => [n.toLowerCase(), infra(`Site ${n}`)]));
  return configWith({ tenantform_tenant_setting: settings, ...(withSites ? { tenantform_infra_component: sites } : {}) });
}

const readJson = (world: World, file: string) => JSON.parse(readFileSync(join(world.dir, file), 'utf8'));

/** Where a backend keeps the state and the journal, as the test reads them behind tenantform's back. */
interface Place {
  readonly backend: Record<string, unknown> | undefined;
  state(): Promise<{ resources: Array<{ type: string }>; tenantform_pending?: unknown }>;
  /** The journal's lines, or undefined when there is none. */
  journal(): Promise<string | undefined>;
  /** Lets the next run in after the killed one (a local lock outlives its process; pg's goes with the session). */
  unlock(file: string): Promise<void>;
}

function localFile(world: World): Place {
  return {
    backend: undefined,
    state: async () => readJson(world, STATE),
    journal: async () => (existsSync(join(world.dir, JOURNAL)) ? readFileSync(join(world.dir, JOURNAL), 'utf8') : undefined),
    unlock: async (file) => {
      const lock = readJson(world, `.${STATE}.lock.info`);
      expect((await run(world, ['force-unlock', lock.ID, '--config', file])).code).toBe(0);
    },
  };
}

function postgres(url: string): Place {
  const query = async (text: string) => {
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      return (await c.query(text)).rows as Array<Record<string, string | null>>;
    } finally {
      await c.end();
    }
  };
  return {
    backend: { pg: { conn_str: url } },
    state: async () => JSON.parse((await query('SELECT data FROM terraform_remote_state.states'))[0].data!),
    journal: async () =>
      (await query("SELECT string_agg(line, E'\\n' ORDER BY seq) AS lines FROM terraform_remote_state.tenantform_journal"))[0].lines ?? undefined,
    unlock: async () => undefined,
  };
}

describe.each([
  ['a local state file', 'local'],
  ['a pg backend', 'pg'],
])('the apply journal beside %s', (_, kind) => {
  let world: World;
  let pg: RunningPostgres | undefined;
  let place: Place;
  beforeAll(async () => {
    world = await startWorld();
    if (kind === 'pg') pg = await startPostgres();
    place = pg ? postgres(await createDatabase(pg, 'journal')) : localFile(world);
  });
  afterAll(async () => {
    await world.close();
    await pg?.stop();
  });

  const withBackend = (config: Record<string, unknown>) => (place.backend ? { ...config, terraform: { backend: place.backend } } : config);

  it('keeps every finished object and the pending create through kill -9, and the next apply converges', async () => {
    const file = writeConfig(world, withBackend(stack(false)));
    const first = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(first.stdout).toContain(`Apply complete! Resources: ${SETTINGS} added`);
    expect(await place.journal()).toBeUndefined();

    writeConfig(world, withBackend(stack(true)));
    // Killed when the platform has handled the third create, before its answer leaves: that create
    // is recorded as pending, its answer never recorded.
    const isCreate = (r: { method: string; path: string }) => r.method === 'POST' && r.path === '/api/2/infra';
    const crashed = await runInterrupted(
      world,
      ['apply', '--config', file, '--auto-approve', '--parallelism', '1'],
      { moment: 'answer', matches: isCreate, nth: 3 },
      'SIGKILL',
    );
    expect(crashed.signal).toBe('SIGKILL');
    const finished = [...crashed.stderr.matchAll(/(tenantform_infra_component\.\w+): Creation complete/g)].map((m) => m[1]);
    expect(finished.length).toBeGreaterThanOrEqual(2);

    // The state was not rewritten per object: the finished components are in the journal.
    const stored = await place.state();
    expect(stored.resources.filter((r) => r.type === 'tenantform_infra_component')).toEqual([]);
    expect(await place.journal()).toContain('"op":"pending"');
    await place.unlock(file);

    // Loading the state replays the journal: what finished is known, nothing is created twice.
    const plan = await run(world, ['plan', '--config', file, '--format', 'json']);
    const changes = JSON.parse(plan.stdout).resource_changes as Array<{ address: string; change: { actions: string[] } }>;
    const creates = changes.filter((c) => c.change.actions.join() === 'create').map((c) => c.address);
    for (const address of finished) expect(creates).not.toContain(address);
    expect(creates.length).toBeLessThanOrEqual(SITES.length - finished.length);

    const resumed = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(resumed.code).toBe(0);
    const components = await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')));
    expect(components.map((c) => c.name).sort()).toEqual(SITES.map((n) => `Site ${n}`).sort());

    // The end of the apply wrote the whole state and removed the journal.
    expect(await place.journal()).toBeUndefined();
    const state = await place.state();
    expect(state.resources.filter((r) => r.type === 'tenantform_infra_component')).toHaveLength(SITES.length);
    expect(state.tenantform_pending).toBeUndefined();
    const again = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(again.code).toBe(0);
  });
});
