import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run as tenantform, startWorld, type CliResult, type World, renameInfraByHand } from '../cli/helpers';
import { startS3Server, type S3Server } from '../helpers/s3-server';
import { ensureBuilt, leftoverProviders, requireTerraform, run, terraformEnvironment } from '../provider/helpers';

jest.setTimeout(300_000);

/**
 * A stack whose state is in terraform's s3 backend (on a real S3-compatible server): terraform
 * applies it with tenantform's provider; tenantform plans, checks drift and reads the state
 * through terraform, and leaves applies to terraform.
 */
describe('a backend tenantform reads through terraform (s3)', () => {
  let world: World;
  let s3: S3Server;
  let tfEnv: NodeJS.ProcessEnv;
  const marker = `through-terraform-${process.pid}`;
  /** Every output tenantform printed, to check that the backend's secret is in none. */
  const printed: string[] = [];

  beforeAll(async () => {
    requireTerraform();
    await ensureBuilt();
    world = await startWorld();
    s3 = await startS3Server();
    tfEnv = await terraformEnvironment(world.dir, world.emulator, marker);
  });

  afterAll(async () => {
    await s3?.close();
    await world?.close();
  });

  const stack = (folder: string, backend: Record<string, unknown>, source = 'tenantform/tenantform') => {
    mkdirSync(join(world.dir, folder), { recursive: true });
    const config = { ...configWith({ tenantform_infra_component: { site: infra('Harbour site') } }) } as Record<string, unknown>;
    config.output = { site_id: { value: '${tenantform_infra_component.site.id}' } };
    config.terraform = { required_providers: { tenantform: { source } }, backend };
    writeFileSync(join(world.dir, folder, 'main.tf.json'), JSON.stringify(config, null, 2));
    return join(folder, 'main.tf.json');
  };

  /** tenantform as a CI job runs it: the backend's credentials in the environment, nothing of terraform's set-up. */
  const command = async (args: string[], env: NodeJS.ProcessEnv = s3.credentials): Promise<CliResult> => {
    const result = await tenantform(world, args, { ...env, HOME: join(world.dir, 'home'), CHECKPOINT_DISABLE: '1', TENANTFORM_PROVIDER_TEST_RUN: marker });
    printed.push(result.stdout, result.stderr);
    return result;
  };

  it('plans empty after terraform apply, reports drift, reads the state, and refuses to apply', async () => {
    stack('harbour', s3.backend('northwind/harbour.tfstate'));
    // tenantform runs where a CI job checks the stack out: a folder terraform has never initialized.
    const config = stack('runner', s3.backend('northwind/harbour.tfstate'));
    const terraform = (...args: string[]) =>
      run('terraform', [...args, '-input=false', '-no-color'], { cwd: join(world.dir, 'harbour'), env: { ...tfEnv, ...s3.credentials } });
    expect((await terraform('init')).code).toBe(0);
    const applied = await terraform('apply', '-auto-approve');
    expect(applied.output).toContain('1 added');

    const planned = await command(['plan', '--config', config, '--detailed-exitcode']);
    expect(planned.stdout).toContain('No changes.');
    expect(planned.code).toBe(0);
    expect(planned.stderr).toContain('`terraform state pull`, which takes no lock');
    expect(planned.stderr).toContain('s3 backend (bucket "tenantform-states", key "northwind/harbour.tfstate")');
    const comment = await command(['plan', '--config', config, '--format', 'markdown']);
    expect(comment.code).toBe(0);
    expect(comment.stdout).toContain('No changes');

    const listed = await command(['state', 'list', '--config', config]);
    expect(listed.stdout.split('\n')).toContain('tenantform_infra_component.site');
    const pulled = await command(['state', 'pull', '--config', config]);
    const recorded = JSON.parse(pulled.stdout) as { resources: { type: string; instances: { attributes: { id: string } }[] }[] };
    const id = recorded.resources.find((r) => r.type === 'tenantform_infra_component')!.instances[0].attributes.id;
    expect((await command(['state', 'show', 'tenantform_infra_component.site', '--config', config])).stdout).toContain('"Harbour site"');
    expect((await command(['output', '-raw', 'site_id', '--config', config])).stdout).toBe(id);
    expect((await command(['show', '--config', config])).stdout).toContain('resource "tenantform_infra_component" "site"');

    await renameInfraByHand(world.client, id, 'Renamed by hand');
    const drift = await command(['drift', '--config', config, '--ignore-unmanaged']);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('tenantform_infra_component.site');
    expect(drift.stdout).toContain('Renamed by hand');
    expect(drift.stderr).toContain('takes no lock');

    const refused = await command(['apply', '--config', config, '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('tenantform does not apply a stack on the "s3" backend');
    expect(refused.stderr).toContain('`terraform apply`');
    expect(refused.stderr).toContain('`cdktn deploy`');
    expect((await command(['apply', '--config', config, '--auto-approve', '--lock=false'])).code).toBe(1);
    expect((await command(['plan', '--config', config, '--out', 'harbour.plan'])).stderr).toContain(
      'tenantform does not save a plan for a stack on the "s3" backend',
    );
    expect((await command(['state', 'rm', 'tenantform_infra_component.site', '--config', config])).stderr).toContain('does not edit the state of');
    const [after] = await world.client.getInfra([id]);
    expect(after.name).toBe('Renamed by hand');

    // terraform, which holds the backend's lock, repairs the drift; tenantform then plans empty again.
    expect((await terraform('apply', '-auto-approve')).output).toContain('1 changed');
    expect((await command(['plan', '--config', config, '--detailed-exitcode'])).code).toBe(0);
    expect(await leftoverProviders(marker)).toEqual([]);
  });

  it('reads a backend configured in part, the rest given at terraform init: in the folder terraform initialised, or with TF_CLI_ARGS_init', async () => {
    // The block without its key, as teams write it when each environment gives its own key at init.
    const partial = { ...(s3.backend('northwind/partial.tfstate').s3 as Record<string, unknown>) };
    delete partial.key;
    const config = stack('partial', { s3: partial });
    const terraform = (...args: string[]) =>
      run('terraform', [...args, '-input=false', '-no-color'], { cwd: join(world.dir, 'partial'), env: { ...tfEnv, ...s3.credentials } });
    expect((await terraform('init', '-backend-config=key=northwind/partial.tfstate')).code).toBe(0);
    expect((await terraform('apply', '-auto-approve')).output).toContain('1 added');
    const planned = await command(['plan', '--config', config, '--detailed-exitcode']);
    expect(planned.stdout).toContain('No changes.');
    expect(planned.code).toBe(0);
    // A runner's fresh checkout, the key given as terraform users give it there.
    const runner = stack('partial-runner', { s3: partial });
    const fresh = await command(['state', 'list', '--config', runner], {
      ...s3.credentials,
      TF_CLI_ARGS_init: '-backend-config=key=northwind/partial.tfstate',
    });
    expect(fresh.code).toBe(0);
    expect(fresh.stdout.split('\n')).toContain('tenantform_infra_component.site');
  });

  it("initialises the backend with the provider under the address the stack names (a private registry's host)", async () => {
    const source = 'registry.example.com/platform-team/tenantform';
    stack('private', s3.backend('northwind/private.tfstate'), source);
    const runner = stack('private-runner', s3.backend('northwind/private.tfstate'), source);
    // terraform's own set-up for that address: a mirror written by `provider install --source`.
    const installed = await tenantform(world, ['provider', 'install', '--source', source, '--dir', join(world.dir, 'private-mirror'), '--print-cli-config']);
    expect(installed.code).toBe(0);
    writeFileSync(join(world.dir, 'private.tfrc'), installed.stdout);
    const terraform = (...args: string[]) =>
      run('terraform', [...args, '-input=false', '-no-color'], {
        cwd: join(world.dir, 'private'),
        env: { ...tfEnv, ...s3.credentials, TF_CLI_CONFIG_FILE: join(world.dir, 'private.tfrc') },
      });
    expect((await terraform('init')).code).toBe(0);
    expect((await terraform('apply', '-auto-approve')).output).toContain('1 added');

    // A runner's fresh checkout: tenantform's own `terraform init` finds the provider at that address.
    const planned = await command(['plan', '--config', runner, '--detailed-exitcode']);
    expect(planned.stderr).not.toContain('Failed to query available provider packages');
    expect(planned.stdout).toContain('No changes.');
    expect(planned.code).toBe(0);
    const listed = await command(['state', 'list', '--config', stack('private-state-runner', s3.backend('northwind/private.tfstate'), source)]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')).toContain('tenantform_infra_component.site');
  });

  it("names the backend, the terraform command and terraform's message when the credentials or the bucket are missing", async () => {
    const config = stack('runner', s3.backend('northwind/harbour.tfstate'));
    const noCredentials = await command(['plan', '--config', config], { AWS_REGION: 'us-east-1' });
    expect(noCredentials.code).toBe(1);
    expect(noCredentials.stderr).toContain('terraform could not read the "s3" backend');
    expect(noCredentials.stderr).toMatch(
      /`terraform (init|state pull)` failed while reading the s3 backend \(bucket "tenantform-states", key "northwind\/harbour.tfstate"\) of \S+runner/,
    );
    expect(noCredentials.stderr).toContain('credentials');

    const missing = stack('elsewhere', { s3: { ...(s3.backend('x.tfstate').s3 as object), bucket: 'no-such-bucket' } });
    const noBucket = await command(['state', 'list', '--config', missing]);
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toContain('`terraform init`');
    expect(noBucket.stderr).toContain('S3 bucket "no-such-bucket" does not exist');
  });

  it("never prints the backend's secret", () => {
    const secret = s3.credentials.AWS_SECRET_ACCESS_KEY!;
    expect(printed.length).toBeGreaterThan(0);
    for (const text of printed) expect(text).not.toContain(secret);
  });
});
