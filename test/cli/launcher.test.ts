import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * The launcher (bin/tenantform.js) in a package folder of its own: a copy of the launcher, of
 * the built bundle and of its V8 settings, with the checkout's compiled modules and dependencies
 * linked in.
 */
describe('the tenantform launcher', () => {
  let pkg: string;
  const bundle = () => join(pkg, 'dist', 'tenantform.cjs');
  const cache = () => `${bundle()}.cache`;
  const launch = (...args: string[]) => spawnSync(process.execPath, [join(pkg, 'bin', 'tenantform.js'), ...args], { encoding: 'utf8' });

  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist', 'tenantform.cjs'))) throw new Error('dist/tenantform.cjs is missing: run `npm run build` first.');
  });
  beforeEach(() => {
    pkg = mkdtempSync(join(tmpdir(), 'tenantform-launcher-'));
    mkdirSync(join(pkg, 'bin'));
    mkdirSync(join(pkg, 'dist'));
    copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    copyFileSync(join(ROOT, 'bin', 'tenantform.js'), join(pkg, 'bin', 'tenantform.js'));
    copyFileSync(join(ROOT, 'dist', 'tenantform.cjs'), bundle());
    // The V8 settings the launcher makes: the cache must stay valid under them.
    copyFileSync(join(ROOT, 'dist', 'v8-flags.js'), join(pkg, 'dist', 'v8-flags.js'));
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  });
  afterEach(() => rmSync(pkg, { recursive: true, force: true }));

  it('runs the bundle and keeps a code cache beside it for the next launch', () => {
    const first = launch('--version');
    expect(first.stdout.trim()).toBe(VERSION);
    expect(first.status).toBe(0);
    expect(statSync(cache()).size).toBeGreaterThan(100_000);

    const written = readFileSync(cache());
    const second = launch('plan', '--help');
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('--detailed-exitcode');
    // An accepted cache is left as it is.
    expect(readFileSync(cache()).equals(written)).toBe(true);
  });

  it('replaces a cache that V8 refuses, and runs all the same', () => {
    writeFileSync(cache(), 'not a code cache');
    const r = launch('--version');
    expect(r.stdout.trim()).toBe(VERSION);
    expect(readFileSync(cache(), 'utf8')).not.toBe('not a code cache');
    expect(statSync(cache()).size).toBeGreaterThan(100_000);
  });

  it('does not use a cache older than the bundle (made from another build), and replaces it', () => {
    launch('--version');
    const past = new Date(statSync(bundle()).mtimeMs - 60_000);
    utimesSync(cache(), past, past);
    const r = launch('--version');
    expect(r.stdout.trim()).toBe(VERSION);
    expect(statSync(cache()).mtimeMs).toBeGreaterThanOrEqual(statSync(bundle()).mtimeMs);
  });

  it('runs the compiled modules where there is no bundle, and says how to build when there is neither', () => {
    rmSync(bundle());
    symlinkSync(join(ROOT, 'dist', 'cli'), join(pkg, 'dist', 'cli'));
    const modules = launch('--version');
    expect(modules.stdout.trim()).toBe(VERSION);
    expect(existsSync(cache())).toBe(false);

    rmSync(join(pkg, 'dist', 'cli'));
    const none = launch('--version');
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('tenantform is not built');
    expect(none.stderr).toContain('npm run build');
  });
});
