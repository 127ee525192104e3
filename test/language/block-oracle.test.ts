import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { requireTerraform } from '../provider/helpers';
import { run, startWorld, type World } from '../cli/helpers';

/**
 * The language blocks fuzzed against the real terraform (fixed seed, so a failure reproduces):
 * variable and output blocks with arguments right, wrong, misspelled or of the wrong type, and
 * names Terraform reserves. tenantform accepts a configuration exactly when `terraform plan`
 * does, so nothing Terraform refuses slips through, and nothing it takes is refused.
 */
/** Mostly what Terraform takes, sometimes what it refuses: both verdicts are drawn. */
const mostly = <T>(good: readonly T[], bad: readonly T[]) =>
  fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
const rarely = <T>(value: T) => fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant(value) });
const withoutUndefined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const TYPED_DEFAULTS: ReadonlyArray<readonly [string | undefined, unknown]> = [
  ['string', 'eu'],
  ['number', 3],
  ['bool', true],
  ['any', [1, 'a']],
  ['list(string)', ['a']],
  ['map(number)', { a: 1 }],
  ['object({ a = string })', { a: 'x' }],
  [undefined, { a: 1 }],
  ['string', null],
];
const MISMATCHED: ReadonlyArray<readonly [string | undefined, unknown]> = [
  ['bool', 'yes-ish'],
  ['list(string)', { a: 1 }],
  ['object({ a = string })', { b: 1 }],
  ['bogus', 1],
  ['list(', []],
  ['number', undefined],
];
const variable = fc
  .record({
    typed: mostly(TYPED_DEFAULTS, MISMATCHED),
    description: fc.option(mostly<unknown>(['A value'], [7])),
    sensitive: fc.option(mostly<unknown>([true, false], ['yes'])),
    nullable: fc.option(fc.constantFrom(true, false)),
    typo: rarely(1),
  })
  .map(({ typed: [type, value], ...v }) =>
    withoutUndefined({
      type,
      default: value,
      description: v.description ?? undefined,
      sensitive: v.sensitive ?? undefined,
      nullable: v.nullable ?? undefined,
      typo: v.typo,
    }),
  );
const output = fc
  .record({
    value: mostly(
      ['${upper("x")}', '${length([1, 2])}', '${local.known}', 'plain', '${tostring(1)}'],
      ['${jsondecode("{")}', '${["a"][5]}', '${var.nowhere}', '${local.nowhere}', '${1 +}'],
    ),
    sensitive: fc.option(fc.constantFrom(true, false)),
    descripton: rarely('x'),
  })
  .map((o) => withoutUndefined({ ...o, sensitive: o.sensitive ?? undefined }));
const document = fc.record({
  variable: fc.dictionary(mostly(['region', 'replicas', 'my-name'], ['count', 'source', '1abc', '__proto__', 'for_each']), variable, {
    minKeys: 1,
    maxKeys: 2,
  }),
  output: fc.dictionary(fc.constantFrom('o', 'p'), output, { minKeys: 1, maxKeys: 2 }),
});

/** The configuration as text: JSON.stringify would drop a `__proto__` key. */
function text(doc: { variable: Record<string, unknown>; output: Record<string, unknown> }): string {
  const block = (entries: Record<string, unknown>) =>
    `{${Object.entries(entries)
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
      .join(',')}}`;
  return `{"locals":{"known":"k"},"variable":${block(doc.variable)},"output":${block(doc.output)}}`;
}

describe('variable and output blocks, fuzzed against terraform', () => {
  let world: World;
  let terraformDir: string;
  beforeAll(async () => {
    requireTerraform();
    world = await startWorld();
    terraformDir = join(world.dir, 'terraform');
    mkdirSync(terraformDir);
    writeFileSync(join(terraformDir, 'main.tf.json'), '{}');
    writeFileSync(join(terraformDir, 'cli.tfrc'), '');
    expect(terraform(['init', '-input=false', '-no-color']).status).toBe(0);
  });
  afterAll(() => world?.close());

  const terraform = (args: string[]) =>
    spawnSync('terraform', args, {
      cwd: terraformDir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: terraformDir, TF_CLI_CONFIG_FILE: join(terraformDir, 'cli.tfrc'), TF_IN_AUTOMATION: '1' },
    });

  /** What terraform plan and tenantform plan make of one configuration text. */
  const verdicts = async (config: string) => {
    writeFileSync(join(terraformDir, 'main.tf.json'), config);
    const theirs = terraform(['plan', '-input=false', '-lock=false', '-refresh=false', '-no-color']);
    writeFileSync(join(world.dir, 'oracle.tf.json'), config);
    const ours = await run(world, ['plan', '--config', 'oracle.tf.json', '--state', 'oracle.tfstate']);
    return { terraform: theirs.status === 0 ? 'accepted' : 'refused', tenantform: ours.code === 0 ? 'accepted' : 'refused' };
  };

  it.each([
    '{"variable":{}}',
    '{"output":{}}',
    '{"locals":{}}',
    '{"variable":{"a":{}},"output":{"o":{"value":"${var.a}"}}}',
    '{"output":{"o":{"value":1,"sensitive":"true"}}}',
  ])('agrees with terraform on %s', async (config) => {
    const r = await verdicts(config);
    expect(r.tenantform).toBe(r.terraform);
  });

  it('accepts a configuration exactly when terraform plan does', async () => {
    const seen = new Set<string>();
    await fc.assert(
      fc.asyncProperty(document, async (doc) => {
        const config = text(doc);
        const r = await verdicts(config);
        seen.add(r.terraform);
        expect({ config, tenantform: r.tenantform }).toEqual({ config, tenantform: r.terraform });
      }),
      { seed: 20261125, numRuns: 20 },
    );
    // The configurations drawn hold both kinds: the comparison is never one-sided.
    expect([...seen].sort()).toEqual(['accepted', 'refused']);
    // Twenty runs of terraform and of the command: about a minute on a loaded two-core machine, so never the default timeout.
  }, 300_000);
});
