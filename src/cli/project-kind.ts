import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { CdkLibrary } from '../export';

/** What kind of project a folder is: a folder of Terraform files, or a cdktf / CDK Terrain app. */
export type ProjectKind = { readonly kind: 'terraform-files' } | { readonly kind: 'cdk'; readonly library: CdkLibrary };

/** A folder with `.tf` or `.tf.json` files and no `cdktf.json` is read as Terraform files, as the commands read it. */
export function projectKind(dir: string): ProjectKind {
  if (!existsSync(join(dir, 'cdktf.json'))) {
    const files = existsSync(dir) ? readdirSync(dir) : [];
    if (files.some((f) => f.endsWith('.tf') || f.endsWith('.tf.json'))) return { kind: 'terraform-files' };
  }
  return { kind: 'cdk', library: projectCdkLibrary(dir) };
}

/**
 * The CDK library of the project in `dir`: the one its nearest package.json depends on (CDK
 * Terrain first, the maintained line), else CDK Terrain.
 */
export function projectCdkLibrary(dir: string): CdkLibrary {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const file = join(at, 'package.json');
    if (existsSync(file)) {
      try {
        const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string> | undefined>;
        const declared = { ...manifest.dependencies, ...manifest.devDependencies };
        if ('cdktn' in declared) return 'cdktn';
        if ('cdktf' in declared) return 'cdktf';
      } catch {
        // Not a manifest this can read: the default.
      }
      return 'cdktn';
    }
    if (dirname(at) === at) return 'cdktn';
  }
}
