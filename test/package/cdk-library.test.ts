/**
 * Which CDK library the constructs extend: the project's cdktn or cdktf, found from where the
 * package is installed. The compiled module is copied into folders with a library of each kind
 * (a stand-in module that names itself) or none.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from '../provider/helpers';

let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'tenantform-cdk-library-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A project folder holding the installed module and the given libraries; returns what loading it printed. */
function load(project: string, libraries: string[]) {
  const packageDir = join(dir, project, 'node_modules', 'tenantform', 'dist');
  mkdirSync(join(packageDir, 'cdk'), { recursive: true });
  copyFileSync(join(ROOT, 'dist', 'cdk', 'cdk.js'), join(packageDir, 'cdk', 'cdk.js'));
  for (const shared of ['errors.js', 'diagnostics.js']) copyFileSync(join(ROOT, 'dist', shared), join(packageDir, shared));
  for (const name of libraries) {
    mkdirSync(join(dir, project, 'node_modules', name), { recursive: true });
    // Just enough of a library for the module to take its classes.
    writeFileSync(
      join(dir, project, 'node_modules', name, 'index.js'),
      `for (const k of ['TerraformDataSource', 'TerraformProvider', 'TerraformResource', 'Token']) exports[k] = '${name}';`,
    );
  }
  const script = `try { console.log(require(${JSON.stringify(join(packageDir, 'cdk', 'cdk.js'))}).TerraformResource) } catch (e) { console.log(e.message) }`;
  return spawnSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } }).stdout.trim();
}

test('a cdktf project gets cdktf', () => expect(load('on-cdktf', ['cdktf'])).toBe('cdktf'));

test('a CDK Terrain project gets cdktn', () => expect(load('on-cdktn', ['cdktn'])).toBe('cdktn'));

test('with both installed, the maintained line wins', () => expect(load('on-both', ['cdktf', 'cdktn'])).toBe('cdktn'));

test('with neither, the error says what to install', () => {
  const message = load('on-none', []);
  expect(message).toContain('No CDK library to build the constructs on');
  expect(message).toContain('npm install cdktn constructs');
});
