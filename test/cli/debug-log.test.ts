/**
 * `TF_LOG` as Terraform users know it: natively, every request of a plan with its status and
 * duration, a retry with its reason, the lock and the state's reads and writes, on stderr or in
 * `TF_LOG_PATH`; through `terraform`, the provider's requests among Terraform's own logs. Never
 * a credential, a token or an authorization header.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, requireTerraform, run as runProcess, terraformEnvironment } from '../provider/helpers';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

jest.setTimeout(180_000);

const REQUIRED = { required_providers: { tenantform: { source: 'tenantform/tenantform' } } };

describe('TF_LOG', () => {
  let world: World;
  const tenantform = (args: string[], env: NodeJS.ProcessEnv = {}) => run(world, [...args, '--config', 'main.tf.json', '--state', 'terraform.tfstate'], env);
  /** What no log may hold: the client's secret, and any bearer token or authorization header. */
  const expectNoSecret = (text: string) => {
    expect(text).not.toContain(world.emulator.clientSecret);
    expect(text).not.toMatch(/bearer|authorization|access_token/i);
  };

  beforeAll(async () => {
    world = await startWorld();
    writeConfig(world, { ...configWith({ tenantform_infra_component: { site: infra('Logged Site') } }), terraform: REQUIRED });
  });
  afterAll(() => world.close());

  it('is off without TF_LOG: stderr holds no log line', async () => {
    const plan = await tenantform(['plan']);
    expect(plan.code).toBe(0);
    expect(plan.stderr).not.toMatch(/\[(DEBUG|INFO|WARN)\]/);
  });

  it('TF_LOG=debug shows every request with its status and duration, and the lock and the state', async () => {
    const before = world.requests.length;
    const applied = await tenantform(['apply', '--auto-approve'], { TF_LOG: 'debug' });
    expect(applied.code).toBe(0);
    const log = applied.stderr;
    expect(log).toMatch(/\[INFO\] tenantform started: version=\S+ command=apply/);
    // One line per request the platform received.
    const sent = world.requests.slice(before).filter((r) => r.includes('/api/'));
    expect(sent.length).toBeGreaterThan(2);
    for (const request of sent) {
      const [method, path] = request.split(' ');
      expect(log).toContain(`[DEBUG] ${method} ${path}: status=`);
    }
    expect(log).toMatch(/\[DEBUG\] POST \/api\/2\/infra: status=20\d ms=\d+ attempt=1/);
    expect(log).toMatch(/\[DEBUG\] state lock: backend=local location=\S+ outcome=taken lock_id=[0-9a-f-]+ ms=\d+/);
    expect(log).toMatch(/\[DEBUG\] state written: backend=local location=\S+ bytes=\d+/);
    expect(log).toMatch(/\[DEBUG\] state lock released/);
    expectNoSecret(log);
  });

  it('a retried request is a WARN line with its reason; TF_LOG_PATH takes the lines off stderr', async () => {
    const path = join(world.dir, 'tenantform.log');
    world.emulator.loseAnswer((r) => r.method === 'GET' && r.path.startsWith('/api/2/infra'));
    const plan = await tenantform(['plan'], { TF_LOG: 'DEBUG', TF_LOG_PATH: path });
    expect(plan.code).toBe(0);
    expect(plan.stderr).not.toMatch(/\[(DEBUG|WARN)\]/);
    const log = readFileSync(path, 'utf8');
    expect(log).toMatch(/\[WARN\] GET \/api\/2\/infra\S+ failed, retrying: ms=\d+ attempt=1 reason=\S+ retry_in_ms=\d+/);
    expect(log).toMatch(/\[DEBUG\] GET \/api\/2\/infra\S+: status=200 ms=\d+ attempt=2/);
    expectNoSecret(log);
  });

  it('through terraform, the provider’s requests are among terraform’s logs', async () => {
    requireTerraform();
    await ensureBuilt();
    const env = await terraformEnvironment(world.dir, world.emulator, `debug-log-${process.pid}`);
    const terraform = (...args: string[]) =>
      runProcess('terraform', [...args, '-input=false', '-no-color'], { cwd: world.dir, env: { ...env, TF_LOG: 'debug' } });
    expect((await terraform('init')).code).toBe(0);
    const plan = await terraform('plan');
    expect(plan.code).toBe(0);
    expect(plan.stderr).toMatch(/\[DEBUG\] provider\.terraform-provider-tenantform[^:]*: GET \/api\/2\/infra\S*: .*status=200/);
    expect(plan.stderr).toMatch(/provider\.terraform-provider-tenantform[^:]*: GET \S+: .*@module=tenantform/);
    expectNoSecret(plan.output);
  });
});
