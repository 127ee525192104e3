/**
 * `tenantform plan --format json` against `terraform show -json` of the same change, made with
 * the real terraform binary through tenantform's provider, from the same state and platform.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, requireTerraform, run as runCommand, terraformEnvironment } from '../provider/helpers';
import { ACME_AGENT_UPDATES, LOCATION_ID, run, startWorld, type World } from './helpers';

jest.setTimeout(240_000);

const NORTHWIND = '${data.tenantform_tenant.northwind.id}';

function site(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    owner_tenant_id: NORTHWIND,
    name,
    url: `https://${name.toLowerCase().replace(/ /g, '-')}.example.com`,
    capabilities: ['backup', 'disaster_recovery'],
    location_id: LOCATION_ID,
    ...extra,
  };
}

/** Version 1 is applied; version 2 updates, replaces, creates and deletes. */
function configuration(version: 1 | 2): Record<string, unknown> {
  const resource: Record<string, Record<string, unknown>> = {
    tenantform_infra_component:
      version === 1
        ? { site: site('Site'), gone: site('Gone') }
        : { site: site('Site', { backend_type: 'acronis' }), added: { ...site('Added'), depends_on: ['tenantform_tenant_setting.retention'] } },
    tenantform_tenant_setting: {
      retention: {
        application_id: '${data.tenantform_application.backup.id}',
        tenant_id: NORTHWIND,
        name: 'retention_days',
        value: version === 1 ? '30' : '90',
        lock: true,
      },
    },
    tenantform_application_binding: {
      backup: {
        application_id: '${data.tenantform_application.backup.id}',
        tenant_id: version === 1 ? '${data.tenantform_tenant.acme.id}' : '${data.tenantform_tenant.globex.id}',
      },
    },
    tenantform_agent_update_settings: { acme: ACME_AGENT_UPDATES },
    tenantform_usage_report: {
      monthly: {
        result_action: 'save',
        parameters: { tenant_id: NORTHWIND, kind: 'usage_summary', level: 'accounts', formats: ['csv'] },
        schedule: { type: 'monthly' },
      },
    },
  };
  return {
    terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } } },
    provider: { tenantform: [{}] },
    data: {
      tenantform_tenant: {
        northwind: { name: 'Northwind Partner' },
        acme: { name: 'Acme Manufacturing', parent_id: NORTHWIND },
        globex: { name: 'Globex Retail', parent_id: NORTHWIND },
      },
      tenantform_application: { backup: { type: 'backup' } },
    },
    resource,
  };
}

type Json = Record<string, any>;

describe('plan JSON compared with terraform show -json', () => {
  let world: World;
  let terraform: Json;
  let ours: Json;

  beforeAll(async () => {
    requireTerraform();
    await ensureBuilt();
    world = await startWorld();
    const env = await terraformEnvironment(world.dir, world.emulator, `plan-json-${process.pid}`);
    const tf = async (...args: string[]) => {
      const r = await runCommand('terraform', args, { cwd: world.dir, env });
      if (r.code !== 0) throw new Error(`terraform ${args.join(' ')} failed:\n${r.output}`);
      return r;
    };
    const config = join(world.dir, 'main.tf.json');
    writeFileSync(config, JSON.stringify(configuration(1), null, 2));
    await tf('init', '-input=false', '-no-color');
    await tf('apply', '-auto-approve', '-input=false', '-no-color');

    // A change made by hand: drift in both documents.
    const [gone] = (await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')))).filter((c) => c.name === 'Gone');
    await world.client.updateInfra(gone.id, {
      name: 'Gone',
      location_id: gone.location_id!,
      url: 'https://changed-by-hand.example.com',
      capabilities: gone.capabilities,
      version: gone.version,
    });

    writeFileSync(config, JSON.stringify(configuration(2), null, 2));
    await tf('plan', '-out=tf.plan', '-input=false', '-no-color');
    terraform = JSON.parse((await tf('show', '-json', 'tf.plan')).stdout);
    const r = await run(world, ['plan', '-config', 'main.tf.json', '-state', 'terraform.tfstate', '-format=json']);
    expect(r.code).toBe(0);
    ours = JSON.parse(r.stdout);
  });
  afterAll(() => world?.close());

  it("has every top-level key of Terraform's document, in format 1.2", () => {
    expect(ours.format_version).toBe(terraform.format_version);
    for (const key of Object.keys(terraform)) expect(ours).toHaveProperty([key]);
    expect(Object.keys(ours).filter((k) => !(k in terraform))).toEqual(['tenantform']);
    // A Terraform version, as readers of plan JSON expect; tenantform's own under its key.
    expect(ours.terraform_version).toMatch(/^1\.\d+\.\d+$/);
    expect(ours.tenantform.version).toBe(JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')).version);
  });

  it('has the same resource changes and drift', () => {
    expect(ours.resource_changes).toEqual(terraform.resource_changes);
    expect(ours.resource_drift).toEqual(terraform.resource_drift);
  });

  it('has the same planned values and prior state', () => {
    expect(ours.planned_values).toEqual(terraform.planned_values);
    expect(ours.prior_state.values).toEqual(terraform.prior_state.values);
  });

  it('has the same configuration and relevant attributes', () => {
    expect(ours.configuration).toEqual(terraform.configuration);
    // Terraform's order of relevant attributes varies from run to run: compared as sets.
    const sorted = (list: Json[]) => list.map((a) => JSON.stringify(a)).sort();
    expect(sorted(ours.relevant_attributes)).toEqual(sorted(terraform.relevant_attributes));
  });
});
