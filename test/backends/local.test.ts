import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalBackend, TENANTFORM_ONLY_LOCK } from '../../src/backends/local';
import { newLockInfo } from '../../src/backends/lock-info';
import { configWith, infra, run, start, startWorld, writeConfig, type World } from '../cli/helpers';

/** The CLI as a process against the emulator, with the stack's `terraform.backend` saying where the state is. */
describe('backends from terraform.backend', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  const withBackend = (backend: Record<string, unknown>, resources = {}) => ({ ...configWith(resources), terraform: { backend } });

  it.each([
    ['s3', { bucket: 'states', key: 'stack.tfstate', region: 'eu-west-1' }],
    ['azurerm', { storage_account_name: 'x', container_name: 'y', key: 'z' }],
  ])(
    'reads the %s backend through terraform: one it cannot reach is named with the failing step, apply is left to terraform, nothing is sent to the platform',
    async (type, settings) => {
      const file = writeConfig(world, withBackend({ [type]: settings }, { tenantform_infra_component: { a: infra('Elsewhere') } }), `${type}.tf.json`);
      const before = world.requests.length;
      // No cloud here: the backend's credentials are not found, and terraform says so.
      const offline = { AWS_EC2_METADATA_DISABLED: 'true' };
      for (const command of [['plan'], ['drift'], ['state', 'list']]) {
        const r = await run(world, [...command, '--config', file], offline);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`the ${type} backend`);
        expect(r.stderr).toContain('`terraform init` failed');
      }
      const apply = await run(world, ['apply', '--auto-approve', '--config', file], offline);
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain(`"${type}" backend`);
      expect(apply.stderr).toContain('terraform apply');
      expect(world.requests.slice(before)).toEqual([]);
      expect(existsSync(join(world.dir, `terraform.${type}.tfstate`))).toBe(false);
    },
  );

  it('keeps the state at the local backend path, relative to the stack directory as Terraform reads it', async () => {
    mkdirSync(join(world.dir, 'stacks', 'site'), { recursive: true });
    const file = writeConfig(
      world,
      withBackend({ local: { path: '../../states/site.tfstate' } }, { tenantform_infra_component: { a: infra('Pathed') } }),
      'stacks/site/cdk.tf.json',
    );
    const r = await run(world, ['apply', '--config', file, '--auto-approve']);
    expect(r.code).toBe(0);
    const state = JSON.parse(readFileSync(join(world.dir, 'states', 'site.tfstate'), 'utf8')) as { resources: { name: string }[] };
    expect(state.resources.map((x) => x.name)).toContain('a');
    expect(existsSync(join(world.dir, 'stacks', 'site', 'terraform.site.tfstate'))).toBe(false);
    expect(existsSync(join(world.dir, 'states', '.site.tfstate.lock.info'))).toBe(false);
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);
  });

  it('plan takes the lock: fails naming the holder, waits with --lock-timeout, skips it with --lock=false', async () => {
    const file = writeConfig(world, withBackend({ local: { path: 'locked.tfstate' } }), 'locked.tf.json');
    const holder = new LocalBackend(join(world.dir, 'locked.tfstate'), {});
    const attempt = await holder.tryLock({ ...newLockInfo('OperationTypeApply', 'test', 'locked.tfstate'), Who: 'alice@ci-runner-7' });
    if (!('held' in attempt)) throw new Error('the test could not take the lock');
    try {
      const refused = await run(world, ['plan', '--config', file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('The state is locked');
      expect(refused.stderr).toContain('alice@ci-runner-7');
      expect(refused.stderr).toContain('OperationTypeApply');
      expect(refused.stderr).toContain(attempt.held.info.ID);

      const timedOut = await run(world, ['plan', '--config', file, '--lock-timeout', '1s']);
      expect(timedOut.code).toBe(1);
      expect(timedOut.stderr).toContain('alice@ci-runner-7');

      const unlocked = await run(world, ['plan', '--config', file, '--lock=false']);
      expect(unlocked.code).toBe(0);

      const waiting = start(world, ['plan', '--config', file, '--lock-timeout', '60s']);
      await new Promise((r) => setTimeout(r, 1500));
      expect(waiting.child.exitCode).toBeNull();
      await attempt.held.release();
      const waited = await waiting.result;
      expect(waited.code).toBe(0);
    } finally {
      await attempt.held.release();
      await holder.close();
    }
  });

  it('does not count a lock record left by a crashed run as a lock, and force-unlock removes it', async () => {
    const file = writeConfig(world, withBackend({ local: { path: 'crashed.tfstate' } }), 'crashed.tf.json');
    const record = join(world.dir, '.crashed.tfstate.lock.info');
    const other = new LocalBackend(join(world.dir, 'crashed.tfstate'), {});
    const lockOf = async () => {
      const a = await other.tryLock(newLockInfo('OperationTypeApply', 'test', 'crashed.tfstate'));
      if (!('held' in a)) throw new Error('the test could not take the lock');
      return a.held.info.ID;
    };
    const first = await lockOf();
    const live = await run(world, ['force-unlock', first, '--config', file]);
    expect(live.code).toBe(1);
    expect(live.stderr).toContain('still running');
    // Its lock helper stops, as when the process holding the lock is killed: the record stays behind.
    await other.close();
    expect(existsSync(record)).toBe(true);
    expect((await run(world, ['plan', '--config', file])).code).toBe(0);

    const second = await lockOf();
    await other.close();
    expect((await run(world, ['force-unlock', 'not-the-id', '--config', file])).code).toBe(1);
    // As terraform spells it in automation: -force, the lock ID after it.
    const forced = await run(world, ['force-unlock', '-force', second, '--config', file]);
    expect(forced.code).toBe(0);
    expect(existsSync(record)).toBe(false);
  });
});

