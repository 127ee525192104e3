import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, requireTerraform, run as runProcess, terraformEnvironment } from '../provider/helpers';
import { run, startWorld, writeConfig, type World } from '../cli/helpers';
import { REQUIRED_PROVIDERS } from '../helpers/oracle';

/**
 * Configurations Terraform refuses, each checked against the real `terraform` on the same folder:
 * tenantform's verdict equals Terraform's (`validate` against `terraform validate`, `plan` against
 * `terraform plan` where validate takes it), a refusal names what is at fault, and nothing is sent.
 */
interface Case {
  readonly name: string;
  readonly files: Readonly<Record<string, string | Buffer>>;
  readonly command: 'validate' | 'plan';
  /** What tenantform's refusal names (the address, the file or the argument); absent where both accept. */
  readonly names?: string;
}

const PARENT = 'parent_id = "0b6f6c3e-1d2a-4c5b-9e8f-7a6b5c4d3e2f"\n  kind = "customer"';
const echoed = (expression: string) => ({ 'main.tf': `locals {\n  l = ${expression}\n}\noutput "o" {\n  value = local.l\n}\n` });

const CASES: readonly Case[] = [
  {
    name: 'a function call in terraform.tfvars',
    files: { 'main.tf': 'variable "v" {\n  type = string\n}\noutput "o" {\n  value = var.v\n}\n', 'terraform.tfvars': 'v = upper("x")\n' },
    command: 'plan',
    names: 'Function calls not allowed',
  },
  {
    name: 'a constant terraform.tfvars',
    files: { 'main.tf': 'variable "v" {\n  type = string\n}\noutput "o" {\n  value = var.v\n}\n', 'terraform.tfvars': 'v = "x"\n' },
    command: 'plan',
  },
  {
    name: 'a null key written as an expression',
    files: { 'main.tf': 'locals {\n  n = null\n  m = { (local.n) = 1 }\n}\n' },
    command: 'validate',
    names: 'local.m',
  },
  { name: 'a null key of a for expression', files: echoed('{ for k in ["a", null] : k => k }'), command: 'validate', names: 'local.l' },
  {
    name: 'a string key written as an expression',
    files: { 'main.tf': 'locals {\n  k = "a"\n  m = { (local.k) = 1 }\n}\noutput "o" {\n  value = local.m.a\n}\n' },
    command: 'plan',
  },
  {
    name: 'for_each with a null key',
    files: {
      'main.tf': `locals {\n  n = null\n}\nresource "tenantform_tenant" "t" {\n  for_each = { (local.n) = "x" }\n  ${PARENT}\n  name = each.value\n}\n`,
    },
    command: 'validate',
    names: 'tenantform_tenant.t',
  },
  {
    name: 'a check condition that is a string',
    files: { 'main.tf': 'locals {\n  s = "yes"\n}\ncheck "c" {\n  assert {\n    condition     = local.s\n    error_message = "no"\n  }\n}\n' },
    command: 'plan',
    names: 'check.c',
  },
  {
    name: 'a check condition that names nothing',
    files: { 'main.tf': 'check "c" {\n  assert {\n    condition     = "yes"\n    error_message = "no"\n  }\n}\n' },
    command: 'validate',
    names: 'check.c',
  },
  {
    name: 'a check condition that is the string "true"',
    files: { 'main.tf': 'locals {\n  s = "true"\n}\ncheck "c" {\n  assert {\n    condition     = local.s\n    error_message = "no"\n  }\n}\n' },
    command: 'plan',
  },
  {
    name: 'a required_version no release meets',
    files: { 'main.tf': 'terraform {\n  required_version = ">= 99.0"\n}\n' },
    command: 'validate',
    names: 'required_version',
  },
  { name: 'a required_version this release meets', files: { 'main.tf': 'terraform {\n  required_version = ">= 1.5, < 2.0"\n}\n' }, command: 'validate' },
  {
    name: 'bytes that are not UTF-8 in a string',
    files: { 'main.tf': Buffer.concat([Buffer.from('output "o" {\n  value = "a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"\n}\n')]) },
    command: 'validate',
    names: 'main.tf',
  },
  { name: 'an unknown function', files: { 'main.tf': 'output "o" {\n  value = foo(1)\n}\n' }, command: 'validate', names: 'output.o' },
  { name: 'too many function arguments', files: { 'main.tf': 'output "o" {\n  value = upper("a", "b")\n}\n' }, command: 'validate', names: 'output.o' },
  { name: 'an index out of range', files: echoed('[1, 2][5]'), command: 'validate', names: 'local.l' },
  { name: 'a key the object does not have', files: echoed('{ a = 1 }["b"]'), command: 'validate', names: 'local.l' },
  {
    name: 'an attribute the local object does not have',
    files: { 'main.tf': 'locals {\n  o = { a = 1 }\n}\noutput "o" {\n  value = local.o.b\n}\n' },
    command: 'validate',
    names: 'output.o',
  },
  { name: 'a string added to a number', files: echoed('"a" + 1'), command: 'validate', names: 'local.l' },
  { name: 'an index into an output', files: { 'main.tf': 'output "o" {\n  value = [1, 2][5]\n}\n' }, command: 'validate', names: 'output.o' },
  {
    name: 'an index out of range only for a variable given',
    files: { 'main.tf': 'variable "i" {\n  default = 5\n}\nlocals {\n  l = [1, 2][var.i]\n}\n' },
    command: 'validate',
  },
  { name: 'locals that refer to each other', files: { 'main.tf': 'locals {\n  a = local.b\n  b = local.a\n}\n' }, command: 'validate', names: 'local.a' },
  {
    name: 'resources that refer to each other',
    files: {
      'main.tf':
        'resource "tenantform_tenant" "a" {\n  parent_id = tenantform_tenant.b.id\n  kind = "customer"\n  name = "A"\n}\n' +
        'resource "tenantform_tenant" "b" {\n  parent_id = tenantform_tenant.a.id\n  kind = "customer"\n  name = "B"\n}\n',
    },
    command: 'validate',
    names: 'tenantform_tenant.',
  },
];

