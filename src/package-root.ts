import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = 'tenantform';

/**
 * The folder of tenantform's package.json, found by walking up from this code, so that the
 * answer is the same whether the code runs from src/, from dist/ or from a bundle of it (where
 * every module shares one __dirname).
 */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir) throw new Error(`tenantform's package.json was not found above ${from}`);
  }
}

/**
 * This release of tenantform (its package.json version). Required, not read from the package
 * folder: a bundle (the single executable) holds it, having no package folder around it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const TENANTFORM_VERSION: string = (require('../package.json') as { version: string }).version;
