import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMON_DATA, infra, run, writeConfig } from '../cli/helpers';
import { terraformPlan, withWorld } from './helpers';

const SECRET = 'tag-9f8e7d6c-never-print';

/** Variables, locals, functions and outputs, planned and applied natively, then checked by Terraform through the provider. */
describe('variables, locals and outputs', () => {
  const session = withWorld();

  const stack = (extra: Record<string, unknown> = {}) => ({
    terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } } },
    variable: {
      site_name: { type: 'string', default: 'storage' },
      capabilities: {
        type: 'list(string)',
        default: ['backup'],
        validation: [{ condition: '${length(var.capabilities) > 0}', error_message: 'Give at least one capability.' }],
      },
      replicas: { type: 'number' },
      region: { type: 'string' },
      tag: { type: 'string', sensitive: true },
    },
    locals: { prefix: '${upper(var.region)}', full_name: '${format("%s %s", local.prefix, var.site_name)}' },
    provider: { tenantform: [{}] },
    data: { tenantform_tenant: COMMON_DATA.tenantform_tenant },
    resource: {
      tenantform_infra_component: {
        site: infra('x', {
          name: '${local.full_name}',
          capabilities: '${var.capabilities}',
          url: 'https://${lower(var.region)}.example.com/${var.replicas * 2}',
        }),
      },
    },
    output: {
      site_id: { value: '${tenantform_infra_component.site.id}' },
      site_name: { value: '${tenantform_infra_component.site.name}' },
      replicas: { value: '${var.replicas + 1}' },
      tag: { value: '${var.tag}', sensitive: true },
    },
    ...extra,
  });

  it('takes values from --var, --var-file and TF_VAR_, evaluates locals and functions, and records outputs', async () => {
    const dir = join(session.world.dir, 'vars');
    mkdirSync(dir);
    writeConfig(session.world, stack(), 'vars/main.tf.json');
    writeFileSync(join(dir, 'prod.tfvars'), 'region = "eu"\nreplicas = 2 # two sites\n');
    writeFileSync(join(dir, 'override.tfvars.json'), JSON.stringify({ replicas: 3 }));
    const args = [
      '--config',
      'vars/main.tf.json',
      '--state',
      'vars/terraform.tfstate',
      '--var-file',
      'vars/prod.tfvars',
      '--var-file',
      'vars/override.tfvars.json',
      '--var',
      'site_name=Primary',
    ];
    const env = { TF_VAR_tag: SECRET };

    const plan = await run(session.world, ['plan', ...args, '--detailed-exitcode'], env);
    expect(plan.stderr).not.toContain('Error');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('name');
    expect(plan.stdout).toContain('"EU Primary"');
    expect(plan.stdout).toContain('https://eu.example.com/6');
    expect(plan.stdout).toContain('Changes to Outputs:');
    expect(plan.stdout).toMatch(/\+ replicas += 4/);
    expect(plan.stdout).toMatch(/\+ site_id += \(known after apply\)/);
    expect(plan.stdout).toMatch(/\+ tag += \(sensitive value\)/);

    const apply = await run(session.world, ['apply', ...args, '--auto-approve'], env);
    expect(apply.code).toBe(0);
    for (const text of [plan.stdout, plan.stderr, apply.stdout, apply.stderr]) expect(text).not.toContain(SECRET);

    const state = JSON.parse(readFileSync(join(dir, 'terraform.tfstate'), 'utf8')) as {
      outputs: Record<string, { value: unknown; type: unknown; sensitive?: boolean }>;
      resources: Array<{ name: string; instances: Array<{ attributes: Record<string, unknown> }> }>;
    };
    const site = state.resources.find((r) => r.name === 'site')!.instances[0].attributes;
    expect(state.outputs).toEqual({
      site_id: { value: site.id, type: 'string' },
      site_name: { value: 'EU Primary', type: 'string' },
      replicas: { value: 4, type: 'number' },
      tag: { value: SECRET, type: 'string', sensitive: true },
    });

    const again = await run(session.world, ['plan', ...args, '--detailed-exitcode'], env);
    expect(again.stdout).toContain('No changes');
    expect(again.code).toBe(0);

    // Terraform through the provider, with the same values, agrees: nothing to change, outputs included.
    const tfPlan = await terraformPlan(
      session.world,
      dir,
      'language-vars',
      ['-var-file=prod.tfvars', '-var-file=override.tfvars.json', '-var', 'site_name=Primary'],
      env,
    );
    expect(tfPlan.output).toContain('No changes');
    expect(tfPlan.code).toBe(0);

    // A changed output alone is a change to apply.
    const moreReplicas = await run(session.world, ['plan', ...args, '--var', 'replicas=5', '--detailed-exitcode'], env);
    expect(moreReplicas.stdout).toMatch(/~ replicas += 4 -> 6/);
    expect(moreReplicas.code).toBe(2);
  }, 240_000);

  it('refuses missing values, failed validations and unsupported functions with address, path and the way out', async () => {
    const file = writeConfig(session.world, stack(), 'missing.tf.json');
    const missing = await run(session.world, ['plan', '--config', file, '--var', 'capabilities=[]', '--var', 'region=eu']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('var.replicas');
    expect(missing.stderr).toContain('TF_VAR_replicas');
    expect(missing.stderr).toContain('Give at least one capability.');

    const unsupported = stack();
    unsupported.resource.tenantform_infra_component.site.name = '${templatefile("x.tpl", {})}';
    const file2 = writeConfig(session.world, unsupported, 'unsupported.tf.json');
    const r = await run(session.world, ['plan', '--config', file2, '--var', 'region=eu', '--var', 'replicas=1'], { TF_VAR_tag: SECRET });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tenantform_infra_component.site');
    expect(r.stderr).toContain('name');
    expect(r.stderr).toContain('templatefile');
    expect(r.stderr).toContain('cdktf deploy');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('masks a sensitive variable wherever it is used', async () => {
    const config = stack();
    config.resource.tenantform_infra_component.site.name = '${var.tag}';
    const vars = ['--var', 'region=eu', '--var', 'replicas=1'];
    // An output showing it must say it is sensitive, as in Terraform.
    const undeclared = await run(session.world, ['plan', '--config', writeConfig(session.world, config, 'leak.tf.json'), ...vars], { TF_VAR_tag: SECRET });
    expect(undeclared.code).toBe(1);
    expect(undeclared.stdout + undeclared.stderr).toContain('output.site_name');
    expect(undeclared.stdout + undeclared.stderr).not.toContain(SECRET);

    config.output.site_name = { value: '${tenantform_infra_component.site.name}', sensitive: true } as (typeof config.output)['site_name'];
    mkdirSync(join(session.world.dir, 'masked'));
    const file = writeConfig(session.world, config, 'masked/main.tf.json');
    const r = await run(session.world, ['plan', '--config', file, ...vars], { TF_VAR_tag: SECRET });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('+ name            = (sensitive value)');
    expect(r.stdout).toMatch(/\+ site_name += \(sensitive value\)/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);

    // Applied, the argument is recorded as sensitive, as Terraform records it: Terraform plans no change.
    const apply = await run(session.world, ['apply', '--config', file, '--state', 'masked/terraform.tfstate', '--auto-approve', ...vars], {
      TF_VAR_tag: SECRET,
    });
    expect(apply.code).toBe(0);
    expect(apply.stdout + apply.stderr).not.toContain(SECRET);
    const tfPlan = await terraformPlan(session.world, join(session.world.dir, 'masked'), 'language-masked', ['-var', 'region=eu', '-var', 'replicas=1'], {
      TF_VAR_tag: SECRET,
    });
    expect(tfPlan.output).toContain('No changes');
    expect(tfPlan.code).toBe(0);
  }, 240_000);
});
