import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The launcher (bin/tenantform.js) in a package folder of its own: a copy of the launcher,
 * with the checkout's bundle of the command (dist/bundle) and dependencies linked in.
 */
describe('the tenantform launcher', () => {
  let pkg: string;
  const launch = (args: string[], nodeArgs: string[] = []) =>
    spawnSync(process.execPath, [...nodeArgs, join(pkg, 'bin', 'tenantform.js'), ...args], { encoding: 'utf8' });

  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist', 'bundle', 'tenantform.js'))) throw new Error('dist/bundle/tenantform.js is missing: run `npm run build` first.');
  });
  beforeEach(() => {
    pkg = mkdtempSync(join(tmpdir(), 'tenantform-launcher-'));
    mkdirSync(join(pkg, 'bin'));
    mkdirSync(join(pkg, 'dist'));
    copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    copyFileSync(join(ROOT, 'bin', 'tenantform.js'), join(pkg, 'bin', 'tenantform.js'));
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    symlinkSync(join(ROOT, 'dist', 'bundle'), join(pkg, 'dist', 'bundle'));
  });
  afterEach(() => rmSync(pkg, { recursive: true, force: true }));

  it('runs the bundle and writes nothing into the package folder', () => {
    const version = launch(['--version']);
    expect(version.stdout).toContain(`tenantform v${VERSION}\n`);
    expect(version.status).toBe(0);
    const help = launch(['plan', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--detailed-exitcode');
    expect(readdirSync(join(pkg, 'dist'))).toEqual(['bundle']);
    expect(readdirSync(join(pkg, 'bin'))).toEqual(['tenantform.js']);
  });

  it('names the TypeScript sources in stack traces', () => {
    // The first line the CLI prints records the stack that printed it.
    const hook = join(pkg, 'stack-at-first-write.cjs');
    writeFileSync(
      hook,
      `const write = process.stdout.write.bind(process.stdout);
       process.stdout.write = (...args) => { process.stdout.write = write; process.stderr.write(new Error('first write').stack + '\\n'); return write(...args); };`,
    );
    const r = launch(['--version'], ['--require', hook]);
    expect(r.stdout).toContain(`tenantform v${VERSION}\n`);
    expect(r.stderr).toMatch(/src[/\\]cli[/\\]commands[/\\]version\.ts:\d+:\d+/);
    expect(r.stderr).not.toContain(join('dist', 'bundle', 'tenantform.js'));
  });

  it('fails no assertion of its own outside a Node.js project (yargs looks for package.json from the program, not the working folder)', () => {
    const hook = join(pkg, 'count-failed-assertions.cjs');
    writeFileSync(
      hook,
      `const assert = require('node:assert'); const notStrictEqual = assert.notStrictEqual; let failed = 0;
       assert.notStrictEqual = (...args) => { try { return notStrictEqual(...args); } catch (err) { failed++; throw err; } };
       process.on('exit', () => process.stderr.write('failed assertions: ' + failed + '\\n'));`,
    );
    const elsewhere = mkdtempSync(join(tmpdir(), 'tenantform-no-project-'));
    try {
      const r = spawnSync(process.execPath, ['--require', hook, join(pkg, 'bin', 'tenantform.js'), '--version'], { cwd: elsewhere, encoding: 'utf8' });
      expect(r.stdout).toContain(`tenantform v${VERSION}\n`);
      expect(r.stderr).toContain('failed assertions: 0\n');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('says how to build when the bundle is missing', () => {
    rmSync(join(pkg, 'dist', 'bundle'));
    const none = launch(['--version']);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('tenantform is not built');
    expect(none.stderr).toContain('npm run build');
  });
});
