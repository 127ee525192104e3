/**
 * What `terraform query -generate-config-out` (Terraform 1.14) writes for a listed object is a
 * configuration that adopts it: the listing and GenerateResourceConfig are asked over gRPC as
 * Terraform 1.14 asks them, the configuration is written in HCL with an `import` block by id
 * (which Terraform 1.11 reads), and the installed `terraform` imports the object without a change.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decoded, msgpack, serveWithEmulator, type Emulator, type ProviderOverGrpc } from './grpc';
import { ensureBuilt, PROVIDER_HCL, requireTerraform, terraformFolder, type TerraformFolder } from './helpers';

jest.setTimeout(180_000);

let emulator: Emulator;
let provider: ProviderOverGrpc;
let folder: TerraformFolder;

beforeAll(async () => {
  requireTerraform();
  await ensureBuilt();
  ({ emulator, provider } = await serveWithEmulator('1.14.0'));
  folder = await terraformFolder('query-generate', emulator);
});

afterAll(async () => {
  await provider?.close();
  await emulator?.close();
  folder?.remove();
});

/** A resource block as Terraform writes generated configuration: the attributes set, null ones left out. */
function resourceBlock(type: string, name: string, config: Record<string, unknown>): string {
  const set = Object.entries(config).filter(([, v]) => v !== null);
  const width = Math.max(...set.map(([k]) => k.length));
  // A JSON literal is an HCL expression too (strings, numbers, lists, objects with `:`).
  return [`resource "${type}" "${name}" {`, ...set.map(([k, v]) => `  ${k.padEnd(width)} = ${JSON.stringify(v)}`), '}'].join('\n');
}

test('Terraform 1.14 generated configuration of a listed tenant, imported by id through Terraform 1.11, plans no change', async () => {
  const northwind = emulator.world().tenants['Northwind Partner'].id;
  const [listed] = await provider.stream('ListResource', {
    type_name: 'tenantform_tenant',
    config: msgpack({ tenant_id: northwind, include_subtree: null, name_contains: 'globex' }),
    include_resource_object: true,
    limit: 1,
  });
  expect(listed.display_name).toBe('Globex Retail / tenant');
  const generated = await provider.call('GenerateResourceConfig', { type_name: 'tenantform_tenant', state: listed.resource_object });
  expect(generated.diagnostics).toEqual([]);
  const { tenant_id: id } = decoded(listed.identity.identity_data)!;

  writeFileSync(
    join(folder.dir, 'main.tf'),
    [
      PROVIDER_HCL,
      resourceBlock('tenantform_tenant', 'globex', decoded(generated.config)!),
      '',
      'import {',
      '  to = tenantform_tenant.globex',
      `  id = "${id}"`,
      '}',
      '',
    ].join('\n'),
  );
  const init = await folder.terraform('init', '-input=false', '-no-color');
  expect(init.code).toBe(0);
  const plan = await folder.terraform('plan', '-input=false', '-no-color');
  if (plan.code !== 0) throw new Error(plan.output);
  expect(plan.stdout).toContain('Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.');
  const apply = await folder.terraform('apply', '-auto-approve', '-input=false', '-no-color');
  if (apply.code !== 0) throw new Error(apply.output);
  const again = await folder.terraform('plan', '-detailed-exitcode', '-input=false', '-no-color');
  expect(again.stdout).toContain('No changes.');
  expect(again.code).toBe(0);
});
