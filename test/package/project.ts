/**
 * A user's project in a temporary folder that depends on the packed tenantform tarball next to
 * one CDK library, installed by npm as a user would (from the npm cache where it can).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ROOT, run, type RunResult } from '../provider/helpers';

export interface Flavour {
  /** What the project installs beside tenantform, e.g. `cdktf@0.20`. */
  readonly library: 'cdktf' | 'cdktn';
  readonly version: string;
}

export const STACK = 'msp-onboarding';

/** Runs a command and fails with its output when it exits otherwise than expected. */
export async function expectRun(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }, codes = [0]): Promise<RunResult> {
  const result = await run(command, args, opts);
  if (!codes.includes(result.code)) {
    throw new Error(`\`${command} ${args.join(' ')}\` in ${opts.cwd} exited ${result.code}, expected ${codes.join(' or ')}:\n${result.output}`);
  }
  return result;
}

/**
 * The environment for npm: without the `npm_*` variables of an `npm test` run (npm_config_local_prefix
 * and the like), which would point the project's npm at this checkout. Cache and user
 * configuration stay the defaults, so installs come from the same npm cache.
 */
export function npmEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
}

/** Packs this checkout (built beforehand) into `dir` and returns the tarball's path. */
export async function pack(dir: string): Promise<string> {
  const packed = await expectRun('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, env: npmEnvironment() });
  const [{ filename }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
  return join(dir, filename);
}

/**
 * The example app as a user's project writes it: tenantform imported by its package name, the
 * CDK classes from the project's own library.
 */
export function exampleApp(library: Flavour['library']): string {
  const source = readFileSync(join(ROOT, 'examples', 'msp-onboarding', 'main.ts'), 'utf8');
  const app = source.replace("from '../../src';", "from 'tenantform';").replace("from 'cdktf';", `from '${library}';`);
  if (!app.includes("from 'tenantform';") || !app.includes(`from '${library}';`)) {
    throw new Error('examples/msp-onboarding/main.ts no longer imports from ../../src and cdktf: update this test.');
  }
  return app;
}

/**
 * A strict configuration that checks the package's declarations too (no skipLibCheck). They are
 * written against cdktf's: a cdktn project maps the name to cdktn, as the README says.
 */
function tsconfig(library: Flavour['library']) {
  const paths = library === 'cdktn' ? { baseUrl: '.', paths: { cdktf: ['node_modules/cdktn'] } } : {};
  return { compilerOptions: { strict: true, module: 'commonjs', target: 'ES2022', noEmit: true, esModuleInterop: true, skipLibCheck: false, ...paths } };
}

/** Type-checks the project's app with TypeScript (this checkout's compiler). */
export function typecheck(dir: string): Promise<RunResult> {
  return expectRun(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir, env: process.env });
}

export interface ProjectOptions {
  /** main.ts; the example app by default. */
  readonly app?: string;
  /** What npm installs besides the tarball and the library, e.g. `cdktn-cli@0.24`. */
  readonly packages?: string[];
  /** Folders put first on PATH for npm, e.g. a newer Node's. */
  readonly path?: string[];
}

/** Creates the project and installs the tarball and the library (and `packages`) with npm. */
export async function createProject(dir: string, tarball: string, flavour: Flavour, options: ProjectOptions = {}): Promise<string> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'platform-config', version: '1.0.0', private: true }, null, 2));
  writeFileSync(join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'npx tsx main.ts', output: 'cdktf.out' }, null, 2));
  writeFileSync(join(dir, 'main.ts'), options.app ?? exampleApp(flavour.library));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig(flavour.library), null, 2));
  const packages = [tarball, `${flavour.library}@${flavour.version}`, ...(options.packages ?? [])];
  const env = npmEnvironment();
  if (options.path) env.PATH = [...options.path, env.PATH].join(delimiter);
  await expectRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...packages], { cwd: dir, env });
  return dir;
}

/** Synthesizes the app with node and tsx (what `cdktf synth` runs) and returns cdk.tf.json. */
export async function synthesize(dir: string): Promise<Record<string, any>> {
  await expectRun(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'main.ts'], { cwd: dir, env: process.env });
  return JSON.parse(readFileSync(join(dir, 'cdktf.out', 'stacks', STACK, 'cdk.tf.json'), 'utf8')) as Record<string, any>;
}
