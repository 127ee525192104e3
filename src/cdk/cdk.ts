/**
 * The CDK library of the app: CDK Terrain (`cdktn`, the maintained line) or cdktf. Both are
 * optional peer dependencies: the constructs must extend the app's own copy, because a second
 * copy (and a second `constructs` under it) breaks the construct tree. cdktn is a rename of
 * cdktf with the same classes, so cdktf's declarations type both.
 */
import type * as Cdktf from 'cdktf';
import { packageErrors } from '../errors';

const LIBRARIES = ['cdktn', 'cdktf'] as const;

function isMissing(err: unknown, name: string): boolean {
  const e = err as NodeJS.ErrnoException;
  // Only the library itself missing; a module missing inside it is a real failure.
  return e.code === 'MODULE_NOT_FOUND' && e.message.includes(`'${name}'`);
}

function loadLibrary(): typeof Cdktf {
  for (const name of LIBRARIES) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require(name) as typeof Cdktf;
    } catch (err) {
      if (!isMissing(err, name)) throw err;
    }
  }
  throw packageErrors.cdkLibraryMissing(LIBRARIES);
}

export const { TerraformDataSource, TerraformProvider, TerraformResource, Token } = loadLibrary();
export type TerraformDataSource = Cdktf.TerraformDataSource;
export type TerraformProvider = Cdktf.TerraformProvider;
export type TerraformResource = Cdktf.TerraformResource;
export type TerraformMetaArguments = Cdktf.TerraformMetaArguments;
