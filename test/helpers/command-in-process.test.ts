/**
 * The command run in the test's process takes nothing from it and leaves nothing behind: the
 * suites run hundreds of commands one after another in one process.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInProcess } from './command-in-process';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'tenantform-in-process-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("a command sees only its own environment and folder, and gives the test's back with its exit code", async () => {
  const before = { env: process.env, cwd: process.cwd(), exitCode: process.exitCode, write: process.stdout.write };
  process.env.TENANTFORM_TEST_MARK = 'the test process';
  try {
    // `init` names the folder's kind: an empty folder, so the stack's wording.
    const refused = await runInProcess(dir, { NO_COLOR: '1' }, ['init']);
    expect(refused).toMatchObject({ code: 1, signal: null, stdout: '' });
    expect(refused.stderr).toContain('tenantform needs no init: it reads the synthesized stack and the backend the stack declares.');

    const version = await runInProcess(dir, { NO_COLOR: '1' }, ['version', '-json']);
    expect(version.code).toBe(0);
    expect(JSON.parse(version.stdout)).toHaveProperty('tenantform_version');

    expect(process.env).toBe(before.env);
    expect(process.env.TENANTFORM_TEST_MARK).toBe('the test process');
    expect(process.cwd()).toBe(before.cwd);
    expect(process.exitCode).toBe(before.exitCode);
    expect(process.stdout.write).toBe(before.write);
  } finally {
    delete process.env.TENANTFORM_TEST_MARK;
  }
});

test('-chdir moves only the command, and the usage check ends it with 1 without ending the process', async () => {
  const cwd = process.cwd();
  const unknown = await runInProcess(dir, {}, ['-chdir=.', 'plan', '--frobnicate']);
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain('Unknown argument: frobnicate');
  expect(process.cwd()).toBe(cwd);
});

test('a second command while one runs is refused, naming both: commands at once are processes', async () => {
  const first = runInProcess(dir, {}, ['version']);
  await expect(runInProcess(dir, {}, ['plan'])).rejects.toThrow(
    '`tenantform plan` was started while `tenantform version` runs in this process: commands that run at the same time are started as processes',
  );
  expect((await first).code).toBe(0);
});
