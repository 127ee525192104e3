/**
 * `import` blocks (cdktf's `importFrom`; `for_each` as Terraform 1.7 takes it) on the native path:
 * the plan adopts existing objects ("will be imported", "N to import"), apply records them
 * without a create, and the next plan is empty. The real `terraform` with tenantform's provider
 * plans the same configuration and state the same way.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIRED_PROVIDERS, startOracle, type Oracle } from '../helpers/oracle';
import { configWith, infra, run, writeConfig, type World } from './helpers';

jest.setTimeout(180_000);

describe('import blocks', () => {
  let world: World;
  let oracle: Oracle;
  /** Ids of components made outside this stack (as in the console), by name. */
  const made: Record<string, string> = {};
  const infraWrites = (from: number) => world.requests.slice(from).filter((l) => /^(POST|PUT|DELETE) \/api\/2\/infra/.test(l));
  const config = (resources: Record<string, Record<string, unknown>>, imports: unknown[], extra: Record<string, unknown> = {}) => ({
    ...configWith(resources),
    terraform: REQUIRED_PROVIDERS,
    import: imports,
    ...extra,
  });

  /** The stack once its sites are declared: the primary component and one site per entry of var.sites (two of them made outside), and `more`. */
  const withSites = (more: Record<string, unknown>, imports: unknown[]) => {
    const sites = { two: { name: 'Console Two', id: made['Console Two'] }, three: { name: 'Console Three (renamed)', id: made['Console Three'] } };
    const site = { ...infra('x'), for_each: '${var.sites}', name: '${each.value.name}', url: 'https://x.example.com' };
    return config({ tenantform_infra_component: { primary: infra('Console One'), site, ...more } }, imports, { variable: { sites: { default: sites } } });
  };

  beforeAll(async () => {
    oracle = await startOracle('imports', config({ tenantform_infra_component: { primary: infra('Console One') } }, []));
    world = oracle.world;
    // Made by another stack: its state is thrown away, the objects stay on the platform.
    const names = ['Console One', 'Console Two', 'Console Three', 'Console Four', 'Console Five'];
    const other = writeConfig(world, configWith({ tenantform_infra_component: Object.fromEntries(names.map((n, i) => [`c${i}`, infra(n)])) }), 'other.tf.json');
    expect((await run(world, ['apply', '--auto-approve', '--config', other, '--state', 'other.tfstate'])).code).toBe(0);
    rmSync(join(world.dir, other));
    const otherState = JSON.parse(readFileSync(join(world.dir, 'other.tfstate'), 'utf8')) as {
      resources: Array<{ instances: Array<{ attributes: { id: string; name: string } }> }>;
    };
    for (const r of otherState.resources) for (const i of r.instances) if (i.attributes.name) made[i.attributes.name] = i.attributes.id;
  });
  afterAll(() => world.close());

  it('adopts an object: both tools plan "will be imported" and nothing else; apply sends no write; the next plan is empty', async () => {
    writeConfig(
      world,
      config({ tenantform_infra_component: { primary: infra('Console One') } }, [{ to: 'tenantform_infra_component.primary', id: made['Console One'] }]),
    );
    const native = await oracle.tenantform('plan', '--detailed-exitcode');
    expect(native.stdout).toContain('# tenantform_infra_component.primary will be imported');
    expect(native.stdout).toContain('Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.');
    const viaTerraform = await oracle.terraform('plan', '-detailed-exitcode');
    expect(viaTerraform.output).toContain('# tenantform_infra_component.primary will be imported');
    expect(viaTerraform.output).toContain('Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.');
    expect(native.code).toBe(2);
    expect(viaTerraform.code).toBe(2);

    const json = JSON.parse((await oracle.tenantform('plan', '--format', 'json')).stdout);
    const change = json.resource_changes.find((c: { address: string }) => c.address === 'tenantform_infra_component.primary');
    expect(change.change).toMatchObject({ actions: ['no-op'], importing: { id: made['Console One'] } });

    const before = world.requests.length;
    const applied = await oracle.tenantform('apply', '--auto-approve');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.');
    expect(infraWrites(before)).toEqual([]);
    // The import block may stay: the object is recorded now.
    expect((await oracle.tenantform('plan', '--detailed-exitcode')).code).toBe(0);
    expect((await oracle.terraform('plan', '-detailed-exitcode')).code).toBe(0);
  });

  it('for_each over a map imports into each instance; an argument that differs is updated in the same apply', async () => {
    writeConfig(world, withSites({}, [{ for_each: '${var.sites}', to: 'tenantform_infra_component.site[each.key]', id: '${each.value.id}' }]));
    const native = await oracle.tenantform('plan', '--detailed-exitcode');
    const viaTerraform = await oracle.terraform('plan', '-detailed-exitcode');
    for (const text of [native.stdout, viaTerraform.output]) {
      expect(text).toContain('# tenantform_infra_component.site["three"] will be updated in-place');
      expect(text).toContain(`# (imported from "${made['Console Three']}")`);
      expect(text).toContain('Plan: 2 to import, 0 to add, 2 to change, 0 to destroy.');
    }
    expect(native.code).toBe(viaTerraform.code);

    const before = world.requests.length;
    const applied = await oracle.tenantform('apply', '--auto-approve');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 2 imported, 0 added, 2 changed, 0 destroyed.');
    expect(infraWrites(before).filter((l) => l.startsWith('POST'))).toEqual([]);
    expect((await oracle.tenantform('plan', '--detailed-exitcode')).code).toBe(0);
    expect((await oracle.terraform('plan', '-detailed-exitcode')).code).toBe(0);
  });

  it('a saved plan imports as planned; a plan file edited to import what no block names is refused before anything is sent', async () => {
    // A stack of its own: the fourth component alone, in a state of its own.
    const saving = (...args: string[]) => run(world, [...args, '--config', 'saving.tf.json', '--state', 'saving.tfstate']);
    writeConfig(
      world,
      config({ tenantform_infra_component: { fourth: infra('Console Four') } }, [{ to: 'tenantform_infra_component.fourth', id: made['Console Four'] }]),
      'saving.tf.json',
    );
    expect((await saving('plan', '--out', 'import.plan')).code).toBe(0);
    const saved = JSON.parse(readFileSync(join(world.dir, 'import.plan'), 'utf8'));
    const edited = structuredClone(saved);
    const change = edited.plan.changes.find((c: { address: string }) => c.address === 'tenantform_infra_component.fourth');
    change.importing.id = made['Console Two'];
    writeFileSync(join(world.dir, 'edited.plan'), JSON.stringify(edited));
    const refused = await saving('apply', 'edited.plan');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`no import block imports "${made['Console Two']}" into it`);

    const before = world.requests.length;
    const applied = await saving('apply', 'import.plan');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.');
    expect(infraWrites(before)).toEqual([]);
    expect((await saving('plan', '--detailed-exitcode')).code).toBe(0);
    rmSync(join(world.dir, 'saving.tf.json'));
  });

  it('terraform applies an import block, and tenantform then plans nothing', async () => {
    writeConfig(world, withSites({ fifth: infra('Console Five') }, [{ to: 'tenantform_infra_component.fifth', id: made['Console Five'] }]));
    const applied = await oracle.terraform('apply', '-auto-approve');
    expect(applied.output).toContain('Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.');
    const native = await oracle.tenantform('plan', '--detailed-exitcode');
    expect(native.stdout).toContain('No changes.');
    expect(native.code).toBe(0);
  });

  it('an id the platform does not know is an error naming the block; nothing is created', async () => {
    const missing = '0b6f6c3e-0000-4000-8000-000000000000';
    writeConfig(world, config({ tenantform_infra_component: { extra: infra('Never Made') } }, [{ to: 'tenantform_infra_component.extra', id: missing }]));
    const before = world.requests.length;
    const native = await oracle.tenantform('plan');
    expect(native.code).toBe(1);
    expect(native.stdout + native.stderr).toContain(`import[0] imports "${missing}" into tenantform_infra_component.extra.`);
    expect(native.stdout).not.toContain('to add');
    expect(infraWrites(before)).toEqual([]);
  });

  it('an object the state manages at another address is refused, naming both', async () => {
    writeConfig(
      world,
      withSites({ fifth: infra('Console Five'), copy: infra('Console One') }, [{ to: 'tenantform_infra_component.copy', id: made['Console One'] }]),
    );
    const native = await oracle.tenantform('plan');
    expect(native.code).toBe(1);
    expect(native.stdout + native.stderr).toContain(
      `${made['Console One']} is already managed by tenantform as tenantform_infra_component.primary; nothing was imported. One object is managed at one address only: remove the import block import[0], or tenantform_infra_component.primary from the state.`,
    );
  });

  it('one object imported at two addresses (a for_each whose id is the same for every key) is refused at plan, before anything is sent', async () => {
    writeConfig(
      world,
      config({ tenantform_infra_component: { twin: { ...infra('x'), for_each: { a: 'a', b: 'b' }, name: 'Console Four' } } }, [
        { for_each: { a: 'a', b: 'b' }, to: 'tenantform_infra_component.twin[each.key]', id: made['Console Four'] },
      ]),
    );
    const before = world.requests.length;
    const native = await oracle.tenantform('plan');
    expect(native.code).toBe(1);
    expect(native.stdout + native.stderr).toContain(
      `tenantform_infra_component.twin["b"] imports "${made['Console Four']}", which tenantform_infra_component.twin["a"] imports already`,
    );
    expect(world.requests.slice(before).filter((l) => !l.startsWith('POST /api/2/idp/token'))).toEqual([]);
  });
});
