import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMON_DATA, infra, run, writeConfig } from '../cli/helpers';
import { gitlabBackend, startHttpStateServer } from '../helpers/http-state-server';
import { expectOtherStackNotApplied, terraformPlan, withWorld } from './helpers';

const REQUIRED = { required_providers: { tenantform: { source: 'tenantform/tenantform' } } };

/** A reference between stacks, as cdktf synthesizes it: an output in one, terraform_remote_state in the other. */
describe('terraform_remote_state', () => {
  const session = withWorld();

  it("reads another stack's outputs from its local state, and Terraform agrees", async () => {
    const { world } = session;
    mkdirSync(join(world.dir, 'network'));
    mkdirSync(join(world.dir, 'sites'));
    writeConfig(
      world,
      {
        terraform: REQUIRED,
        provider: { tenantform: [{}] },
        data: { tenantform_tenant: COMMON_DATA.tenantform_tenant },
        resource: { tenantform_infra_component: { primary: infra('Primary storage') } },
        output: {
          'cross-stack-output-primary-id': { value: '${tenantform_infra_component.primary.id}', sensitive: true },
          primary_name: { value: '${tenantform_infra_component.primary.name}' },
        },
      },
      'network/main.tf.json',
    );
    const first = await run(world, ['apply', '--config', 'network/main.tf.json', '--state', 'network/terraform.tfstate', '--auto-approve']);
    expect(first.code).toBe(0);
    const primaryId = (JSON.parse(readFileSync(join(world.dir, 'network/terraform.tfstate'), 'utf8')) as { outputs: Record<string, { value: string }> })
      .outputs['cross-stack-output-primary-id'].value;

    writeConfig(
      world,
      {
        terraform: REQUIRED,
        provider: { tenantform: [{}] },
        data: {
          tenantform_tenant: COMMON_DATA.tenantform_tenant,
          terraform_remote_state: { 'cross-stack-reference-input-network': { backend: 'local', config: { path: '../network/terraform.tfstate' } } },
        },
        resource: {
          tenantform_infra_component: {
            mirror: infra('Mirror', {
              name: 'Mirror of ${data.terraform_remote_state.cross-stack-reference-input-network.outputs.primary_name}',
              content_url:
                'https://mirror.example.com/${data.terraform_remote_state.cross-stack-reference-input-network.outputs.cross-stack-output-primary-id}',
            }),
          },
        },
      },
      'sites/main.tf.json',
    );
    const args = ['--config', 'sites/main.tf.json', '--state', 'sites/terraform.tfstate'];
    const plan = await run(world, ['plan', ...args]);
    expect(plan.stderr).not.toMatch(/Error|Warning/);
    expect(plan.stdout).toContain('"Mirror of Primary storage"');
    // As in Terraform, the other stack's outputs are not sensitive here.
    expect(plan.stdout).toContain(`content_url     = "https://mirror.example.com/${primaryId}"`);

    expect((await run(world, ['apply', ...args, '--auto-approve'])).code).toBe(0);
    const state = JSON.parse(readFileSync(join(world.dir, 'sites/terraform.tfstate'), 'utf8')) as {
      resources: Array<{ name: string; instances: Array<{ attributes: Record<string, unknown> }> }>;
    };
    expect(state.resources.find((r) => r.name === 'mirror')!.instances[0].attributes.content_url).toBe(`https://mirror.example.com/${primaryId}`);
    expect((await run(world, ['plan', ...args, '--detailed-exitcode'])).code).toBe(0);

    const tfPlan = await terraformPlan(world, join(world.dir, 'sites'), 'language-remote');
    expect(tfPlan.output).toContain('No changes');
    expect(tfPlan.code).toBe(0);
  }, 240_000);

  it("reads another stack's outputs from an http backend without taking its lock, and Terraform agrees", async () => {
    const { world } = session;
    const server = await startHttpStateServer();
    try {
      mkdirSync(join(world.dir, 'http-network'));
      mkdirSync(join(world.dir, 'http-sites'));
      const auth = { TF_HTTP_USERNAME: server.username, TF_HTTP_PASSWORD: server.password };
      writeConfig(
        world,
        {
          terraform: { ...REQUIRED, backend: { http: gitlabBackend(server, 'network') } },
          provider: { tenantform: [{}] },
          data: { tenantform_tenant: COMMON_DATA.tenantform_tenant },
          resource: { tenantform_infra_component: { primary: infra('Remote primary') } },
          output: { 'cross-stack-output-primary-id': { value: '${tenantform_infra_component.primary.id}', sensitive: true } },
        },
        'http-network/main.tf.json',
      );
      const remote = { backend: 'http', config: { address: gitlabBackend(server, 'network').address, username: server.username, password: server.password } };
      writeConfig(
        world,
        {
          terraform: REQUIRED,
          provider: { tenantform: [{}] },
          data: { tenantform_tenant: COMMON_DATA.tenantform_tenant, terraform_remote_state: { network: remote } },
          resource: {
            tenantform_infra_component: {
              mirror: infra('Remote mirror', {
                content_url: 'https://mirror.example.com/${data.terraform_remote_state.network.outputs.cross-stack-output-primary-id}',
              }),
            },
          },
        },
        'http-sites/main.tf.json',
      );
      const args = ['--config', 'http-sites/main.tf.json', '--state', 'http-sites/terraform.tfstate'];

      // Before the other stack is applied there is no state to read.
      await expectOtherStackNotApplied(world, args, server.password);

      expect((await run(world, ['apply', '--config', 'http-network/main.tf.json', '--auto-approve'], auth)).code).toBe(0);
      const primaryId = (JSON.parse(server.state('network')!) as { outputs: Record<string, { value: string }> }).outputs['cross-stack-output-primary-id'].value;

      const requestsBefore = server.log.length;
      const plan = await run(world, ['plan', ...args]);
      expect(plan.stderr).toBe('');
      expect(plan.stdout).toContain(`content_url     = "https://mirror.example.com/${primaryId}"`);
      expect(plan.stdout).not.toContain(server.password);
      // The other stack's state is read, never locked.
      expect(server.log.slice(requestsBefore)).toEqual(['GET /api/v4/projects/42/terraform/state/network 200']);

      expect((await run(world, ['apply', ...args, '--auto-approve'])).code).toBe(0);
      expect((await run(world, ['plan', ...args, '--detailed-exitcode'])).code).toBe(0);
      const tfPlan = await terraformPlan(world, join(world.dir, 'http-sites'), 'language-remote-http');
      expect(tfPlan.output).toContain('No changes');
      expect(tfPlan.code).toBe(0);
    } finally {
      await server.close();
    }
  }, 240_000);

  it('refuses a backend it cannot read, and a state that does not exist, naming the address', async () => {
    const { world } = session;
    const config = (remote: Record<string, unknown>) => ({
      provider: { tenantform: [{}] },
      data: { terraform_remote_state: { other: remote } },
      output: { x: { value: '${data.terraform_remote_state.other.outputs.x}' } },
    });
    const s3 = await run(world, [
      'plan',
      '--config',
      writeConfig(world, config({ backend: 's3', config: { bucket: 'b', key: 'k', secret_key: 'very-secret-key' } }), 's3.tf.json'),
    ]);
    expect(s3.code).toBe(1);
    expect(s3.stderr).toContain('data.terraform_remote_state.other');
    expect(s3.stderr).toContain('cdktf deploy');
    expect(s3.stderr).not.toContain('very-secret-key');
    const missing = await run(world, [
      'plan',
      '--config',
      writeConfig(world, config({ backend: 'local', config: { path: 'nowhere.tfstate' } }), 'missing.tf.json'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('apply the other stack first');
  });
});
