import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type CliWorld } from './helpers';

/**
 * The command line fuzzed (fixed seed, so a failure reproduces): commands with options spelled
 * as Terraform users spell them, given odd values, repeated, or mixed with words that mean
 * nothing. Whatever the words, the CLI ends with an exit code it documents and a message; never
 * a JavaScript stack trace, an error class's name, or silence after a failure.
 */
const COMMANDS = [['plan'], ['apply'], ['destroy'], ['drift'], ['import'], ['export'], ['force-unlock'], ['state', 'list'], ['state', 'rm'], ['state', 'pull']];
const OPTIONS = [
  'refresh',
  'lock',
  'lock-timeout',
  'parallelism',
  'var',
  'var-file',
  'target',
  'replace',
  'out',
  'state',
  'config',
  'format',
  'detailed-exitcode',
  'auto-approve',
  'refresh-only',
  'retry-timeout',
  'stack',
  'summary-file',
  'color',
  'input',
];
const VALUES = [
  '',
  'true',
  'false',
  'maybe',
  '5',
  '5s',
  '-1',
  '1e309',
  'NaN',
  'a=b',
  '=',
  'x'.repeat(300),
  '\u001b[2J',
  'line\nbreak',
  '__proto__',
  '../..',
  '/dev/null',
  '${var.x}',
];

const option = fc
  .tuple(fc.constantFrom('-', '--'), fc.constantFrom(...OPTIONS), fc.option(fc.constantFrom(...VALUES), { nil: undefined }))
  .map(([dashes, name, value]) => (value === undefined ? `${dashes}${name}` : `${dashes}${name}=${value}`));
const word = fc.oneof(
  { weight: 4, arbitrary: option },
  { weight: 1, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const commandLine = fc.tuple(fc.constantFrom(...COMMANDS), fc.array(word, { maxLength: 5 })).map(([command, words]) => [...command, ...words]);

describe('the command line, fuzzed', () => {
  let world: CliWorld;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'tenantform-flags-'));
    // No platform answers here: the commands must fail on their words or on the connection, cleanly.
    world = {
      dir,
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        NO_COLOR: '1',
        TENANTFORM_BASE_URL: 'http://127.0.0.1:9',
        TENANTFORM_CLIENT_ID: 'id',
        TENANTFORM_CLIENT_SECRET: 'secret',
      },
    };
  });
  afterAll(() => rmSync(world.dir, { recursive: true, force: true }));

  it('ends every command line with a documented exit code and a message, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(commandLine, async (args) => {
        const r = await run(world, args);
        const output = `${r.stdout}${r.stderr}`;
        expect([0, 1, 2]).toContain(r.code);
        expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
        expect(output).not.toMatch(/\b(TypeError|RangeError|ReferenceError|SyntaxError|Maximum call stack)\b/);
        if (r.code === 1) expect(r.stderr.trim()).not.toBe('');
      }),
      { seed: 20261125, numRuns: 40 },
    );
    // Forty runs of the command: over the default timeout on a loaded two-core machine.
  }, 300_000);
});
