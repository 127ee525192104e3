/**
 * The acceptance run: the life of every kind that lives inside a tenant (create, read, update,
 * import, drift, destroy) through the `tenantform` command and through `terraform` with the
 * provider, on the data center the TENANTFORM_ACCEPTANCE_* variables name, inside one customer
 * tenant (see target.ts); without them, on the emulator as an MSP's account. `npm run acceptance`.
 *
 * Event subscriptions are left out: the platform offers no way to delete one, so a run would
 * leave it behind.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, requireTerraform, run as runProcess, terraformEnvironment } from '../provider/helpers';
import { run as tenantform, type CliWorld } from '../cli/helpers';
import { holdings, openTarget, type Target } from './target';

/** The configuration of every kind inside the run's tenant; `generation` 2 changes what each can change. */
function configuration(target: Target, generation: 1 | 2): Record<string, unknown> {
  const tenant = target.tenantId;
  const backup = '${data.tenantform_application.backup.id}';
  const second = generation === 2;
  return {
    terraform: { required_providers: { tenantform: { source: 'tenantform/tenantform' } } },
    provider: { tenantform: [{}] },
    data: { tenantform_application: { backup: { type: 'backup' } } },
    resource: {
      tenantform_tenant: { unit: { parent_id: tenant, kind: 'unit', name: second ? `${target.run} unit (renamed)` : `${target.run} unit` } },
      tenantform_user: {
        admin: {
          tenant_id: tenant,
          login: `${target.run}-admin`,
          // No mail leaves for a run: the activation email is not sent, the address is a reserved one.
          email: `${target.run}@example.com`,
          first_name: second ? 'Dara' : 'Dana',
          send_activation_email: false,
        },
      },
      tenantform_user_roles: {
        admin: {
          user_id: '${tenantform_user.admin.id}',
          roles: [{ tenant_id: tenant, role_id: 'company_admin' }, ...(second ? [{ tenant_id: tenant, role_id: 'backup_user' }] : [])],
        },
      },
      tenantform_api_client: { monitoring: { tenant_id: tenant, data: JSON.stringify({ purpose: second ? 'monitoring and billing' : 'monitoring' }) } },
      tenantform_application_binding: { backup: { application_id: backup, tenant_id: tenant } },
      tenantform_offering_items: {
        backup: {
          tenant_id: tenant,
          application_id: backup,
          items: [{ name: 'workstations', quota: { value: second ? 10 : 5 } }],
          depends_on: ['tenantform_application_binding.backup'],
        },
      },
      tenantform_infra_component: {
        dr: {
          owner_tenant_id: tenant,
          name: `${target.run} DR site`,
          url: `https://${target.run}.dr.example.com`,
          capabilities: second ? ['backup', 'disaster_recovery'] : ['backup'],
        },
      },
      tenantform_agent_update_settings: {
        updates: {
          tenant_id: tenant,
          update_channel: second ? 'CURRENT' : 'STABLE',
          automatic: true,
          maintenance_window: { time_from: '01:00:00', time_to: '05:00:00', days_of_week: ['SATURDAY', 'SUNDAY'] },
        },
      },
      tenantform_usage_report: {
        monthly: {
          result_action: 'save',
          parameters: { tenant_id: tenant, kind: 'usage_summary', level: 'accounts', formats: ['csv'] },
          schedule: { type: 'monthly', enabled: !second },
        },
      },
    },
  };
}

const KINDS_IN_A_TENANT = [
  'tenantform_tenant.unit',
  'tenantform_user.admin',
  'tenantform_user_roles.admin',
  'tenantform_api_client.monitoring',
  'tenantform_application_binding.backup',
  'tenantform_offering_items.backup',
  'tenantform_infra_component.dr',
  'tenantform_agent_update_settings.updates',
  'tenantform_usage_report.monthly',
];

