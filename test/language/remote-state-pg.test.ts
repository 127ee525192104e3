import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { COMMON_DATA, infra, run, writeConfig } from '../cli/helpers';
import { createDatabase, startPostgres, type RunningPostgres } from '../helpers/postgres';
import { expectOtherStackNotApplied, withWorld } from './helpers';

const REQUIRED = { required_providers: { tenantform: { source: 'tenantform/tenantform' } } };

/** A reference between stacks whose producing stack keeps its state in a real PostgreSQL (pg backend). */
describe('terraform_remote_state from a pg backend', () => {
  const session = withWorld();
  let pg: RunningPostgres;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(() => pg?.stop());

  it("reads another stack's outputs from its workspace's row, and never shows the password", async () => {
    const { world } = session;
    const url = await createDatabase(pg, 'remote_state');
    mkdirSync(join(world.dir, 'pg-network'));
    mkdirSync(join(world.dir, 'pg-sites'));
    writeConfig(
      world,
      {
        terraform: { ...REQUIRED, backend: { pg: { conn_str: url } } },
        provider: { tenantform: [{}] },
        data: { tenantform_tenant: COMMON_DATA.tenantform_tenant },
        resource: { tenantform_infra_component: { primary: infra('PG primary') } },
        output: { primary_name: { value: '${tenantform_infra_component.primary.name}' } },
      },
      'pg-network/main.tf.json',
    );
    writeConfig(
      world,
      {
        terraform: REQUIRED,
        provider: { tenantform: [{}] },
        data: {
          tenantform_tenant: COMMON_DATA.tenantform_tenant,
          terraform_remote_state: { network: { backend: 'pg', config: { conn_str: url }, workspace: 'network' } },
        },
        resource: {
          tenantform_infra_component: { mirror: infra('PG mirror', { name: 'Mirror of ${data.terraform_remote_state.network.outputs.primary_name}' }) },
        },
      },
      'pg-sites/main.tf.json',
    );
    const args = ['--config', 'pg-sites/main.tf.json', '--state', 'pg-sites/terraform.tfstate'];

    // The producing stack's workspace has no row yet.
    await expectOtherStackNotApplied(world, args, pg.password);

    // Applied in the `network` workspace, as the remote state's `workspace` names it.
    expect((await run(world, ['apply', '--config', 'pg-network/main.tf.json', '--auto-approve'], { TF_WORKSPACE: 'network' })).code).toBe(0);
    const plan = await run(world, ['plan', ...args]);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('"Mirror of PG primary"');
    expect(plan.stdout).not.toContain(pg.password);
    expect((await run(world, ['apply', ...args, '--auto-approve'])).code).toBe(0);
    expect((await run(world, ['plan', ...args, '--detailed-exitcode'])).code).toBe(0);
  }, 240_000);
});
