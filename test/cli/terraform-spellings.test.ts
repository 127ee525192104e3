import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

const ESCAPE = '\x1b[';

describe("Terraform's single-dash spellings", () => {
  let world: World;
  let file: string;
  beforeAll(async () => {
    world = await startWorld();
    file = writeConfig(world, configWith({ tenantform_infra_component: { a: infra('Single A'), b: infra('Single B') } }));
  });
  afterAll(() => world.close());

  it('plan -detailed-exitcode -out=FILE -target=ADDR -parallelism=N', async () => {
    const plan = await run(world, ['plan', '-config', file, '-detailed-exitcode', '-out=a.plan', '-target=tenantform_infra_component.a', '-parallelism=3']);
    expect(plan.stderr).not.toContain('Unknown argument');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
    expect(plan.stdout).not.toContain('tenantform_infra_component.b');
    expect(existsSync(join(world.dir, 'a.plan'))).toBe(true);
    const apply = await run(world, ['apply', '-config', file, 'a.plan']);
    expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
  });

  it('apply -auto-approve -input=false, then plan -refresh=false trusts the state', async () => {
    const apply = await run(world, ['apply', '-config', file, '-auto-approve', '-input=false']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    await world.client.deleteInfra(...(await infraIdAndVersion(world, 'Single B')));
    expect((await run(world, ['plan', '-config', file, '-detailed-exitcode', '-refresh=false'])).code).toBe(0);
    expect((await run(world, ['plan', '-config', file, '-detailed-exitcode'])).code).toBe(2);
  });

  it('-no-color wins over FORCE_COLOR; FORCE_COLOR colours a pipe', async () => {
    const env = { NO_COLOR: undefined, FORCE_COLOR: '1' };
    const colored = await run(world, ['plan', '-config', file], env);
    expect(colored.stdout).toContain(ESCAPE);
    const plain = await run(world, ['plan', '-config', file, '-no-color'], env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain(ESCAPE);
    expect(plain.stdout).toContain('Plan: 1 to add');
    const drift = await run(world, ['drift', '-config', file, '-no-color', '-parallelism=2']);
    expect(drift.stderr).not.toContain('Unknown argument');
  });

  it('an unknown single-dash word is refused by its name, not letter by letter', async () => {
    const r = await run(world, ['plan', '-config', file, '-frobnicate']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Unknown argument: frobnicate');
  });

  it('-chdir=DIR before the command runs it in DIR; a folder that does not exist is an error', async () => {
    mkdirSync(join(world.dir, 'infra'), { recursive: true });
    copyFileSync(join(world.dir, file), join(world.dir, 'infra', 'main.tf.json'));
    // Its own state there: nothing applied yet, so the plan has changes.
    const plan = await run(world, ['-chdir=infra', 'plan', '-config', 'main.tf.json', '-detailed-exitcode', '-state=terraform.tfstate']);
    expect(plan.stdout).toContain('Plan: 2 to add, 0 to change, 0 to destroy.');
    expect(plan.code).toBe(2);
    const missing = await run(world, ['-chdir=nowhere', 'plan', '-detailed-exitcode']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('-chdir=nowhere: no such folder');
  });

  it('a Terraform command tenantform does not have says so and where its work is done, instead of guessing another', async () => {
    const init = await run(world, ['init']);
    expect(init.code).toBe(1);
    expect(init.stderr).toContain('`init` is a Terraform command that tenantform does not have. tenantform needs no init');
    expect(init.stderr).not.toContain('Did you mean');
    const graph = await run(world, ['graph']);
    expect(graph.stderr).toContain('Run `terraform graph` in this folder'); // the test's folder holds Terraform JSON files
    const typo = await run(world, ['plna']);
    expect(typo.stderr).toContain('Did you mean plan?');
  });

  it('init and fmt speak of what the folder is: Terraform files, or a CDK Terrain app and its own CLI', async () => {
    mkdirSync(join(world.dir, 'hcl'), { recursive: true });
    writeFileSync(join(world.dir, 'hcl', 'main.tf'), 'terraform {}\n');
    const hclInit = await run(world, ['-chdir=hcl', 'init']);
    expect(hclInit.stderr).toContain(
      "tenantform needs no init: it reads this folder's .tf files and the backend they declare. Or run `terraform init` in this folder",
    );
    expect((await run(world, ['-chdir=hcl', 'fmt'])).stderr).toContain("tenantform reads this folder's .tf files as they are written.");
    mkdirSync(join(world.dir, 'app'), { recursive: true });
    writeFileSync(join(world.dir, 'app', 'cdktf.json'), '{}');
    writeFileSync(join(world.dir, 'app', 'package.json'), JSON.stringify({ devDependencies: { cdktn: '^0.24.0' } }));
    const appFmt = await run(world, ['-chdir=app', 'fmt']);
    expect(appFmt.stderr).toContain('tenantform reads what `cdktn synth` writes');
    expect(appFmt.stderr).toContain("in the stack's folder (cdktf.out/stacks/<stack>)");
  });

  it('version and version -json', async () => {
    const text = await run(world, ['version']);
    expect(text.stdout).toMatch(/^tenantform v\d+\.\d+\.\d+\non linux_/);
    const json = JSON.parse((await run(world, ['version', '-json'])).stdout);
    expect(json).toMatchObject({ tenantform_version: expect.stringMatching(/^\d+\.\d+\.\d+/), platform: expect.stringMatching(/_/) });
  });

  it('apply -destroy destroys what the state records, as terraform apply -destroy does', async () => {
    const destroyed = await run(world, ['apply', '-destroy', '-config', file, '-auto-approve']);
    expect(destroyed.stderr).not.toContain('Unknown argument');
    expect(destroyed.code).toBe(0);
    // Single B was deleted outside tenantform (above): only Single A is left to destroy.
    expect(destroyed.stdout).toContain('Destroy complete! Resources: 1 destroyed.');
    const names = (await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')))).map((c) => c.name);
    expect(names).not.toContain('Single A');
  });
});

async function infraIdAndVersion(world: World, name: string): Promise<[string, number]> {
  const all = await world.client.getInfra(await world.client.listTenantInfra(world.tenant('Northwind Partner')));
  const found = all.find((c) => c.name === name)!;
  return [found.id, found.version];
}