describe('acceptance: every kind inside one tenant', () => {
  let target: Target;
  let dir: string;
  let world: CliWorld;

  beforeAll(async () => {
    await ensureBuilt();
    target = await openTarget();
    dir = mkdtempSync(join(tmpdir(), 'tenantform-acceptance-'));
    world = {
      dir,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NO_COLOR: '1',
        TENANTFORM_BASE_URL: target.credentials.url,
        TENANTFORM_CLIENT_ID: target.credentials.clientId,
        TENANTFORM_CLIENT_SECRET: target.credentials.clientSecret,
      },
    };
  }, 120_000);

  afterAll(async () => {
    const left = await target?.close();
    rmSync(dir, { recursive: true, force: true });
    // Whatever happened, nothing may stay behind.
    expect(left).toEqual([]);
  }, 120_000);

  const write = (generation: 1 | 2) => writeFileSync(join(dir, 'acceptance.tf.json'), JSON.stringify(configuration(target, generation), null, 2));
  const cli = async (args: string[], expected: number) => {
    const r = await tenantform(world, [...args, '--config', 'acceptance.tf.json', '--state', 'acceptance.tfstate']);
    if (r.code !== expected)
      throw new Error(`tenantform ${args.join(' ')} on ${target.name} exited ${r.code}, expected ${expected}:\n${r.stdout}\n${r.stderr}`);
    expect(r.stdout + r.stderr).not.toContain(target.credentials.clientSecret);
    return r;
  };

  it('through tenantform: create, read, update, import, drift and destroy', async () => {
    write(1);
    const planned = await cli(['plan', '--detailed-exitcode'], 2);
    for (const address of KINDS_IN_A_TENANT) expect(planned.stdout).toContain(`# ${address} will be created`);
    await cli(['apply', '--auto-approve'], 0);
    await cli(['plan', '--detailed-exitcode'], 0);

    write(2);
    const changes = await cli(['plan', '--detailed-exitcode'], 2);
    expect(changes.stdout).toMatch(/Plan: 0 to add, \d+ to change, 0 to destroy\./);
    await cli(['apply', '--auto-approve'], 0);
    await cli(['plan', '--detailed-exitcode'], 0);

    // Forgotten, then adopted again: the same objects, no change.
    const ids = JSON.parse((await cli(['show', '--json'], 0)).stdout) as {
      values: { root_module: { resources: Array<{ address: string; values: { id: string } }> } };
    };
    const unit = ids.values.root_module.resources.find((r) => r.address === 'tenantform_tenant.unit')!.values.id;
    const infra = ids.values.root_module.resources.find((r) => r.address === 'tenantform_infra_component.dr')!.values.id;
    for (const address of ['tenantform_tenant.unit', 'tenantform_infra_component.dr']) await cli(['state', 'rm', address], 0);
    await cli(['import', 'tenantform_tenant.unit', unit], 0);
    await cli(['import', 'tenantform_infra_component.dr', infra], 0);
    await cli(['plan', '--detailed-exitcode'], 0);

    // A change made by hand is drift, and the next apply repairs it.
    const live = await target.client.getTenant(unit);
    await target.client.updateTenant(unit, { version: Number(live.version), name: `${target.run} unit (by hand)` });
    const drift = await cli(['drift'], 2);
    expect(drift.stdout).toContain('tenantform_tenant.unit');
    await cli(['apply', '--auto-approve'], 0);
    await cli(['drift'], 0);

    await cli(['destroy', '--auto-approve'], 0);
    expect(await holdings(target.client, target.tenantId)).toEqual([]);
  }, 600_000);

  it('through terraform with the provider: create, update, read back unchanged, destroy', async () => {
    requireTerraform();
    const folder = join(dir, 'terraform');
    mkdirSync(folder);
    const env = await terraformEnvironment(dir, target.credentials, `acceptance-${process.pid}`);
    const terraform = async (args: string[], expected: number) => {
      const r = await runProcess('terraform', [...args, '-input=false', '-no-color'], { cwd: folder, env });
      if (r.code !== expected) throw new Error(`terraform ${args.join(' ')} on ${target.name} exited ${r.code}, expected ${expected}:\n${r.output}`);
      expect(r.output).not.toContain(target.credentials.clientSecret);
      return r;
    };
    const write2 = (generation: 1 | 2) => writeFileSync(join(folder, 'main.tf.json'), JSON.stringify(configuration(target, generation), null, 2));
    write2(1);
    await terraform(['init'], 0);
    await terraform(['apply', '-auto-approve'], 0);
    await terraform(['plan', '-detailed-exitcode'], 0);
    write2(2);
    await terraform(['apply', '-auto-approve'], 0);
    await terraform(['plan', '-detailed-exitcode'], 0);
    await terraform(['destroy', '-auto-approve'], 0);
    expect(await holdings(target.client, target.tenantId)).toEqual([]);
  }, 600_000);
});
