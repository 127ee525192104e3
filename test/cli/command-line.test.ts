import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type CliWorld } from './helpers';

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
