import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unmarkDeep } from '../expressions';
import type { Diagnostic } from '../diagnostics';
import { loadConfiguration, locateConfiguration } from './config';
import { readConfiguration } from './document';
import { readTerraformFolder } from './folder';

const TENANT = '91bd10dc-703c-44b6-b7a0-2aa91d1446fb';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tenantform-folder-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function files(contents: Record<string, string>): void {
  for (const [name, text] of Object.entries(contents)) writeFileSync(join(dir, name), text);
}

/** The one problem of the folder's files. */
async function refusal(): Promise<Diagnostic> {
  const { problems } = await readTerraformFolder(dir);
  if (problems.length !== 1) throw new Error(`expected one problem, got ${JSON.stringify(problems)}`);
  return problems[0];
}

const TENANT_BLOCK = `
resource "tenantform_tenant" "customer" {
  for_each  = var.customers
  parent_id = "${TENANT}"
  kind      = "customer"
  name      = each.value
}
`;

describe('a folder of Terraform files', () => {
  it('merges every .tf and .tf.json file, and says which file declares each block', async () => {
    files({
      'main.tf': TENANT_BLOCK,
      'variables.tf': 'variable "customers" { type = map(string) }\nlocals { region = "eu" }',
      'outputs.tf.json': JSON.stringify({
        output: { ids: { value: '${[for t in tenantform_tenant.customer : t.id]}' } },
        locals: { zone: 'a', ['__proto__']: 'p' },
      }),
      'notes.txt': 'not read',
    });
    const folder = await readTerraformFolder(dir);
    expect(Object.keys(folder.document).sort()).toEqual(['locals', 'output', 'resource', 'variable']);
    // Any name is a name: `__proto__` is merged as one, never as the object's prototype.
    expect(Object.entries(folder.document.locals as object)).toEqual([
      ['zone', 'a'],
      ['__proto__', 'p'],
      ['region', 'eu'],
    ]);
    expect(folder.fileOf('tenantform_tenant.customer["contoso"]')).toBe('main.tf');
    expect(folder.fileOf('var.customers')).toBe('variables.tf');
    expect(folder.fileOf('output.ids')).toBe('outputs.tf.json');
    expect(folder.fileOf('local.zone')).toBe('outputs.tf.json');
  });

  it('says where each block and each of its arguments is written: its file, and the line in a .tf file', async () => {
    files({
      'main.tf': `# Customers\n${TENANT_BLOCK}`,
      'variables.tf': 'variable "customers" {\n  type = map(string)\n}\nlocals {\n  region = "eu"\n  zone = <<EOT\n  a {\nEOT\n}\n',
      'outputs.tf.json': JSON.stringify({ output: { ids: { value: 1 } } }),
    });
    const { positionOf } = await readTerraformFolder(dir);
    expect(positionOf('tenantform_tenant.customer["contoso"]')).toEqual({ file: 'main.tf', line: 3 });
    expect(positionOf('tenantform_tenant.customer["contoso"]', ['name'])).toEqual({ file: 'main.tf', line: 7 });
    // An argument the block does not have: the block's own line.
    expect(positionOf('tenantform_tenant.customer', ['colour'])).toEqual({ file: 'main.tf', line: 3 });
    expect(positionOf('var.customers')).toEqual({ file: 'variables.tf', line: 1 });
    expect(positionOf('local.zone')).toEqual({ file: 'variables.tf', line: 6 });
    // Terraform JSON files have no lines to tell.
    expect(positionOf('output.ids')).toEqual({ file: 'outputs.tf.json' });
    expect(positionOf('tenantform_user.admin')).toBeUndefined();
  });

  it('reports every problem of every file in one reading, each naming its file and, where known, its line', async () => {
    files({
      'a.tf': TENANT_BLOCK,
      'b.tf': 'locals {\n  a = 1\n  a b\n  c = 2\n  d e\n}\n',
      'c.tf': `variable "customers" {}\n${TENANT_BLOCK}\nvariable "customers" {}\n`,
      'd.tf.json': '{ "locals": ',
      'e_override.tf': TENANT_BLOCK,
      'f.tf': 'resource "tenantform_offering_items" "backup" {\n  items {\n    name = "storage"\n  }\n}\n',
    });
    const { problems } = await readTerraformFolder(dir);
    expect(problems.map((p) => [p.file, p.line, p.summary])).toEqual([
      ['b.tf', 3, 'Cannot read the configuration'],
      ['b.tf', 5, 'Cannot read the configuration'],
      ['c.tf', 10, 'Duplicate variable declaration'],
      ['c.tf', 3, 'Duplicate resource'],
      ['d.tf.json', undefined, 'Cannot read the configuration'],
      ['e_override.tf', undefined, 'Override files are not read'],
      ['f.tf', 2, 'Unsupported block type "items"'],
    ]);
    expect(problems.every((p) => p.severity === 'error')).toBe(true);
    // Each problem in the words it has alone.
    expect(problems[0].detail).toMatch(/^b\.tf: line 3, column 6: Invalid block definition; A block definition must have block content .*header\.$/);
    expect(problems[1].detail).toMatch(/^b\.tf: line 5, column 6: Invalid block definition; /);
    expect(problems[2].detail).toBe('var.customers is declared twice in c.tf. Each must be declared once per folder: remove or rename one.');
    expect(problems[3].detail).toContain('tenantform_tenant.customer is declared in a.tf and again in c.tf');
  });

  it('refuses a block declared in two files, naming both', async () => {
    files({ 'a.tf': TENANT_BLOCK, 'b.tf.json': JSON.stringify({ resource: { tenantform_tenant: { customer: { name: 'x' } } } }) });
    const err = await refusal();
    expect(err.summary).toBe('Duplicate resource');
    expect(err.detail).toContain('tenantform_tenant.customer is declared in a.tf and again in b.tf.json');
    expect(err.address).toBe('tenantform_tenant.customer');
  });

  it('refuses a local value, an output or a backend declared twice', async () => {
    files({ 'a.tf': 'locals { x = 1 }', 'b.tf': 'locals { x = 2 }' });
    expect((await refusal()).detail).toContain('local.x is declared in a.tf and again in b.tf');
    rmSync(join(dir, 'b.tf'));
    files({ 'a.tf': 'terraform {\n  backend "local" {}\n}', 'b.tf': 'terraform {\n  backend "pg" {}\n}' });
    expect((await refusal()).summary).toBe('Duplicate backend configuration');
  });

  it('names the file, line and column of what the converter cannot read', async () => {
    files({ 'main.tf': TENANT_BLOCK, 'broken.tf': 'locals {\n  a =\n}\n' });
    const err = await refusal();
    expect(err.detail).toMatch(/^broken\.tf: line 2, column \d+: Invalid expression/);
  });

  it('refuses a structured attribute written as a block, as terraform does, and takes it written with =', async () => {
    const items = (written: string) => `
resource "tenantform_offering_items" "backup" {
  tenant_id      = "${TENANT}"
  application_id = "${TENANT}"
  ${written}
}
`;
    files({ 'offering.tf': items('items {\n    name = "storage"\n  }') });
    const err = await refusal();
    expect(err.summary).toBe('Unsupported block type "items"');
    expect(err.address).toBe('tenantform_offering_items.backup');
    expect(err.detail).toContain('offering.tf: blocks of type "items" are not expected here');
    files({ 'offering.tf': items('items = [{\n    name = "storage"\n  }]') });
    const folder = await readTerraformFolder(dir);
    expect(folder.document.resource).toEqual({
      tenantform_offering_items: { backup: { tenant_id: TENANT, application_id: TENANT, items: [{ name: 'storage' }] } },
    });
  });

  it('refuses override files by name', async () => {
    files({ 'main.tf': TENANT_BLOCK, 'main_override.tf': TENANT_BLOCK });
    const err = await refusal();
    expect(err.summary).toBe('Override files are not read');
    expect(err.detail).toContain('main_override.tf');
    expect(err.detail).toContain('terraform plan');
  });

  it('is found with --config DIR, or in the current folder without cdktf.json, with its state in terraform.tfstate', () => {
    files({ 'main.tf': TENANT_BLOCK });
    expect(locateConfiguration({ cwd: dir })).toMatchObject({ source: 'folder', dir, defaultState: join(dir, 'terraform.tfstate') });
    expect(locateConfiguration({ cwd: tmpdir(), config: dir })).toMatchObject({ source: 'folder', dir });
    expect(() => locateConfiguration({ cwd: dir, config: 'main.tf' })).toThrow(/Name the folder: --config \./);
    // A cdktf project keeps its synthesized stack, even with .tf files beside it.
    mkdirSync(join(dir, 'cdktf.out', 'stacks', 'app'), { recursive: true });
    files({ 'cdktf.json': '{}', 'cdktf.out/stacks/app/cdk.tf.json': '{}' });
    expect(locateConfiguration({ cwd: dir })).toMatchObject({ source: 'file', stack: 'app' });
  });

  it("loads terraform.tfvars, terraform.tfvars.json and *.auto.tfvars in terraform's order, below --var-file and --var", async () => {
    files({
      'main.tf': 'variable "a" {}\nvariable "b" {}\nvariable "c" {}\nvariable "d" {}\nvariable "e" {}',
      'terraform.tfvars': 'a = "tfvars"\nb = "tfvars"\nc = "tfvars"\nd = "tfvars"\ne = "tfvars"',
      'terraform.tfvars.json': JSON.stringify({ b: 'tfvars.json', c: 'tfvars.json', d: 'tfvars.json', e: 'tfvars.json' }),
      'a.auto.tfvars': 'c = "a.auto"\nd = "a.auto"\ne = "a.auto"',
      'b.auto.tfvars.json': JSON.stringify({ d: 'b.auto.json', e: 'b.auto.json' }),
      'given.tfvars': 'e = "given"',
    });
    const location = locateConfiguration({ cwd: dir });
    const inputs = { files: location.varFiles, given: [{ kind: 'file' as const, text: 'given.tfvars' }], env: { TF_VAR_a: 'env' }, cwd: dir };
    const { configuration, diagnostics } = loadConfiguration({ ...location, inputs }, (await readConfiguration(location)).document);
    expect(diagnostics).toEqual([]);
    const values = Object.fromEntries([...configuration!.variables.values()].map((v) => [v.name, unmarkDeep(v.value)]));
    expect(values).toEqual({ a: 'tfvars', b: 'tfvars.json', c: 'a.auto', d: 'b.auto.json', e: 'given' });
  });
});
