/**
 * A step of the GitHub Action run as a runner runs it: node on pipelines/github/tenantform.mjs
 * in the job's folder, with the runner's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, the event at
 * GITHUB_EVENT_PATH), its variables, and the action's inputs as INPUT_*.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GITHUB_TOKEN, REPOSITORY, type FakeGitHub } from './fake-github';
import { inputVariables, PIPELINES, runScript, type ScriptResult } from './helpers';

export const ACTION_SCRIPT = join(PIPELINES, 'github', 'tenantform.mjs');

export interface ActionStep {
  /** The job's folder; the runner's files go in its `.runner/`. */
  readonly cwd: string;
  readonly github: FakeGitHub;
  /** The job's environment (PATH, HOME, ...), without the runner's own variables. */
  readonly env: NodeJS.ProcessEnv;
  /** The action's inputs by name, e.g. `{ 'client-secret': '...' }`. */
  readonly inputs: Record<string, string>;
  /** The event that started the workflow. */
  readonly event?: unknown;
}

export interface ActionStepResult extends ScriptResult {
  /** What the step wrote to GITHUB_OUTPUT, by name. */
  readonly outputs: Record<string, string>;
  /** What it added to the job summary. */
  readonly summary: string;
}

export async function runActionStep(command: string, step: ActionStep): Promise<ActionStepResult> {
  const runner = join(step.cwd, '.runner');
  mkdirSync(runner, { recursive: true });
  const files = { output: join(runner, 'output'), summary: join(runner, 'summary.md'), event: join(runner, 'event.json') };
  writeFileSync(files.output, '');
  writeFileSync(files.summary, '');
  writeFileSync(files.event, JSON.stringify(step.event ?? {}));
  const env: NodeJS.ProcessEnv = {
    ...step.env,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_API_URL: step.github.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_RUN_ID: '4711',
    GITHUB_TOKEN,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_EVENT_PATH: files.event,
    RUNNER_TEMP: runner,
    ...inputVariables(step.inputs),
  };
  const result = await runScript(ACTION_SCRIPT, [command], { cwd: step.cwd, env });
  const outputs = Object.fromEntries(
    readFileSync(files.output, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { ...result, outputs, summary: readFileSync(files.summary, 'utf8') };
}
