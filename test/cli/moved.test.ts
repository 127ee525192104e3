/**
 * `moved` blocks (cdktf's `moveTo`) on the native path: renaming an address, or giving an object
 * an instance key, moves what the state records instead of destroying the object and creating
 * it again. The real `terraform` with tenantform's provider plans the same configuration and
 * state the same way, before and after tenantform applies.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ORACLE_STATE as STATE, REQUIRED_PROVIDERS, startOracle, type Oracle } from '../helpers/oracle';
import { configWith, infra, run, writeConfig, type World } from './helpers';

jest.setTimeout(180_000);

/** A configuration both tenantform and terraform read: Terraform JSON, its state in terraform.tfstate. */
function config(resources: Record<string, Record<string, unknown>>, moved?: Array<{ from: string; to: string }>): Record<string, unknown> {
  return { ...configWith(resources), terraform: REQUIRED_PROVIDERS, ...(moved ? { moved } : {}) };
}

describe('moved blocks', () => {
  let world: World;
  let oracle: Oracle;
  const recorded = () =>
    (JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')).resources as Array<{ type: string; name: string; instances: Array<{ index_key?: unknown }> }>)
      .filter((r) => r.type === 'tenantform_infra_component')
      .flatMap((r) => r.instances.map((i) => `${r.name}${i.index_key === undefined ? '' : `[${JSON.stringify(i.index_key)}]`}`));
  const writes = (from: number) => world.requests.slice(from).filter((l) => /^(POST|PUT|DELETE) \/api\/2\/infra/.test(l));

  beforeAll(async () => {
    oracle = await startOracle('moved', config({ tenantform_infra_component: { old: infra('Moved Storage') } }));
    world = oracle.world;
    const applied = await oracle.tenantform('apply', '--auto-approve');
    expect(applied.code).toBe(0);
  });
  afterAll(() => world.close());

  it('a renamed address moves the recorded object: both tools plan the move and nothing else, and apply sends no write', async () => {
    writeConfig(
      world,
      config({ tenantform_infra_component: { primary: infra('Moved Storage') } }, [
        { from: 'tenantform_infra_component.old', to: 'tenantform_infra_component.primary' },
      ]),
    );
    const native = await oracle.tenantform('plan', '--detailed-exitcode');
    expect(native.stdout).toContain('# tenantform_infra_component.old has moved to tenantform_infra_component.primary');
    expect(native.stdout).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
    const viaTerraform = await oracle.terraform('plan', '-detailed-exitcode');
    expect(viaTerraform.output).toContain('# tenantform_infra_component.old has moved to tenantform_infra_component.primary');
    expect(viaTerraform.output).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
    expect(native.code).toBe(viaTerraform.code);

    const json = JSON.parse((await oracle.tenantform('plan', '--format', 'json')).stdout);
    expect(json.resource_changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: 'tenantform_infra_component.primary', previous_address: 'tenantform_infra_component.old' })]),
    );

    const before = world.requests.length;
    const applied = await oracle.tenantform('apply', '--auto-approve');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 0 destroyed.');
    expect(writes(before)).toEqual([]);
    expect(recorded()).toEqual(['primary']);
    // The moved block may stay: its from holds nothing now.
    expect((await oracle.tenantform('plan', '--detailed-exitcode')).code).toBe(0);
    expect((await oracle.terraform('plan', '-detailed-exitcode')).code).toBe(0);
  });

  it('an object given an instance key (count added) moves to that instance', async () => {
    writeConfig(
      world,
      config({ tenantform_infra_component: { storage: { count: 1, ...infra('Moved Storage') } } }, [
        { from: 'tenantform_infra_component.old', to: 'tenantform_infra_component.primary' },
        { from: 'tenantform_infra_component.primary', to: 'tenantform_infra_component.storage[0]' },
      ]),
    );
    const native = await oracle.tenantform('plan', '--detailed-exitcode');
    expect(native.stdout).toContain('# tenantform_infra_component.primary has moved to tenantform_infra_component.storage[0]');
    const viaTerraform = await oracle.terraform('plan', '-detailed-exitcode');
    expect(viaTerraform.output).toContain('# tenantform_infra_component.primary has moved to tenantform_infra_component.storage[0]');
    expect(native.code).toBe(viaTerraform.code);
    const before = world.requests.length;
    expect((await oracle.tenantform('apply', '--auto-approve')).code).toBe(0);
    expect(writes(before)).toEqual([]);
    expect(recorded()).toEqual(['storage[0]']);
    expect((await oracle.terraform('plan', '-detailed-exitcode')).code).toBe(0);
  });

  it('a removed block with destroy = false lets go of the object: both tools plan it, and the apply deletes nothing', async () => {
    writeConfig(world, config({ tenantform_infra_component: { keep: infra('Kept Storage'), storage: { count: 1, ...infra('Moved Storage') } } }));
    expect((await oracle.tenantform('apply', '--auto-approve')).code).toBe(0);
    const removed = { removed: [{ from: 'tenantform_infra_component.keep', lifecycle: { destroy: false } }] };
    writeConfig(world, { ...config({ tenantform_infra_component: { storage: { count: 1, ...infra('Moved Storage') } } }), ...removed });
    const native = await oracle.tenantform('plan', '--detailed-exitcode');
    expect(native.stdout).toContain('# tenantform_infra_component.keep will no longer be managed by tenantform, but will not be destroyed');
    expect(native.stdout).toContain('Some objects will no longer be managed by tenantform');
    expect(native.stdout).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
    const viaTerraform = await oracle.terraform('plan', '-detailed-exitcode');
    expect(viaTerraform.output).toContain('# tenantform_infra_component.keep will no longer be managed by Terraform, but will not be destroyed');
    expect(viaTerraform.output).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
    expect(native.code).toBe(viaTerraform.code);
    const json = JSON.parse((await oracle.tenantform('plan', '--format', 'json')).stdout);
    expect(json.resource_changes.find((r: { address: string }) => r.address === 'tenantform_infra_component.keep').change.actions).toEqual(['forget']);

    const before = world.requests.length;
    const applied = await oracle.tenantform('apply', '--auto-approve');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('0 destroyed');
    expect(writes(before)).toEqual([]);
    expect(recorded()).toEqual(['storage[0]']);
    const names = (await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')))).map((c) => c.name);
    expect(names).toContain('Kept Storage');
    expect((await oracle.tenantform('plan', '--detailed-exitcode')).code).toBe(0);
    expect((await oracle.terraform('plan', '-detailed-exitcode')).code).toBe(0);
  });

  it('-replace=ADDRESS replaces an object nothing forces, as terraform -replace does', async () => {
    writeConfig(world, config({ tenantform_infra_component: { storage: { count: 1, ...infra('Moved Storage') } } }));
    const address = 'tenantform_infra_component.storage[0]';
    const native = await oracle.tenantform('plan', '--detailed-exitcode', `-replace=${address}`);
    expect(native.stdout).toContain(`# ${address} will be replaced, as requested`);
    expect(native.stdout).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
    const viaTerraform = await oracle.terraform('plan', '-detailed-exitcode', `-replace=${address}`);
    expect(viaTerraform.output).toContain(`# ${address} will be replaced, as requested`);
    expect(viaTerraform.output).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
    expect(native.code).toBe(viaTerraform.code);
    const json = JSON.parse((await oracle.tenantform('plan', '--format', 'json', `-replace=${address}`)).stdout);
    expect(json.resource_changes.find((r: { address: string }) => r.address === address).action_reason).toBe('replace_by_request');

    const idBefore = JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')).resources.find((r: { name: string }) => r.name === 'storage').instances[0]
      .attributes.id;
    // A saved plan with the replacement applies as saved.
    expect((await oracle.tenantform('plan', `-replace=${address}`, '--out', 'replace.plan')).code).toBe(0);
    const applied = await run(world, ['apply', '--config', 'main.tf.json', '--state', STATE, 'replace.plan']);
    expect(applied.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 1 destroyed.');
    const idAfter = JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')).resources.find((r: { name: string }) => r.name === 'storage').instances[0]
      .attributes.id;
    expect(idAfter).not.toBe(idBefore);
    expect((await oracle.tenantform('plan', '--detailed-exitcode')).code).toBe(0);
    expect((await oracle.terraform('plan', '-detailed-exitcode')).code).toBe(0);
  });

  it('a move onto an address the state already holds is left undone with a warning, as terraform leaves it; one from an address still declared is refused', async () => {
    copyFileSync(join(world.dir, STATE), join(world.dir, 'saved.tfstate'));
    writeConfig(world, config({ tenantform_infra_component: { storage: { count: 1, ...infra('Moved Storage') }, extra: infra('Moved Extra') } }));
    expect((await oracle.tenantform('apply', '--auto-approve')).code).toBe(0);
    writeConfig(
      world,
      config({ tenantform_infra_component: { storage: { count: 1, ...infra('Moved Storage') } } }, [
        { from: 'tenantform_infra_component.extra', to: 'tenantform_infra_component.storage[0]' },
      ]),
    );
    const taken = await oracle.tenantform('plan', '--detailed-exitcode');
    const byTerraform = await oracle.terraform('plan', '-detailed-exitcode');
    for (const r of [taken, byTerraform]) {
      expect(r.stdout + r.stderr).toContain('Unresolved resource instance address changes');
      expect(r.stdout).toContain('# tenantform_infra_component.extra will be destroyed');
      expect(r.stdout).toContain('Plan: 0 to add, 0 to change, 1 to destroy.');
    }
    expect(taken.code).toBe(byTerraform.code);

    writeConfig(
      world,
      config({ tenantform_infra_component: { storage: { count: 1, ...infra('Moved Storage') }, extra: infra('Moved Extra') } }, [
        { from: 'tenantform_infra_component.extra', to: 'tenantform_infra_component.other' },
      ]),
    );
    const declared = await oracle.tenantform('plan');
    expect(declared.code).toBe(1);
    expect(declared.stderr + declared.stdout).toContain('tenantform_infra_component.extra is still declared in the configuration');
  });

  it('a whole block moved onto a repeated block that holds instances is left undone: the state stays readable by both tools', async () => {
    writeConfig(
      world,
      config({ tenantform_infra_component: { lone: infra('Moved Lone'), sites: { for_each: { a: 'a', b: 'b' }, ...infra('Moved Site ${each.key}') } } }),
    );
    expect((await oracle.tenantform('apply', '--auto-approve')).code).toBe(0);
    writeConfig(
      world,
      config({ tenantform_infra_component: { sites: { for_each: { a: 'a', b: 'b' }, ...infra('Moved Site ${each.key}') } } }, [
        { from: 'tenantform_infra_component.lone', to: 'tenantform_infra_component.sites' },
      ]),
    );
    const native = await oracle.tenantform('plan', '--detailed-exitcode');
    expect(native.stdout + native.stderr).toContain('Cannot move tenantform_infra_component.lone to tenantform_infra_component.sites');
    expect(native.stdout).toContain('Plan: 0 to add, 0 to change, 1 to destroy.');
    expect((await oracle.tenantform('apply', '--auto-approve')).code).toBe(0);
    // One block per address: terraform reads the state the apply wrote, and finds nothing to do.
    expect(recorded().filter((a) => a.startsWith('sites'))).toEqual(['sites["a"]', 'sites["b"]']);
    const after = await oracle.terraform('plan', '-detailed-exitcode');
    expect(after.output).toContain('No changes.');
    expect(after.code).toBe(0);
  });

  it('refuses, as terraform does, two moves to one address and a cycle of moves', async () => {
    const declaredNow = { tenantform_infra_component: { sites: { for_each: { a: 'a', b: 'b' }, ...infra('Moved Site ${each.key}') } } };
    for (const [moved, why] of [
      [
        [
          { from: 'tenantform_infra_component.x', to: 'tenantform_infra_component.z' },
          { from: 'tenantform_infra_component.y', to: 'tenantform_infra_component.z' },
        ],
        'both move to tenantform_infra_component.z',
      ],
      [
        [
          { from: 'tenantform_infra_component.x', to: 'tenantform_infra_component.y' },
          { from: 'tenantform_infra_component.y', to: 'tenantform_infra_component.x' },
        ],
        'come back to it',
      ],
    ] as const) {
      writeConfig(world, config(declaredNow, [...moved]));
      const native = await oracle.tenantform('plan');
      expect(native.code).toBe(1);
      expect(native.stderr + native.stdout).toContain(why);
      expect((await oracle.terraform('plan')).code).toBe(1);
    }
  });
});
