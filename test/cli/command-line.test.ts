import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configWith, run, startWorld, writeConfig, type CliWorld, type World } from './helpers';

/** Terraform's command-line conventions, as terraform 1.11 has them; no platform needed. */
describe('the command line as terraform users type it', () => {
  let world: CliWorld;
  beforeAll(() => {
    world = { dir: mkdtempSync(join(tmpdir(), 'tenantform-command-line-')), env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } };
  });
  afterAll(() => rmSync(world.dir, { recursive: true, force: true }));

  it('-version, -v, --version and version print the same, and -json goes with any of them', async () => {
    const version = await run(world, ['version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^tenantform v\d+\.\d+\.\d+\non /);
    for (const flag of ['-version', '-v', '--version']) {
      const r = await run(world, [flag]);
      expect({ flag, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ flag, code: 0, stdout: version.stdout, stderr: '' });
    }
    // As terraform, a version flag anywhere asks for the version.
    expect((await run(world, ['plan', '-version'])).stdout).toBe(version.stdout);
    const json = JSON.parse((await run(world, ['-version', '-json'])).stdout) as { tenantform_version: string };
    expect(json.tenantform_version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('a mistyped flag gets the flag meant, in the dashes typed; camelCase twins of flags are refused', async () => {
    const doubleDash = await run(world, ['apply', '--auto-aprove']);
    expect(doubleDash.code).toBe(1);
    expect(doubleDash.stderr).toContain('Error: Unknown argument: auto-aprove\nDid you mean --auto-approve?');
    const singleDash = await run(world, ['plan', '-detailed-exitcod']);
    expect(singleDash.stderr).toContain('Did you mean -detailed-exitcode?');
    // Nothing near: no guess.
    expect((await run(world, ['plan', '-frobnicate'])).stderr).not.toContain('Did you mean');

    const camel = await run(world, ['apply', '--autoApprove']);
    expect(camel.code).toBe(1);
    expect(camel.stderr).toContain('Unknown argument: autoApprove');
    expect(camel.stderr).toContain('Did you mean --auto-approve?');
    expect((await run(world, ['plan', '--help'])).stdout).not.toMatch(/--[a-z]+[A-Z]/);
  });
});

describe('--help', () => {
  const world: CliWorld = { dir: tmpdir(), env: { PATH: process.env.PATH, NO_COLOR: '1' } };

  it.each([['plan'], ['drift'], ['state', 'list'], ['version']])(
    "of %s lists no --version, and says that terraform's -flag spellings and -chdir work",
    async (...command) => {
      const help = await run(world, [...command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).not.toContain('--version');
      expect(help.stdout).toContain('Options also take one dash, as terraform writes them');
      expect(help.stdout).toContain('-chdir=DIR');
    },
  );

  it('of tenantform names -version beside the commands', async () => {
    const help = await run(world, ['--help']);
    expect(help.stdout).toContain('-v, -version');
  });
});

describe("plan's terraform flags", () => {
  let world: World;
  let file: string;
  beforeAll(async () => {
    world = await startWorld();
    // A failed check is a warning: the plan carries one.
    const check = {
      named: { assert: [{ condition: '${data.tenantform_tenant.northwind.name == "Someone Else"}', error_message: 'Not the partner expected.' }] },
    };
    file = writeConfig(world, { ...configWith({}), check });
  });
  afterAll(() => world.close());

  it('-compact-warnings prints each warning as one line of its summary', async () => {
    const full = await run(world, ['plan', '-config', file]);
    expect(full.code).toBe(0);
    expect(full.stdout).toContain('Not the partner expected.');
    const compact = await run(world, ['plan', '-config', file, '-compact-warnings']);
    expect(compact.code).toBe(0);
    expect(compact.stdout).toContain('Warnings:\n\n- check.named: Check block assertion failed\n');
    expect(compact.stdout).not.toContain('Not the partner expected.');
    expect(compact.stdout).toContain('To see the full warning notes, run tenantform without -compact-warnings.');
  });

  it('-json is refused with the way to a plan as JSON', async () => {
    const r = await run(world, ['plan', '-config', file, '-json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('-json');
    expect(r.stderr).toContain('use -format=json');
    expect(r.stderr).toContain('tenantform show -json PLANFILE');
    expect(r.stdout).toBe('');
  });
});
