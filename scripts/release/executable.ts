/**
 * tenantform's single executable: the command and the Terraform provider (src/executable.ts)
 * bundled by esbuild into one script, written with its source map and the HCL converter's
 * WebAssembly program (assets.ts) into a copy of Node as a single executable application.
 * Nothing else is needed where it runs: no Node, no package folder, no shell.
 */
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { bundle, type Bundled } from '../bundle';
import { HCL_PROGRAM_ASSET } from '../../src/config/hcl-program';
import { BUNDLE_ASSET, LINE_INDEX_ASSET, MAPPINGS_ASSET } from './assets';
import { ROOT, SEA_FUSE } from './tools';

const run = promisify(execFile);

const HCL_PACKAGE = join(ROOT, 'node_modules', '@cdktn', 'hcl2json');

/**
 * Bundles src/executable.ts into `dir/tenantform.js`, and writes its source map as the loader
 * reads it: the `mappings`, and the sources (named as in a checkout of tenantform) with the
 * line index.
 */
export function bundleExecutable(dir: string): Promise<Bundled> {
  return bundle({
    entry: join(ROOT, 'src', 'executable.ts'),
    outfile: join(dir, BUNDLE_ASSET),
    // pg's native binding is optional and absent.
    external: ['pg-native'],
    define: { TENANTFORM_BUNDLED: 'true' },
  });
}

/** Bundles the loader (scripts/release/sea-main.ts), the script Node runs first in the executable. */
async function bundleLoader(dir: string): Promise<string> {
  const outfile = join(dir, 'sea-main.js');
  await build({
    entryPoints: [join(__dirname, 'sea-main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  return outfile;
}

/**
 * The preparation blob Node writes from a configuration (`--experimental-sea-config`): the loader
 * as main script, the bundle, its source map and the converter's program as assets. Written by the Node running
 * this build, whose version the executables' Node must have.
 */
export async function seaBlob(dir: string, bundled: Bundled): Promise<string> {
  const loader = await bundleLoader(dir);
  const blob = join(dir, 'sea-prep.blob');
  const config = join(dir, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      main: loader,
      output: blob,
      disableExperimentalSEAWarning: true,
      assets: {
        [BUNDLE_ASSET]: bundled.bundle,
        [MAPPINGS_ASSET]: bundled.mappings,
        [LINE_INDEX_ASSET]: bundled.lineIndex,
        [HCL_PROGRAM_ASSET]: join(HCL_PACKAGE, 'main.wasm.gz'),
      },
    }),
  );
  await run(process.execPath, ['--experimental-sea-config', config], { cwd: dir });
  if (!existsSync(blob)) throw new Error(`node --experimental-sea-config wrote no ${blob}`);
  return blob;
}

/** Writes the blob into a copy of `node` at `output` (an executable). */
export async function injectBlob(opts: { node: string; blob: string; output: string; postject: string }): Promise<void> {
  mkdirSync(dirname(opts.output), { recursive: true });
  copyFileSync(opts.node, opts.output);
  chmodSync(opts.output, 0o755);
  await run(process.execPath, [opts.postject, opts.output, 'NODE_SEA_BLOB', opts.blob, '--sentinel-fuse', SEA_FUSE], { maxBuffer: 16 * 1024 * 1024 }).catch(
    (e: Error & { stderr?: string }) => {
      throw new Error(`postject could not write the application into ${opts.output}: ${e.stderr ?? e.message}`);
    },
  );
}
