/**
 * The shell of the example GitHub workflows' steps, taken from examples/github-actions/ and run
 * as a runner runs a `run:` step: bash with `-eo pipefail`, `GITHUB_OUTPUT` collecting the
 * step's outputs and `GITHUB_STEP_SUMMARY` the job summary.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, type RunResult } from '../provider/helpers';

/** A workflow of examples/github-actions, e.g. `pull-request.yml`. */
export function workflow(file: string): string {
  return readFileSync(join(ROOT, 'examples', 'github-actions', file), 'utf8');
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/** The script of the step named `name`: its `run:` line, or its `run: |` block dedented. */
export function namedStep(text: string, name: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `- name: ${name}`);
  const runAt = lines.findIndex((l, i) => i > start && /^\s*run: /.test(l));
  if (start < 0 || runAt < 0 || lines.slice(start + 1, runAt).some((l) => l.trim().startsWith('- '))) {
    throw new Error(`The workflow has no step "${name}" with a \`run:\`.`);
  }
  const command = lines[runAt].trim().slice('run: '.length);
  if (command !== '|') return command + '\n';
  const body: string[] = [];
  for (const line of lines.slice(runAt + 1)) {
    if (line.trim() !== '' && indentOf(line) <= indentOf(lines[runAt])) break;
    body.push(line);
  }
  const margin = indentOf(body[0]);
  return (
    body
      .map((l) => l.slice(margin))
      .join('\n')
      .trimEnd() + '\n'
  );
}

/** The one-line `- run:` step that starts with `command`, e.g. `npx cdktn synth`. */
export function oneLineStep(text: string, command: string): string {
  const line = text.split('\n').find((l) => l.trim().startsWith(`- run: ${command}`));
  if (!line) throw new Error(`The workflow has no step \`run: ${command}\`.`);
  return line.trim().slice('- run: '.length) + '\n';
}

export interface StepResult extends RunResult {
  /** What the step wrote to GITHUB_OUTPUT, by name. */
  readonly outputs: Record<string, string>;
}

/** Runs a step's script in `cwd` as the runner does; `env` must name GITHUB_OUTPUT's file. */
export async function runStep(script: string, opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<StepResult> {
  const outputFile = opts.env.GITHUB_OUTPUT;
  if (!outputFile) throw new Error('runStep needs GITHUB_OUTPUT in the environment.');
  writeFileSync(outputFile, '');
  const file = join(opts.cwd, '.step.sh');
  writeFileSync(file, script);
  const result = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], opts);
  const outputs = Object.fromEntries(
    readFileSync(outputFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { ...result, outputs };
}
