/**
 * Bundles tenantform with esbuild into one script, with its source map written as the bundle
 * reads it when a stack trace is first written (src/bundle/): the `mappings` beside the bundle
 * (`<bundle>.mappings`) and the sources with the line index (`<bundle>.lines`). The release's
 * single executable is one such bundle; `npm run build` runs this file to write the package's,
 * `dist/bundle/tenantform.js` from src/command.ts, which the launcher runs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { indexLines, type LineIndex } from '../src/bundle/line-index';

const ROOT = join(__dirname, '..');

export interface BundleOptions {
  readonly entry: string;
  readonly outfile: string;
  /** Packages left to Node's `require` at run time. */
  readonly external: readonly string[];
  readonly define?: Record<string, string>;
}

/** The bundle and where its source map was written. */
export interface Bundled {
  readonly bundle: string;
  readonly mappings: string;
  readonly lineIndex: string;
}

/** A source's name in stack traces: its path in a checkout of tenantform (`src/cli/main.ts`, `node_modules/yargs/...`). */
function sourceName(absolute: string): string {
  const marker = `${sep}node_modules${sep}`;
  const at = absolute.lastIndexOf(marker);
  const name = at >= 0 ? `node_modules/${absolute.slice(at + marker.length)}` : relative(ROOT, absolute);
  return name.split(sep).join('/');
}

/**
 * yargs as Node requires it (its CommonJS build). Its ES module build, which esbuild would take
 * for an `import`, looks for a `package.json` up from the working directory rather than from the
 * program: in a folder without one, each yargs instance fails an assertion, whose stack is
 * formatted and thrown away; in a folder with one, it reads the user's.
 */
const yargsAsRequired: Plugin = {
  name: 'yargs-as-required',
  setup(b) {
    b.onResolve({ filter: /^yargs$/ }, () => ({ path: require.resolve('yargs') }));
  },
};

export async function bundle(opts: BundleOptions): Promise<Bundled> {
  mkdirSync(dirname(opts.outfile), { recursive: true });
  const result = await build({
    entryPoints: [opts.entry],
    outfile: opts.outfile,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: [...opts.external],
    define: opts.define,
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'external',
    sourcesContent: false,
    plugins: [yargsAsRequired],
    logLevel: 'error',
    // cdk.ts requires cdktf or cdktn by a name chosen at run time: left to Node, as intended.
    logOverride: { 'unsupported-require-call': 'silent' },
  });
  const code = result.outputFiles.find((f) => f.path === opts.outfile);
  const map = result.outputFiles.find((f) => f.path === `${opts.outfile}.map`);
  if (!code || !map) throw new Error('esbuild wrote no bundle or no source map');
  const sourceMap = JSON.parse(map.text) as { sources: string[]; mappings: string };
  // The map is read when a trace is written (src/bundle/stack-traces.ts), not found through the bundle's comment.
  writeFileSync(opts.outfile, code.text.replace(/\/\/# sourceMappingURL=\S+\s*$/, ''));
  const bundled = { bundle: opts.outfile, mappings: `${opts.outfile}.mappings`, lineIndex: `${opts.outfile}.lines` };
  writeFileSync(bundled.mappings, sourceMap.mappings);
  const index: LineIndex = {
    sources: sourceMap.sources.map((s) => sourceName(resolve(dirname(opts.outfile), s))),
    checkpoints: indexLines(sourceMap.mappings),
  };
  writeFileSync(bundled.lineIndex, JSON.stringify(index));
  return bundled;
}

/** The package's bundle of the command: its dependencies in it, but those loaded only by some commands or found at run time. */
export const PACKAGE_BUNDLE = join(ROOT, 'dist', 'bundle', 'tenantform.js');

if (require.main === module) {
  bundle({
    entry: join(ROOT, 'src', 'command.ts'),
    outfile: PACKAGE_BUNDLE,
    // The provider's gRPC stack and the PostgreSQL client load only where used; the HCL converter
    // reads its program from its own folder; cdktf or cdktn and constructs are the user's.
    external: ['@grpc/*', '@msgpack/*', 'pg', 'pg-native', '@cdktn/hcl2json', 'cdktf', 'cdktn', 'constructs'],
  }).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
