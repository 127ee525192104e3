import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { appSources } from './app-sources';
import { cliErrors } from './errors';

/**
 * `--synth`: the CDK Terrain or cdktf app is run before planning, as `cdktn diff` does, so that a plan never
 * shows a stale synthesized stack. Without it, a warning says when the app's sources are newer
 * than the stack.
 */

interface CdktfProject {
  readonly dir: string;
  readonly app?: string;
  /** cdktf.json's `language` (typescript, python, ...). */
  readonly language?: string;
  readonly output: string;
  /** Folders that hold no source of the app (generated bindings, the output). */
  readonly generated: string[];
}

function readProject(dir: string): CdktfProject | undefined {
  const file = join(dir, 'cdktf.json');
  if (!existsSync(file)) return undefined;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { app?: unknown; language?: unknown; output?: unknown; codeMakerOutput?: unknown };
    const output = typeof doc.output === 'string' ? doc.output : 'cdktf.out';
    const generated = [output, typeof doc.codeMakerOutput === 'string' ? doc.codeMakerOutput : '.gen'];
    return {
      dir,
      app: typeof doc.app === 'string' ? doc.app : undefined,
      language: typeof doc.language === 'string' ? doc.language : undefined,
      output,
      generated: generated.map((g) => resolve(dir, g)),
    };
  } catch {
    return undefined; // loading the configuration reports an unreadable cdktf.json
  }
}

/** Runs cdktf.json's `app` command with CDKTF_OUTDIR, its output on stderr; throws when it fails. */
export async function synthesizeApp(dir: string): Promise<void> {
  const project = readProject(dir);
  if (!project?.app) throw cliErrors.synthImpossible(dir);
  const outdir = resolve(dir, project.output);
  process.stderr.write(`Synthesizing the app: ${project.app}\n`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TF_VAR_')));
  const code = await new Promise<number | null>((done, failed) => {
    const child = spawn(project.app!, {
      shell: true,
      cwd: dir,
      env: { ...env, CDKTF_OUTDIR: outdir, CDKTF_CONTEXT_JSON: process.env.CDKTF_CONTEXT_JSON ?? '{}' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (c: Buffer) => process.stderr.write(c));
    child.on('error', failed);
    child.on('close', done);
  });
  if (code !== 0) throw cliErrors.synthFailed(project.app, code);
}

/** The newest source file of the app (cdktf.json included). */
function newestSource(project: CdktfProject): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  for (const file of [join(project.dir, 'cdktf.json'), ...appSources(project)]) {
    const mtimeMs = statSync(file).mtimeMs;
    if (!newest || mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

/** A warning when the app was edited after the stack was synthesized; undefined otherwise. */
export function staleStackWarning(dir: string, stackFile: string): string | undefined {
  const project = readProject(dir);
  if (!project || !existsSync(stackFile)) return undefined;
  const newest = newestSource(project);
  if (!newest || newest.mtimeMs <= statSync(stackFile).mtimeMs) return undefined;
  return (
    `Warning: ${relative(dir, newest.file)} is newer than the synthesized stack ${relative(dir, stackFile)}: ` +
    'this plan does not show your latest edits. Run `cdktn synth` (or `cdktf synth`) first, or pass --synth.\n'
  );
}
