import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMON_DATA, infra, run, writeConfig } from '../cli/helpers';
import { terraformPlan, withWorld } from './helpers';

interface StateFile {
  resources: Array<{ mode: string; type: string; name: string; each?: string; instances: Array<{ index_key?: unknown; attributes: Record<string, unknown> }> }>;
  outputs: Record<string, { value: unknown }>;
}

/** count and for_each with Terraform's instance addresses, natively and through Terraform. */
describe('count and for_each', () => {
  const session = withWorld();

  const stack = (sites: Record<string, string>) => ({
    terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } } },
    variable: { sites: { type: 'map(string)', default: sites }, mirrors: { type: 'number', default: 2 } },
    provider: { tenantform: [{}] },
    data: { tenantform_tenant: COMMON_DATA.tenantform_tenant },
    resource: {
      tenantform_infra_component: {
        site: { ...infra('x'), for_each: '${var.sites}', name: '${each.value}', url: 'https://${each.key}.example.com' },
        mirror: {
          ...infra('y'),
          count: '${var.mirrors}',
          name: 'mirror-${count.index}',
          content_url: 'https://m.example.com/${tenantform_infra_component.site["eu"].id}',
        },
      },
    },
    output: { first_mirror: { value: '${tenantform_infra_component.mirror[0].name}' }, mirrors: { value: '${length(tenantform_infra_component.mirror)}' } },
  });

  it('plans and applies instances under their addresses, records index keys, and Terraform agrees', async () => {
    const dir = join(session.world.dir, 'each');
    mkdirSync(dir);
    writeConfig(session.world, stack({ eu: 'EU storage', us: 'US storage' }), 'each/main.tf.json');
    const args = ['--config', 'each/main.tf.json', '--state', 'each/terraform.tfstate'];
    const plan = await run(session.world, ['plan', ...args]);
    expect(plan.stderr).not.toMatch(/Error|Warning/);
    for (const address of [
      'tenantform_infra_component.site["eu"]',
      'tenantform_infra_component.site["us"]',
      'tenantform_infra_component.mirror[0]',
      'tenantform_infra_component.mirror[1]',
    ]) {
      expect(plan.stdout).toContain(`# ${address} will be created`);
    }
    expect(plan.stdout).toContain('Plan: 4 to add, 0 to change, 0 to destroy.');

    const apply = await run(session.world, ['apply', ...args, '--auto-approve']);
    expect(apply.stderr).not.toContain('Error');
    expect(apply.code).toBe(0);
    const state = JSON.parse(readFileSync(join(dir, 'terraform.tfstate'), 'utf8')) as StateFile;
    const site = state.resources.find((r) => r.name === 'site')!;
    const mirror = state.resources.find((r) => r.name === 'mirror')!;
    expect(site.each).toBe('map');
    expect(site.instances.map((i) => [i.index_key, i.attributes.name])).toEqual([
      ['eu', 'EU storage'],
      ['us', 'US storage'],
    ]);
    expect(mirror.each).toBe('list');
    expect(mirror.instances.map((i) => i.index_key)).toEqual([0, 1]);
    expect(mirror.instances[0].attributes.content_url).toBe(`https://m.example.com/${site.instances[0].attributes.id as string}`);
    expect(state.outputs.first_mirror.value).toBe('mirror-0');
    expect(state.outputs.mirrors.value).toBe(2);

    const again = await run(session.world, ['plan', ...args, '--detailed-exitcode']);
    expect(again.stderr).not.toMatch(/Error|Warning/);
    expect(again.code).toBe(0);
    const tfPlan = await terraformPlan(session.world, dir, 'language-each');
    expect(tfPlan.output).toContain('No changes');
    expect(tfPlan.code).toBe(0);

    // A new key is a create, a key gone a destroy; the rest is untouched.
    writeConfig(session.world, stack({ eu: 'EU storage', apac: 'APAC storage' }), 'each/main.tf.json');
    const moved = await run(session.world, ['plan', ...args]);
    expect(moved.stdout).toContain('# tenantform_infra_component.site["apac"] will be created');
    expect(moved.stdout).toContain('# tenantform_infra_component.site["us"] will be destroyed');
    expect(moved.stdout).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');

    // A target names one instance, or every instance of a block.
    const one = await run(session.world, ['plan', ...args, '--target', 'tenantform_infra_component.site["apac"]']);
    expect(one.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    const applied = await run(session.world, ['apply', ...args, '--auto-approve', '--target', 'tenantform_infra_component.site']);
    expect(applied.stdout).toContain('1 added, 0 changed, 1 destroyed');
    const after = JSON.parse(readFileSync(join(dir, 'terraform.tfstate'), 'utf8')) as StateFile;
    expect(after.resources.find((r) => r.name === 'site')!.instances.map((i) => i.index_key)).toEqual(['apac', 'eu']);
  }, 240_000);

  it('imports an existing object as one instance', async () => {
    const { world } = session;
    mkdirSync(join(world.dir, 'import'));
    const owner = world.tenant('Northwind Partner');
    const existing = await world.client.createInfra({
      owner_tenant_id: owner,
      location_id: owner,
      name: 'Existing',
      url: 'https://existing.example.com',
      capabilities: ['backup'],
    });
    writeConfig(world, stack({ eu: 'Existing' }), 'import/main.tf.json');
    const args = ['--config', 'import/main.tf.json', '--state', 'import/terraform.tfstate'];
    const imported = await run(world, ['import', 'tenantform_infra_component.site["eu"]', existing.id, ...args]);
    expect(imported.stderr).not.toContain('Error');
    expect(imported.code).toBe(0);
    const state = JSON.parse(readFileSync(join(world.dir, 'import/terraform.tfstate'), 'utf8')) as StateFile;
    const site = state.resources.find((r) => r.name === 'site')!;
    expect(site.each).toBe('map');
    expect(site.instances.map((i) => [i.index_key, i.attributes.id])).toEqual([['eu', existing.id]]);
  });

  it('refuses a count or for_each not known when planning, as Terraform does', async () => {
    const config = stack({ eu: 'EU' });
    (config.resource.tenantform_infra_component.site as Record<string, unknown>).for_each = '${toset([tenantform_infra_component.mirror[0].id])}';
    const r = await run(session.world, ['plan', '--config', writeConfig(session.world, config, 'unknown.tf.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Invalid for_each argument');
    expect(r.stderr).toContain('tenantform_infra_component.site');
    expect(r.stderr).toContain('cannot be determined until apply');
  });
});
