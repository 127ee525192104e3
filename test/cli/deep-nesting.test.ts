import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, run, startWorld, writeConfig, type World } from './helpers';

/** Each shape of nesting, `depth` levels deep, as the file that holds it. */
const SHAPES: Record<string, (depth: number) => { file: string; text: string }> = {
  'template in .tf': (n) => hcl(`${'"${'.repeat(n)}1${'}"'.repeat(n)}`),
  'list in .tf': (n) => hcl(`${'['.repeat(n)}1${']'.repeat(n)}`),
  'object in .tf': (n) => hcl(`${'{a='.repeat(n)}1${'}'.repeat(n)}`),
  'for expression in .tf': (n) => hcl(`${'[for a in '.repeat(n)}[1]${' : a]'.repeat(n)}`),
  'conditional in .tf': (n) => hcl(`${'true ? '.repeat(n)}1${' : 0'.repeat(n)}`),
  'parentheses in .tf': (n) => hcl(`${'('.repeat(n)}1${')'.repeat(n)}`),
  'function calls in .tf': (n) => hcl(`${'tolist('.repeat(n)}[]${')'.repeat(n)}`),
  'negations in .tf': (n) => hcl(`${'!'.repeat(n)}true`),
  'index in .tf': (n) => hcl(`[1]${'[0]'.repeat(n)}`),
  'list in .tf.json': (n) => json(`${'['.repeat(n)}1${']'.repeat(n)}`),
  'object in .tf.json': (n) => json(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  'template in .tf.json': (n) => json(JSON.stringify(`${'${"'.repeat(n)}1${'"}'.repeat(n)}`)),
  'for expression in .tf.json': (n) => json(JSON.stringify(`\${${'[for a in '.repeat(n)}[1]${' : a]'.repeat(n)}}`)),
  'conditional in .tf.json': (n) => json(JSON.stringify(`\${${'true ? '.repeat(n)}1${' : 0'.repeat(n)}}`)),
  'list in .tfvars': (n) => tfvars(`${'['.repeat(n)}1${']'.repeat(n)}`),
  'object in .tfvars': (n) => tfvars(`${'{a='.repeat(n)}1${'}'.repeat(n)}`),
  'template in .tfvars': (n) => tfvars(`${'"${'.repeat(n)}1${'}"'.repeat(n)}`),
  'conditional in .tfvars': (n) => tfvars(`${'true ? '.repeat(n)}1${' : 0'.repeat(n)}`),
  'list in .tfvars.json': (n) => ({ file: 'terraform.tfvars.json', text: `{"x":${'['.repeat(n)}1${']'.repeat(n)}}` }),
};

function hcl(expression: string) {
  return { file: 'main.tf', text: `locals {\n  x = ${expression}\n}\n` };
}

/** `value` is JSON text: a value this deep cannot go through JSON.stringify. */
function json(value: string) {
  return { file: 'main.tf.json', text: `{"locals":{"x":${value}}}` };
}

function tfvars(expression: string) {
  return { file: 'terraform.tfvars', text: `x = ${expression}\n` };
}

// Deep enough to exhaust the stack of every parser a shape goes through (5,000 already does for most).
const DEPTHS = [20_000];

describe('a configuration nested thousands of levels deep', () => {
  let world: World;
  beforeAll(async () => (world = await startWorld()));
  afterAll(async () => world.close());

  const cases = Object.keys(SHAPES).flatMap((shape) => DEPTHS.map((depth) => [shape, depth] as const));
  it.each(cases)(
    '%s, %d levels, is refused naming the file',
    async (shape, depth) => {
      const { file, text } = SHAPES[shape](depth);
      const dir = join(world.dir, `${shape.replace(/\W+/g, '-')}-${depth}`);
      mkdirSync(dir);
      writeFileSync(join(dir, file), text);
      if (file.includes('tfvars')) writeFileSync(join(dir, 'main.tf'), 'variable "x" {}\n');
      const r = await run({ ...world, dir }, ['validate']);
      const output = r.stdout + r.stderr;
      expect(output).not.toMatch(/call stack|RangeError/);
      expect(output).toMatch(/nested more than \d+ levels deep/);
      expect(output).toContain(file);
      expect(r.code).toBe(1);
    },
    120_000,
  );

  it('a setting value holding JSON 10,000 levels deep is planned without crashing', async () => {
    const dir = join(world.dir, 'deep-setting');
    mkdirSync(dir);
    const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
    const setting = {
      application_id: '${data.tenantform_application.backup.id}',
      tenant_id: '${data.tenantform_tenant.northwind.id}',
      name: 'deep',
      value: deep,
    };
    writeConfig({ ...world, dir }, configWith({ tenantform_tenant_setting: { deep: setting } }));
    const r = await run({ ...world, dir }, ['plan']);
    expect(r.stdout + r.stderr).not.toMatch(/call stack|RangeError/);
    expect(r.stdout + r.stderr).toMatch(/tenantform_tenant_setting\.deep|nested more than \d+ levels deep/);
  }, 120_000);
});
