/**
 * `npm ci` installs exactly the lockfile and refuses one that lacks an entry npm would need: an
 * optional dependency of another platform (a native binding, a prebuilt binary) included. Checked
 * here as npm resolves a package (the nearest node_modules folder up from the one asking), so a
 * lockfile written on one platform stays installable on every other.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockedPackage {
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peer?: boolean;
}

const root = join(__dirname, '..', '..');
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { lockfileVersion: number; packages: Record<string, LockedPackage> };
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;

/** Whether the lockfile has the entry npm would install `name` from, asked by the package at `from`. */
export function resolves(packages: Readonly<Record<string, unknown>>, from: string, name: string): boolean {
  // The package's own node_modules, then each enclosing package's, then the root's.
  const ancestors = [from];
  for (let at = from.lastIndexOf('/node_modules/'); at > 0; at = from.lastIndexOf('/node_modules/', at - 1)) ancestors.push(from.slice(0, at));
  return [...ancestors.map((a) => `${a}/node_modules/${name}`), `node_modules/${name}`].some((candidate) => candidate in packages);
}

describe('the lockfile', () => {
  it('is the format npm ci reads, and pins every dependency of package.json', () => {
    expect(lock.lockfileVersion).toBe(3);
    const declared = { ...manifest.dependencies, ...manifest.devDependencies };
    expect(Object.keys(declared).filter((name) => !(`node_modules/${name}` in lock.packages))).toEqual([]);
  });

  it("has an entry for every package's dependencies, the optional ones of other platforms included", () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (path === '') continue;
      for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
        if (!resolves(lock.packages, path, name)) missing.push(`${path} -> ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('would see an entry left out (the check itself)', () => {
    const packages = { 'node_modules/a': {}, 'node_modules/a/node_modules/@s/b': {}, 'node_modules/@s/c': {} };
    expect(resolves(packages, 'node_modules/a/node_modules/@s/b', 'a')).toBe(true);
    expect(resolves(packages, 'node_modules/a/node_modules/@s/b', '@s/c')).toBe(true);
    expect(resolves(packages, 'node_modules/@s/c', '@s/b')).toBe(false);
    expect(resolves(packages, 'node_modules/a', '@s/b')).toBe(true);
    expect(resolves(packages, 'node_modules/a', 'esbuild-linux-riscv64')).toBe(false);
  });
});
