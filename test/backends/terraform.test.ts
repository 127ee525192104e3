import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBackend } from '../../src/backends';
import { newLockInfo } from '../../src/backends/lock-info';
import { StateStore } from '../../src/state/state';
import { configWith, infra, run as tenantform } from '../cli/helpers';
import { BACKEND_BLOCKS, withEveryBackend } from '../helpers/every-backend';
import { run } from '../provider/helpers';

jest.setTimeout(300_000);

/**
 * tenantform and the real `terraform` (with tenantform's provider) on the same backend: each
 * plans empty after the other's apply, and a lock held by one stops the other, naming the holder.
 */
describe('tenantform and terraform on one backend', () => {
  const running = withEveryBackend('backends');

  const stack = (backend: Record<string, unknown>, name: string) => ({
    ...configWith({ tenantform_infra_component: { site: infra(name) } }),
    terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } }, backend },
  });

  it.each(BACKEND_BLOCKS)('on the %s backend', async (type, backend) => {
    const { world, credentials: env, terraformEnv: tfEnv } = running();
    const block = await backend(running(), 'with-terraform');
    const dir = join(world.dir, `tf-${type}`);
    mkdirSync(dir, { recursive: true });
    const config = join(`tf-${type}`, 'main.tf.json');
    const write = (name: string) => writeFileSync(join(world.dir, config), JSON.stringify(stack(block, name), null, 2));
    const terraform = (...args: string[]) => run('terraform', args, { cwd: dir, env: { ...tfEnv, ...env } });

    write(`Shared ${type}`);
    const applied = await tenantform(world, ['apply', '--config', config, '--auto-approve'], env);
    expect(applied.code).toBe(0);
    const init = await terraform('init', '-input=false', '-no-color');
    expect(init.output).toContain('Terraform has been successfully initialized');
    const tfPlan = await terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
    expect(tfPlan.output).toContain('No changes.');
    expect(tfPlan.code).toBe(0);

    write(`Shared ${type} renamed by terraform`);
    const tfApply = await terraform('apply', '-auto-approve', '-input=false', '-no-color');
    expect(tfApply.output).toContain('1 changed');
    const planned = await tenantform(world, ['plan', '--config', config, '--detailed-exitcode'], env);
    expect(planned.stdout).toContain('No changes');
    expect(planned.code).toBe(0);

    // terraform holds the lock while it waits for approval.
    write(`Shared ${type} pending approval`);
    const waiting = spawn('terraform', ['apply', '-no-color'], { cwd: dir, env: { ...tfEnv, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let tfOut = '';
    waiting.stdout.on('data', (c: Buffer) => (tfOut += c.toString()));
    waiting.stderr.on('data', (c: Buffer) => (tfOut += c.toString()));
    const exited = new Promise<number | null>((r) => waiting.once('close', r));
    for (let i = 0; i < 600 && !tfOut.includes('Enter a value'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(tfOut).toContain('Enter a value');
    const refused = await tenantform(world, ['plan', '--config', config, '--lock-timeout', '2s'], env);
    waiting.stdin.write('no\n');
    await exited;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The state is locked');
    expect(refused.stderr).toContain(type === 'pg' ? 'PostgreSQL session' : 'OperationTypeApply');

    // tenantform's lock (the same code its commands run) stops terraform, which names the holder.
    const holder = openBackend({ configFile: join(world.dir, config), defaultState: '', cwd: world.dir, env: { ...process.env, ...env } });
    const held = await holder.tryLock({ ...newLockInfo('OperationTypeApply', 'test', type), Who: 'carol@tenantform-runner' });
    if (!('held' in held)) throw new Error('the test could not take the lock');
    try {
      const blocked = await terraform('plan', '-input=false', '-no-color', '-lock-timeout=1s');
      expect(blocked.code).toBe(1);
      expect(blocked.output).toContain('Error acquiring the state lock');
      // Terraform names the holder as each backend lets it: the record (local), the lock ID (http).
      if (type === 'local') expect(blocked.output).toContain('carol@tenantform-runner');
      if (type === 'http') expect(blocked.output).toContain(`ID=${held.held.info.ID}`);
    } finally {
      await held.held.release();
      await holder.close();
    }
    expect((await terraform('plan', '-input=false', '-no-color')).code).toBe(0);

    if (type === 'pg') {
      // A fresh runner: nothing but the configuration; the state is in PostgreSQL.
      for (const entry of readdirSync(dir)) if (entry !== 'main.tf.json') rmSync(join(dir, entry), { recursive: true, force: true });
      write(`Shared ${type} renamed by terraform`);
      const again = await tenantform(world, ['apply', '--config', config, '--auto-approve'], env);
      expect(again.stdout).toContain('0 added');
      const components = await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')));
      expect(components.filter((c) => c.name.startsWith('Shared pg'))).toHaveLength(1);
    }
  });

  it('local: a terraform run waiting for the lock sees what the holder wrote, and its own write lands in the state file', async () => {
    const { world, terraformEnv: tfEnv } = running();
    const dir = join(world.dir, 'tf-waiting');
    mkdirSync(dir, { recursive: true });
    const config = join('tf-waiting', 'main.tf.json');
    const write = (name: string) => writeFileSync(join(world.dir, config), JSON.stringify(stack({ local: { path: 'waiting.tfstate' } }, name), null, 2));
    let terraformPid: number | undefined;
    const terraform = (...args: string[]) => run('terraform', args, { cwd: dir, env: tfEnv, started: (pid) => (terraformPid = pid) });
    write('Waiting site');
    expect((await tenantform(world, ['apply', '--config', config, '--auto-approve'])).code).toBe(0);
    expect((await terraform('init', '-input=false', '-no-color')).code).toBe(0);

    const holder = openBackend({ configFile: join(world.dir, config), defaultState: '', cwd: world.dir, env: {} });
    const held = await holder.tryLock(newLockInfo('OperationTypeApply', 'test', 'waiting'));
    if (!('held' in held)) throw new Error('the test could not take the lock');
    write('Waiting site renamed');
    const waiting = terraform('apply', '-auto-approve', '-input=false', '-no-color', '-lock-timeout=120s');
    // The moment: terraform holds the state file open, waiting for its lock.
    await holdsOpen(() => terraformPid, join(dir, 'waiting.tfstate'), waiting);
    // The holder writes while terraform waits with the state file open.
    const state = await StateStore.load(holder);
    await state.save();
    const written = state.serial;
    await held.held.release();
    await holder.close();
    const applied = await waiting;
    expect(applied.output).toContain('1 changed');
    const final = JSON.parse(readFileSync(join(dir, 'waiting.tfstate'), 'utf8')) as {
      serial: number;
      resources: { instances: { attributes: { name: string } }[] }[];
    };
    expect(final.serial).toBeGreaterThan(written);
    expect(JSON.stringify(final.resources)).toContain('Waiting site renamed');
    expect((await tenantform(world, ['plan', '--config', config, '--detailed-exitcode'])).code).toBe(0);
  });
});

/**
 * Resolves once the process holds `file` open (as Linux lists its descriptors), or fails when
 * the process ends first: a moment observed, not a duration guessed.
 */
async function holdsOpen(pid: () => number | undefined, file: string, ended: Promise<unknown>): Promise<void> {
  let over = false;
  void ended.then(() => (over = true));
  const open = (): boolean => {
    const p = pid();
    if (p === undefined) return false;
    try {
      return readdirSync(`/proc/${p}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${p}/fd/${fd}`) === file;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  };
  while (!open()) {
    if (over) throw new Error(`the process ended before it opened ${file}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