describe('configurations terraform refuses, refused alike', () => {
  let world: World;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    requireTerraform();
    await ensureBuilt();
    world = await startWorld();
    env = await terraformEnvironment(world.dir, world.emulator, `refused-${process.pid}`);
    // The provider declared in a file of its own, kept through every case, so that init runs once.
    writeConfig(world, { terraform: REQUIRED_PROVIDERS }, 'providers.tf.json');
    const init = await terraform('init');
    if (init.code !== 0) throw new Error(init.output);
    // Installing the provider and `terraform init`: tens of seconds on a loaded machine.
  }, 240_000);
  afterAll(() => world?.close());

  const terraform = (...args: string[]) => runProcess('terraform', [...args, '-no-color'], { cwd: world.dir, env });
  const changesSent = () => world.requests.filter((r) => /^(POST|PUT|PATCH|DELETE) /.test(r) && !r.includes('/idp/token'));

  /** Only the case's files beside the provider's declaration. */
  const writeCase = (files: Case['files']) => {
    for (const f of readdirSync(world.dir)) if (/\.(tf|tfvars)$/.test(f) || f === 'main.tf.json') rmSync(join(world.dir, f));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(world.dir, file), text);
  };

  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s',
    async (_, c) => {
      writeCase(c.files);
      const theirs = c.command === 'validate' ? await terraform('validate') : await terraform('plan', '-input=false', '-lock=false', '-refresh=false');
      world.requests.length = 0;
      const ours = await run(world, c.command === 'validate' ? ['validate', '--config', '.'] : ['plan', '--config', '.', '--state', 'refused.tfstate']);
      const verdict = (code: number | null) => (code === 0 ? 'accepted' : 'refused');
      expect({ tenantform: verdict(ours.code), output: ours.stdout + ours.stderr }).toMatchObject({ tenantform: verdict(theirs.code) });
      if (c.names !== undefined) {
        expect(theirs.code).not.toBe(0);
        expect(ours.stdout + ours.stderr).toContain(c.names);
      }
      expect(changesSent()).toEqual([]);
      // One run of terraform and one of the command: seconds each on a loaded machine.
    },
    60_000,
  );
});
