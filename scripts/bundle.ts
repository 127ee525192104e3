/**
 * The one-file CLI: dist/tenantform.cjs, bundled from the compiled dist/cli/main.js with the
 * packages every command loads (yargs, undici, zod, deep-diff), so that a launch reads one
 * file instead of some 330 and can take its compiled code from V8's code cache (see
 * bin/tenantform.js). Packages that only some commands load (pg, the provider's gRPC, cdktf
 * and cdktn) stay outside and are required as usual. Runs after `tsc` in `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const root = join(__dirname, '..');
const outfile = join(root, 'dist', 'tenantform.cjs');

buildSync({
  entryPoints: [join(root, 'dist', 'cli', 'main.js')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['pg', 'pg-native', '@grpc/*', '@msgpack/*', 'cdktf', 'cdktn', 'constructs'],
  // Without comments and indentation the text is a third smaller and pure ASCII, which V8
  // keeps at one byte per character (some packages' comments are not ASCII).
  minifyWhitespace: true,
  // The packages' license comments go to dist/tenantform.cjs.LEGAL.txt.
  legalComments: 'external',
  logLevel: 'warning',
  // cdk.ts requires cdktf or cdktn by a name chosen at run time: left to Node, as intended.
  logOverride: { 'unsupported-require-call': 'silent' },
});

// A code cache is only valid for the text it was made from: start it afresh from this bundle.
rmSync(`${outfile}.cache`, { force: true });
const warm = spawnSync(process.execPath, [join(root, 'bin', 'tenantform.js'), '--version'], { encoding: 'utf8' });
if (warm.status !== 0) {
  process.stderr.write(`The bundled CLI does not start:\n${warm.stderr}`);
  process.exit(1);
}