/** The CLI with a PATH that holds `node` and no `perl`, the helper of Terraform's lock. */
describe('the local backend where Perl cannot run', () => {
  let world: World;
  let bin: string;
  beforeAll(async () => {
    world = await startWorld();
    bin = mkdtempSync(join(tmpdir(), 'tenantform-no-perl-'));
    symlinkSync(process.execPath, join(bin, 'node'));
  });
  afterAll(async () => {
    rmSync(bin, { recursive: true, force: true });
    await world.close();
  });
  const withoutPerl = (env: NodeJS.ProcessEnv = {}) => ({ PATH: bin, ...env });
  const tenantformOnly = { [TENANTFORM_ONLY_LOCK.variable]: TENANTFORM_ONLY_LOCK.value };

  it('refuses to lock unless told the lock need not exclude terraform; told, locks against tenantform runs and writes the state', async () => {
    const config = { ...configWith({ tenantform_infra_component: { a: infra('Perl-less') } }), terraform: { backend: { local: { path: 'no-perl.tfstate' } } } };
    const file = writeConfig(world, config, 'no-perl.tf.json');
    const statePath = join(world.dir, 'no-perl.tfstate');
    const lockInfo = join(world.dir, '.no-perl.tfstate.lock.info');

    const before = world.requests.length;
    const refused = await run(world, ['apply', '--auto-approve', '--config', file], withoutPerl());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The state cannot be locked against Terraform');
    expect(refused.stderr).toContain('perl could not be started: install Perl');
    expect(refused.stderr).toContain('TENANTFORM_LOCAL_LOCK=tenantform-only');
    expect(world.requests.slice(before)).toEqual([]);
    expect(existsSync(statePath)).toBe(false);
    expect(existsSync(lockInfo)).toBe(false);

    const applied = await run(world, ['apply', '--auto-approve', '--config', file], withoutPerl(tenantformOnly));
    expect(applied.code).toBe(0);
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as {
      serial: number;
      resources: { name: string; instances: { attributes: { id: string; name: string } }[] }[];
    };
    const written = state.resources.find((r) => r.name === 'a');
    expect(written?.instances[0].attributes.name).toBe('Perl-less');
    const [created] = await world.client.getInfra([written?.instances[0].attributes.id ?? '']);
    expect(created.name).toBe('Perl-less');
    expect(existsSync(lockInfo)).toBe(false);
    // The same state, read under Terraform's lock where Perl runs: nothing left to do.
    expect((await run(world, ['plan', '--config', file, '--detailed-exitcode'])).code).toBe(0);

    // Told, the lock-info file is the lock: a run that finds one waits for its holder.
    writeFileSync(lockInfo, JSON.stringify({ ...newLockInfo('OperationTypeApply', 'test', 'no-perl.tfstate'), Who: 'bob@laptop' }));
    const busy = await run(world, ['plan', '--config', file], withoutPerl(tenantformOnly));
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain('bob@laptop');
  });
});
