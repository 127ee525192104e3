/**
 * State surgery on a `for_each` estate, as a team tries it first: `state mv` of one instance to
 * another key and to another block, `state rm` of a whole repeated block. Each is done by
 * tenantform and by the real `terraform` on a copy of the same state, and the two states must
 * record the same objects at the same addresses.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTerraform } from '../provider/helpers';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

interface StateFile {
  resources: Array<{ mode: string; type: string; name: string; instances: Array<{ index_key?: string | number; attributes: { id: string } }> }>;
}

const SITES = 'tenantform_infra_component.site';

describe('state mv and state rm on for_each instances', () => {
  let world: World;
  let oracle: string;

  beforeAll(async () => {
    requireTerraform();
    world = await startWorld();
    oracle = mkdtempSync(join(tmpdir(), 'tenantform-state-oracle-'));
    writeFileSync(join(oracle, 'cli.tfrc'), '');
  });
  afterAll(async () => {
    await world.close();
    rmSync(oracle, { recursive: true, force: true });
  });

  /** A site per customer, named after the customer (the key may be renamed, the name stays). */
  const sites = (customers: Record<string, string>) => ({ site: { ...infra('Site ${each.value}'), for_each: customers } });
  const estate = (customers: Record<string, string>) => configWith({ tenantform_infra_component: sites(customers) });
  /** Each recorded object by address, as both tools must record it. */
  const recorded = (file: string) =>
    Object.fromEntries(
      (JSON.parse(readFileSync(file, 'utf8')) as StateFile).resources
        .filter((r) => r.mode === 'managed')
        .flatMap((r) => r.instances.map((i) => [`${r.type}.${r.name}${i.index_key === undefined ? '' : `[${JSON.stringify(i.index_key)}]`}`, i.attributes.id])),
    );
  const both = async (...args: string[]) => {
    const ours = await run(world, ['state', ...args, '--state', 'estate.tfstate']);
    expect(ours.stderr).toBe('');
    expect(ours.code).toBe(0);
    const theirs = spawnSync('terraform', ['state', ...args.slice(0, 1), '-state=terraform.tfstate', ...args.slice(1)], {
      cwd: oracle,
      env: { PATH: process.env.PATH, TF_CLI_CONFIG_FILE: join(oracle, 'cli.tfrc'), CHECKPOINT_DISABLE: '1' },
      encoding: 'utf8',
    });
    expect(theirs.stderr).toBe('');
    expect(recorded(join(world.dir, 'estate.tfstate'))).toEqual(recorded(join(oracle, 'terraform.tfstate')));
    return ours.stdout;
  };

  it('moves one instance to another key and to another block, and forgets a whole block, as terraform does', async () => {
    const file = writeConfig(world, estate({ fabrikam: 'fabrikam', contoso: 'contoso', initech: 'initech' }), 'estate.tf.json');
    expect((await run(world, ['apply', '--config', file, '--state', 'estate.tfstate', '--auto-approve'])).code).toBe(0);
    copyFileSync(join(world.dir, 'estate.tfstate'), join(oracle, 'terraform.tfstate'));
    const ids = recorded(join(world.dir, 'estate.tfstate'));

    const moved = await both('mv', `${SITES}["fabrikam"]`, `${SITES}["fab"]`);
    expect(moved).toBe(`Move "${SITES}["fabrikam"]" to "${SITES}["fab"]"\nSuccessfully moved 1 object(s).\n`);
    await both('mv', `${SITES}["initech"]`, 'tenantform_infra_component.lone');
    // The configuration follows the move: nothing to change.
    const renamed = writeConfig(
      world,
      configWith({
        tenantform_infra_component: { ...sites({ fab: 'fabrikam', contoso: 'contoso' }), lone: { ...infra('Site ${each.value}'), name: 'Site initech' } },
      }),
      'estate.tf.json',
    );
    const plan = await run(world, ['plan', '--config', renamed, '--state', 'estate.tfstate', '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(recorded(join(world.dir, 'estate.tfstate'))[`${SITES}["fab"]`]).toBe(ids[`${SITES}["fabrikam"]`]);

    const removed = await both('rm', SITES);
    expect(removed).toContain('Successfully removed 2 resource instance(s).');
    expect(Object.keys(recorded(join(world.dir, 'estate.tfstate')))).toEqual(['tenantform_infra_component.lone']);
  });
});
