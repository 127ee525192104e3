import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, requireTerraform, run as runProcess } from '../provider/helpers';
import { run, startWorld, type World } from './helpers';

/**
 * A team whose stacks take tenantform from its own registry (or OpenTofu's): the configuration's
 * `required_providers` source, not a constant, is what the state records, so `terraform` plans
 * the stack tenantform applied. The provider is installed for that address with
 * `tenantform provider install --source`, as the team's mirror would hold it.
 */
const SOURCE = 'Registry.Example.com/Platform-Team/tenantform';
const ADDRESS = 'registry.example.com/platform-team/tenantform';

function stack(source: string, customer = 'Addressed Customer'): string {
  return `
terraform {
  required_providers {
    tenantform = { source = "${source}" }
  }
}

provider "tenantform" {}

data "tenantform_tenant" "northwind" {
  name = "Northwind Partner"
}

resource "tenantform_tenant" "customer" {
  parent_id = data.tenantform_tenant.northwind.id
  kind      = "customer"
  name      = "${customer}"
}
`;
}

let world: World;
beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  world = await startWorld();
});
afterAll(async () => world?.emulator.close());

function recordedProviders(folder: string): string[] {
  const state = JSON.parse(readFileSync(join(world.dir, folder, 'terraform.tfstate'), 'utf8')) as { resources: Array<{ provider: string }> };
  return [...new Set(state.resources.map((r) => r.provider))];
}

test('a stack naming a private registry is recorded with that address by tenantform apply, and terraform then plans it with no changes', async () => {
  mkdirSync(join(world.dir, 'private'));
  writeFileSync(join(world.dir, 'private', 'main.tf'), stack(SOURCE));
  const applied = await run(world, ['-chdir=private', 'apply', '--auto-approve']);
  expect(applied.code).toBe(0);
  expect(recordedProviders('private')).toEqual([`provider["${ADDRESS}"]`]);
  expect(JSON.parse((await run(world, ['-chdir=private', 'plan', '--format', 'json'])).stdout)).toMatchObject({
    configuration: { provider_config: { tenantform: { full_name: ADDRESS } } },
  });

  // The team's mirror: the provider installed under the stack's address, terraform told to take it from there.
  const install = await run(world, ['provider', 'install', '--dir', join(world.dir, 'mirror'), '--source', SOURCE, '--print-cli-config']);
  expect(install.code).toBe(0);
  expect(install.stdout).toContain(`include = ["${ADDRESS}"]`);
  writeFileSync(join(world.dir, 'team.tfrc'), install.stdout);
  const env = {
    PATH: process.env.PATH,
    HOME: join(world.dir, 'home'),
    TF_CLI_CONFIG_FILE: join(world.dir, 'team.tfrc'),
    TF_IN_AUTOMATION: '1',
    CHECKPOINT_DISABLE: '1',
    TENANTFORM_BASE_URL: world.emulator.url,
    TENANTFORM_CLIENT_ID: world.emulator.clientId,
    TENANTFORM_CLIENT_SECRET: world.emulator.clientSecret,
  };
  const terraform = (...args: string[]) => runProcess('terraform', [...args, '-input=false', '-no-color'], { cwd: join(world.dir, 'private'), env });
  const init = await terraform('init');
  expect(init.output).toContain(`Installing ${ADDRESS}`);
  expect(init.code).toBe(0);
  const plan = await terraform('plan', '-detailed-exitcode');
  expect(plan.output).toContain('No changes.');
  expect(plan.code).toBe(0);
});

test("a stack naming OpenTofu's registry keeps it; a stack naming no source keeps the address its state records", async () => {
  mkdirSync(join(world.dir, 'tofu'));
  writeFileSync(join(world.dir, 'tofu', 'main.tf'), stack('registry.opentofu.org/tenantform/tenantform', 'Tofu Customer'));
  expect((await run(world, ['-chdir=tofu', 'apply', '--auto-approve'])).code).toBe(0);
  expect(recordedProviders('tofu')).toEqual(['provider["registry.opentofu.org/tenantform/tenantform"]']);

  // The requirement taken out: objects keep the address recorded for them, new ones take the state's.
  writeFileSync(
    join(world.dir, 'tofu', 'main.tf'),
    `${stack('x/y', 'Tofu Customer').replace(/terraform \{[\s\S]*?\n\}\n/, '')}
resource "tenantform_tenant" "second" {
  parent_id = data.tenantform_tenant.northwind.id
  kind      = "customer"
  name      = "Second Addressed Customer"
}
`,
  );
  expect((await run(world, ['-chdir=tofu', 'apply', '--auto-approve'])).code).toBe(0);
  expect(recordedProviders('tofu')).toEqual(['provider["registry.opentofu.org/tenantform/tenantform"]']);
});

test('a source that is not an address is refused at plan, naming the setting, before any request', async () => {
  mkdirSync(join(world.dir, 'malformed'));
  writeFileSync(join(world.dir, 'malformed', 'main.tf'), stack('not a/source/at/all', 'Malformed Customer'));
  const before = world.requests.length;
  const plan = await run(world, ['-chdir=malformed', 'plan']);
  expect(plan.code).toBe(1);
  expect(plan.stderr).toContain('Invalid provider source address');
  expect(plan.stderr).toContain('required_providers.tenantform.source');
  expect(world.requests.length).toBe(before);
  const install = await run(world, ['provider', 'install', '--dir', join(world.dir, 'unused'), '--source', 'one-part']);
  expect(install.code).toBe(1);
  expect(install.stderr).toContain('"one-part" is not a provider source address');
});
