import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, runInterrupted, startWorld, writeConfig, type World } from './helpers';

function readState(world: World, file = 'terraform.main.tfstate') {
  return JSON.parse(readFileSync(join(world.dir, file), 'utf8'));
}

function infraId(world: World, name: string): string {
  return readState(world).resources.find((r: { name: string }) => r.name === name).instances[0].attributes.id;
}

describe('saved plans and concurrent changes', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('applies a fresh saved plan, refuses a stale one and never overwrites a concurrent change', async () => {
    let file = writeConfig(world, configWith({ tenantform_infra_component: { primary: infra('Primary') } }));
    expect((await run(world, ['plan', '--config', file, '--out', 'first.plan'])).code).toBe(0);
    const applied = await run(world, ['apply', 'first.plan', '--config', file]);
    expect(applied.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');

    // The same plan again: it was made when there was no state yet.
    const replayed = await run(world, ['apply', 'first.plan', '--config', file]);
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toContain('Saved plan is stale: The state');
    expect(replayed.stderr).toContain('was created after the plan was made');

    // A plan applied twice: the second time, another run has written the state in between.
    expect((await run(world, ['plan', '--config', file, '--out', 'again.plan'])).code).toBe(0);
    expect((await run(world, ['apply', 'again.plan', '--config', file])).code).toBe(0);
    const twice = await run(world, ['apply', 'again.plan', '--config', file]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/The state changed since the plan was made \(serial \d+, the plan saw \d+\): another run applied changes/);

    // A plan, then someone changes the component through the API, then the plan is applied.
    file = writeConfig(world, configWith({ tenantform_infra_component: { primary: infra('Primary', { backend_type: 'azure' }) } }));
    expect((await run(world, ['plan', '--config', file, '--out', 'second.plan', '--detailed-exitcode'])).code).toBe(2);
    const id = infraId(world, 'primary');
    const [live] = await world.client.getInfra([id]);
    await world.client.updateInfra(id, {
      name: 'Changed by a colleague',
      location_id: live.location_id!,
      url: live.url,
      capabilities: live.capabilities,
      version: live.version,
    });
    const stale = await run(world, ['apply', 'second.plan', '--config', file]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(
      `tenantform_infra_component.primary is at version ${live.version + 1} on the platform, but the plan saw version ${live.version}`,
    );
    expect((await world.client.getInfra([id]))[0]).toMatchObject({ name: 'Changed by a colleague', backend_type: null });

    // A changed configuration makes a saved plan stale too.
    expect((await run(world, ['plan', '--config', file, '--out', 'third.plan'])).code).toBe(0);
    file = writeConfig(world, configWith({ tenantform_infra_component: { primary: infra('Primary', { backend_type: 'acronis' }) } }));
    const changedConfig = await run(world, ['apply', 'third.plan', '--config', file]);
    expect(changedConfig.code).toBe(1);
    expect(changedConfig.stderr).toContain('The configuration changed since the plan was made.');
  });

  it('reports a version conflict met during apply, names both versions and overwrites nothing', async () => {
    const file = writeConfig(world, configWith({ tenantform_infra_component: { primary: infra('Primary', { backend_type: 'other' }) } }));
    expect((await run(world, ['plan', '--config', file, '--out', 'race.plan'])).code).toBe(0);
    const id = infraId(world, 'primary');
    // The colleague's change lands after the plan file was checked: simulated by a plan file whose check passes
    // (the seen version is rewritten), so the version conflict must come from the platform itself.
    const [live] = await world.client.getInfra([id]);
    await world.client.updateInfra(id, {
      name: 'Second colleague',
      location_id: live.location_id!,
      url: live.url,
      capabilities: live.capabilities,
      version: live.version,
    });
    const saved = JSON.parse(readFileSync(join(world.dir, 'race.plan'), 'utf8'));
    const change = saved.plan.changes.find((c: { address: string }) => c.address === 'tenantform_infra_component.primary');
    change.seen.version = live.version + 1;
    writeFileSync(join(world.dir, 'race.plan'), JSON.stringify(saved));
    const apply = await run(world, ['apply', 'race.plan', '--config', file]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('The object was changed by someone else');
    expect(apply.stderr).toContain(`is at version ${live.version + 1} on the platform, but this change was planned against version ${live.version}`);
    expect(apply.stderr).toContain('Apply failed for tenantform_infra_component.primary');
    expect((await world.client.getInfra([id]))[0].name).toBe('Second colleague');
  });
});

describe('a saved plan edited by hand', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('is refused when it replaces, creates or deletes what no plan would, before any request that changes anything', async () => {
    const file = writeConfig(world, configWith({ tenantform_infra_component: { one: infra('Site One'), two: infra('Site Two') } }));
    expect((await run(world, ['apply', '--config', file, '--auto-approve'])).code).toBe(0);
    expect((await run(world, ['plan', '--config', file, '--out', 'quiet.plan'])).code).toBe(0);
    const saved = JSON.parse(readFileSync(join(world.dir, 'quiet.plan'), 'utf8'));
    for (const change of saved.plan.changes) change.action = 'replace';
    writeFileSync(join(world.dir, 'edited.plan'), JSON.stringify(saved));
    world.requests.length = 0;
    const apply = await run(world, ['apply', 'edited.plan', '--config', file]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(
      "The plan's replace of tenantform_infra_component.one is not one a plan makes (no argument that forces a replacement changes)",
    );
    expect(world.requests.filter((q) => !q.startsWith('GET ') && !q.startsWith('POST /api/2/idp/token'))).toEqual([]);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);

    // A replacement a plan makes (a new owner) and a taint are applied from the saved plan.
    const moved = writeConfig(
      world,
      configWith({
        tenantform_infra_component: { one: { ...infra('Site One'), owner_tenant_id: '${data.tenantform_tenant.acme.id}' }, two: infra('Site Two') },
      }),
    );
    const state = JSON.parse(readFileSync(join(world.dir, 'terraform.main.tfstate'), 'utf8'));
    state.resources.find((r: { name: string }) => r.name === 'two').instances[0].status = 'tainted';
    writeFileSync(join(world.dir, 'terraform.main.tfstate'), JSON.stringify(state));
    expect((await run(world, ['plan', '--config', moved, '--out', 'replace.plan', '--detailed-exitcode'])).code).toBe(2);
    const replaced = await run(world, ['apply', 'replace.plan', '--config', moved]);
    expect(replaced.stdout).toContain('Apply complete! Resources: 2 added, 0 changed, 2 destroyed.');
  });

  it('applies a reviewed plan that creates again what an administrator deleted, and refuses it once the object is back', async () => {
    const backup = world.application('backup');
    const globex = world.tenant('Globex Retail');
    const file = writeConfig(
      world,
      configWith({ tenantform_application_binding: { globex_backup: { application_id: backup, tenant_id: globex } } }),
      'binding.tf.json',
    );
    const at = ['--config', file, '--state', 'binding.tfstate'];
    expect((await run(world, ['apply', ...at, '--auto-approve'])).code).toBe(0);

    // Deleted in the console: the reviewed plan creates it again, and applying that plan does.
    await world.client.disableApplication(backup, globex);
    const plan = await run(world, ['plan', ...at, '--out', 'repair.plan', '--detailed-exitcode']);
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    const repaired = await run(world, ['apply', 'repair.plan', ...at]);
    expect(repaired.stderr).not.toContain('stale');
    expect(repaired.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(await world.client.listTenantApplications(globex)).toContain(backup);
    expect((await run(world, ['plan', ...at, '--detailed-exitcode'])).code).toBe(0);

    // Deleted again, planned, then turned on again by hand before the apply: no second create.
    await world.client.disableApplication(backup, globex);
    expect((await run(world, ['plan', ...at, '--out', 'late.plan', '--detailed-exitcode'])).code).toBe(2);
    await world.client.enableApplication(backup, globex);
    const late = await run(world, ['apply', 'late.plan', ...at]);
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('tenantform_application_binding.globex_backup was deleted outside tenantform when the plan was made, but it exists again');
  });
});

describe('crashes and locking', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('leaves a valid state when killed mid-apply, and the next apply converges without duplicates', async () => {
    const names = ['One', 'Two', 'Three', 'Four'];
    const resources = {
      tenantform_infra_component: Object.fromEntries(names.map((n) => [n.toLowerCase(), infra(`Site ${n}`)])),
      tenantform_usage_report: {
        monthly: {
          result_action: 'save',
          parameters: { tenant_id: '${data.tenantform_tenant.northwind.id}', kind: 'usage_daily', level: 'itself' },
          schedule: { type: 'monthly' },
        },
      },
    };
    const file = writeConfig(world, configWith(resources));
    // The kill lands on an event, not a moment: when the platform has handled the second create
    // and before its answer leaves, so that create reaches the platform and never the state.
    const isCreate = (r: { method: string; path: string }) => r.method === 'POST' && (r.path === '/api/2/infra' || r.path === '/api/2/reports');
    const crashed = await runInterrupted(
      world,
      ['apply', '--config', file, '--auto-approve', '--parallelism', '1'],
      { moment: 'answer', matches: isCreate, nth: 2 },
      'SIGKILL',
    );
    expect(crashed.signal).toBe('SIGKILL');

    const state = readState(world);
    expect(state.version).toBe(4);
    expect(state.tenantform_pending).toHaveLength(1);
    // As with Terraform, the lock is the process's own record lock, gone with it; the record of
    // who held it stays behind and does not lock.
    expect(existsSync(join(world.dir, '.terraform.main.tfstate.lock.info'))).toBe(true);

    const resumed = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('Found the object of an interrupted create');
    const ids = await world.client.listTenantInfra(world.tenant('Northwind Partner'));
    const components = await world.client.getInfra(ids);
    expect(components.map((c) => c.name).sort()).toEqual(names.map((n) => `Site ${n}`).sort());
    expect(await world.client.listTenantReports(world.tenant('Northwind Partner'))).toHaveLength(1);
    expect(readState(world).tenantform_pending).toBeUndefined();

    const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
  });
});

describe('an interrupted rewrite of the local state', () => {
  let world: World;
  let file: string;
  const statePath = () => join(world.dir, 'terraform.main.tfstate');
  beforeAll(async () => {
    world = await startWorld();
    file = writeConfig(world, configWith({ tenantform_infra_component: { one: infra('Site One'), two: infra('Site Two') } }));
    expect((await run(world, ['apply', '--config', file, '--auto-approve'])).code).toBe(0);
  });
  afterAll(() => world.close());

  it("keeps the state, which holds API clients' secrets, readable by its owner only", async () => {
    // A second apply rewrites the state in place and keeps the previous one as .backup.
    expect((await run(world, ['apply', '--config', file, '--auto-approve', '--refresh-only'])).code).toBe(0);
    // Created by the lock on the default path (umask 022 here), and every file beside it.
    for (const f of [statePath(), `${statePath()}.backup`]) expect(statSync(f).mode & 0o777).toBe(0o600);
  });

  // What a kill leaves when it lands between writing `<state>.writing` and rewriting the locked file in place.
  it('puts a complete, newer .writing in place by itself, saying so, over an empty or an older state', async () => {
    const complete = readFileSync(statePath(), 'utf8');
    const { lineage, serial } = JSON.parse(complete) as { lineage: string; serial: number };
    const interruptedOver = async (left: string, writing: string): Promise<void> => {
      writeFileSync(`${statePath()}.writing`, writing);
      writeFileSync(statePath(), left);
      const plan = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
      expect(plan.stderr).toContain(`Warning: the last write of ${statePath()} was interrupted. ${statePath()}.writing held the complete state being written`);
      expect(plan.code).toBe(0);
      expect(plan.stdout).not.toContain('will be created');
      expect(readFileSync(statePath(), 'utf8')).toBe(writing);
      expect(existsSync(`${statePath()}.writing`)).toBe(false);
      // Once in place, nothing more to say.
      const again = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
      expect(again.code).toBe(0);
      expect(again.stderr).not.toContain('Warning');
    };
    // Killed after the locked file was emptied: the state it replaced is the .backup (same lineage, not newer).
    expect(JSON.parse(readFileSync(`${statePath()}.backup`, 'utf8'))).toMatchObject({ lineage });
    await interruptedOver('', complete);
    // Killed before the locked file was touched: it still holds the older state.
    await interruptedOver(complete, JSON.stringify({ ...JSON.parse(complete), serial: serial + 1 }, null, 2));
  });

  it('refuses a .writing whose being newer is not proven, naming the mv that puts it in place, and ignores an older .writing', async () => {
    const complete = readFileSync(statePath(), 'utf8');
    const state = JSON.parse(complete);
    // An empty state beside a .backup of another lineage: nothing says the .writing continues it.
    const backup = readFileSync(`${statePath()}.backup`, 'utf8');
    writeFileSync(`${statePath()}.backup`, JSON.stringify({ ...state, lineage: 'another-lineage' }));
    writeFileSync(`${statePath()}.writing`, complete);
    writeFileSync(statePath(), '');
    const empty = await run(world, ['plan', '--config', file, '--detailed-exitcode']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('The last write of the state was interrupted');
    expect(empty.stderr).toContain(`mv '${statePath()}.writing' '${statePath()}'`);
    expect(empty.stdout).not.toContain('will be created');
    writeFileSync(`${statePath()}.backup`, backup);
    renameSync(`${statePath()}.writing`, statePath());

    // A newer serial of the same lineage that is not a whole state.
    writeFileSync(`${statePath()}.writing`, JSON.stringify({ lineage: state.lineage, serial: state.serial + 1 }));
    const partial = await run(world, ['plan', '--config', file]);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toContain(`is at the older serial ${state.serial}`);
    expect(readFileSync(statePath(), 'utf8')).toBe(complete);

    writeFileSync(`${statePath()}.writing`, JSON.stringify({ ...state, serial: state.serial - 1 }));
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
    rmSync(`${statePath()}.writing`);
  });

  it('refuses a damaged apply journal, naming it and the line', async () => {
    const state = JSON.parse(readFileSync(statePath(), 'utf8'));
    const journal = `${statePath()}.journal`;
    writeFileSync(journal, `${JSON.stringify({ tenantform_journal: 1, lineage: state.lineage, serial: state.serial })}\n{"op":"remove","address":\n`);
    const refused = await run(world, ['plan', '--config', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The apply journal cannot be trusted');
    expect(refused.stderr).toContain(`${journal}, line 2: not a JSON line`);
    rmSync(journal);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
  });
});

describe('state and plan paths that are not regular files', () => {
  let world: World;
  let file: string;
  beforeAll(async () => {
    world = await startWorld();
    file = writeConfig(world, configWith({ tenantform_infra_component: { one: infra('Site One') } }));
  });
  afterAll(() => world.close());

  it('refuses a FIFO or a symbolic link as --state or --out, before any request, and leaves it as it was', async () => {
    const fifo = join(world.dir, 'state.fifo');
    execFileSync('mkfifo', [fifo]);
    const target = join(world.dir, 'real.tfstate');
    const link = join(world.dir, 'link.tfstate');
    symlinkSync(target, link);
    for (const args of [
      ['apply', '--auto-approve', '--state', fifo],
      ['apply', '--auto-approve', '--state', link],
      ['apply', '--auto-approve', '--lock=false', '--state', link],
      ['plan', '--state', 'fresh.tfstate', '--out', fifo],
    ]) {
      world.requests.length = 0;
      const r = await run(world, [...args, '--config', file]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Not a regular file');
      // Refused before the platform was asked to change anything.
      expect(world.requests.filter((q) => !q.startsWith('GET ') && !q.startsWith('POST /api/2/idp/token'))).toEqual([]);
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(existsSync(target)).toBe(false);
  });
  it('reads no configuration, variable file, saved plan or pushed state from a FIFO or a device: a clear error, not a hang or an abort', async () => {
    const fifo = join(world.dir, 'input.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [args, says] of [
      [['plan', '--config', file, '--var-file', '/dev/zero'], '/dev/zero: it is a device, not a regular file'],
      [['plan', '--config', file, '--var-file', fifo], `${fifo}: it is a FIFO, not a regular file`],
      [['plan', '--config', '/dev/zero'], 'Cannot read the configuration: /dev/zero: it is a device, not a regular file'],
      [['apply', fifo, '--config', file], `${fifo}: it is a FIFO, not a regular file`],
      [['state', 'push', '/dev/zero'], '/dev/zero cannot be read: it is a device, not a regular file'],
    ] as const) {
      world.requests.length = 0;
      const r = await run(world, [...args]);
      expect({ args, code: r.code, says: r.stderr.includes(says) }).toEqual({ args, code: 1, says: true });
      expect(world.requests.filter((q) => !q.startsWith('GET ') && !q.startsWith('POST /api/2/idp/token'))).toEqual([]);
    }
  });
});
