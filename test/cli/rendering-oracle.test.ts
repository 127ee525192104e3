/**
 * What tenantform prints of values is what terraform prints, line for line, on the same folder and
 * state: `state show` of an object with a list of objects, `output` of a map, the plan's changes
 * to a map output, and an object created with a list of objects.
 */
import { run, type World } from './helpers';
import { startTerraformFolder, type TerraformFolderWorld } from './terraform-folder';

const MAIN = `
terraform {
  required_providers {
    tenantform = { source = "tenantform/tenantform" }
  }
}
data "tenantform_tenant" "northwind" { name = "Northwind Partner" }
data "tenantform_application" "backup" { type = "backup" }
resource "tenantform_tenant" "customer" {
  parent_id = data.tenantform_tenant.northwind.id
  kind      = "customer"
  name      = "Rendered Customer"
}
resource "tenantform_offering_items" "backup" {
  tenant_id      = tenantform_tenant.customer.id
  application_id = data.tenantform_application.backup.id
  items          = [{ name = "storage", quota = { value = 100, overage = 0 } }, { name = "workstations" }]
}
`;

const output = (value: string) => `output "summary" {\n  value = ${value}\n}\n`;

/** The block of a plan's text from the line that starts with `from` to the first blank line after it. */
function section(text: string, from: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(from));
  if (start < 0) throw new Error(`no "${from}" in:\n${text}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === '');
  return lines.slice(start, end).join('\n');
}

describe('values rendered as terraform renders them', () => {
  let world: World;
  let folder: TerraformFolderWorld;

  beforeAll(async () => {
    folder = await startTerraformFolder('rendered', { 'main.tf': MAIN, 'outputs.tf': output('{ a = 1, long_name = "x", c = [1, 2] }') });
    world = folder.world;
    expect((await run(world, ['-chdir=rendered', 'apply', '-auto-approve'])).code).toBe(0);
  }, 120_000);
  afterAll(() => world.close());

  const inFolder = (...args: string[]) => run({ ...world, dir: folder.folder }, args);

  it('state show and output', async () => {
    for (const args of [['state', 'show', 'tenantform_offering_items.backup'], ['output'], ['output', 'summary']]) {
      const ours = await inFolder(...args);
      const theirs = await folder.terraformExactly(...args, '-no-color');
      expect(theirs.code).toBe(0);
      expect(ours.stdout).toBe(theirs.stdout);
    }
  });

  it("a map output's change, key by key, and an object created with a list of objects, attributes by name", async () => {
    folder.write({
      'outputs.tf': output('{ a = 2, long_name = "x", c = [1, 3], d = { x = 1 } }'),
      'more.tf': `
data "tenantform_application" "monitoring" { type = "monitoring" }
resource "tenantform_offering_items" "monitoring" {
  tenant_id      = tenantform_tenant.customer.id
  application_id = data.tenantform_application.monitoring.id
  items          = [{ name = "monitoring_workstations", quota = { value = 5, overage = 1 } }]
}
`,
    });
    const ours = (await inFolder('plan')).stdout;
    const theirs = (await folder.terraform('plan')).stdout;
    expect(section(ours, 'Changes to Outputs:')).toBe(section(theirs, 'Changes to Outputs:'));
    // The created object's block, from its comment to its closing brace.
    const created = (text: string) => {
      const lines = text.slice(text.indexOf('  # tenantform_offering_items.monitoring will be created')).split('\n');
      return lines.slice(0, lines.indexOf('    }') + 1).join('\n');
    };
    expect(created(ours)).toBe(created(theirs));
  });
});
