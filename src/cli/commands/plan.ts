import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { hasErrors, renderDiagnostic, type Diagnostic } from '../../diagnostics';
import { changedOutputs, hasChanges } from '../../engine/model';
import { savePlan } from '../../plans/planfile';
import { buildPlan, type PlanResult } from '../../engine/planner';
import { refresh } from '../../engine/refresh';
import { serializePlanJson } from '../views/json';
import type { PlanJsonContext } from '../views/json-document';
import { renderComments } from '../views/markdown-comments';
import { renderText, shouldColor } from '../views/text';
import { openWorkspace, TENANTFORM_VERSION, withLockedState, type Workspace } from '../../engine/session';
import { resourceKind } from '../../resources/registry';
import type { ProviderClients } from '../../engine/clients';
import type { StateStore } from '../../state/state';
import { cliErrors } from '../../errors';
import { locateConfiguration } from '../../config/config';
import { parseRetryTimeout } from '../../resources/provider-config';
import { ciRunUrl } from '../ci-run';
import { redactSecrets } from '../redact';
import { lockFlags, stateLockFlags, type LockArgs } from './lock-flags';
import { withReadProgress } from '../read-progress';
import { staleStackWarning, synthesizeApp } from '../synth';

/** Flags shared by plan and apply: where the configuration and state are, and how much runs at once. */
export interface WorkspaceArgs extends LockArgs {
  stack?: string;
  config?: string;
  state?: string;
  parallelism: number;
  refresh: boolean;
  target?: string[];
  'refresh-only'?: boolean;
  var?: string[];
  'var-file'?: string[];
  'retry-timeout'?: number;
  /** false: never ask a question (Terraform's -input=false). */
  input: boolean;
  /** false: no colour (Terraform's -no-color). */
  color: boolean;
  /** Run the cdktf app first (as `cdktf diff` does). */
  synth?: boolean;
}

export const SYNTH_OPTION = { type: 'boolean', default: false, describe: "Run the cdktf app (cdktf.json's `app`) first, as `cdktf diff` does" } as const;

export function workspaceFlags<T>(y: Argv<T>): Argv<T & WorkspaceArgs> {
  return lockFlags(y)
    .option('stack', { type: 'string', describe: 'The cdktf stack to use (needed when cdktf.out holds several)' })
    .option('config', { type: 'string', describe: 'A Terraform JSON file to use instead of the synthesized stack' })
    .option('state', { type: 'string', describe: "State file of the local backend (default: the stack's terraform.backend)" })
    .option('parallelism', { type: 'number', default: 10, describe: 'How many objects are read or changed at once' })
    .option('refresh', { type: 'boolean', default: true, describe: 'Read the platform first; --refresh=false trusts the state' })
    .option('var', { type: 'string', array: true, describe: 'A value for an input variable: --var name=value (repeatable; also TF_VAR_name)' })
    .option('var-file', { type: 'string', array: true, describe: 'Input variable values from a .tfvars or .tfvars.json file (repeatable)' })
    .option('target', { type: 'string', array: true, describe: 'Only this address and what it depends on (repeatable)' })
    .option('input', { type: 'boolean', default: true, describe: 'Ask for approval on a terminal; --input=false never asks' })
    .option('color', { type: 'boolean', default: true, describe: 'Colour on a terminal (or with FORCE_COLOR); --no-color for none' })
    .option('synth', SYNTH_OPTION)
    .option('refresh-only', {
      type: 'boolean',
      default: false,
      describe: 'Only accept what changed on the platform into the state (see `tenantform drift`); nothing on the platform changes',
    })
    .option('retry-timeout', {
      type: 'number',
      describe: 'Seconds the retries of one request may take in all (default: provider retry_timeout, TENANTFORM_RETRY_TIMEOUT, or 30)',
    })
    .check((a) => {
      if (a['retry-timeout'] !== undefined && parseRetryTimeout(a['retry-timeout']) === undefined) {
        throw new Error('--retry-timeout must be a number of seconds from 0 to 86400.');
      }
      if (!Number.isInteger(a.parallelism) || a.parallelism < 1) throw new Error('--parallelism must be a whole number of at least 1.');
      if (a['refresh-only'] && !a.refresh) throw new Error('--refresh-only reads the platform: it cannot be combined with --refresh=false.');
      return true;
    }) as unknown as Argv<T & WorkspaceArgs>;
}

/** Diagnostics to stderr, secrets masked. */
export function printDiagnostics(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) process.stderr.write(`${redactSecrets(renderDiagnostic(d))}\n\n`);
}

/** Opens the workspace; prints the problems and returns undefined when the configuration is invalid. */
export async function workspaceOrProblems(args: Pick<WorkspaceArgs, 'stack' | 'config' | 'state' | 'retry-timeout' | 'var' | 'var-file'>): Promise<Workspace | undefined> {
  // Files first, then flags: a --var overrides a --var-file.
  const variables = [...(args['var-file'] ?? []).map((text) => ({ kind: 'file' as const, text })), ...(args.var ?? []).map((text) => ({ kind: 'var' as const, text }))];
  const ws = await openWorkspace({ cwd: process.cwd(), stack: args.stack, config: args.config, state: args.state, env: process.env, variables });
  if (!('configuration' in ws)) {
    printDiagnostics(ws.diagnostics);
    process.stderr.write('The configuration is invalid: nothing was sent to the platform.\n');
    process.exitCode = 1;
    return undefined;
  }
  printDiagnostics(ws.diagnostics);
  return args['retry-timeout'] === undefined ? ws : { ...ws, retryTimeoutSeconds: args['retry-timeout'] };
}

/**
 * Opens the workspace after synthesizing the app (--synth), or with a warning when the app's
 * sources are newer than the synthesized stack.
 */
export async function openSynthesizedWorkspace(args: Pick<WorkspaceArgs, 'stack' | 'config' | 'state' | 'synth'>): Promise<Workspace | undefined> {
  if (args.synth) {
    if (args.config) throw cliErrors.synthImpossible(process.cwd());
    await synthesizeApp(process.cwd());
  }
  const ws = await workspaceOrProblems(args);
  if (ws && !args.synth && !args.config) {
    const warning = staleStackWarning(process.cwd(), locateConfiguration({ cwd: process.cwd(), stack: args.stack }).file);
    if (warning) process.stderr.write(warning);
  }
  return ws;
}

/** Refreshes and plans (the part plan and apply share). */
export async function makePlan(ws: Workspace, args: WorkspaceArgs, state: StateStore, clients: ProviderClients, mode: { destroy?: boolean } = {}): Promise<PlanResult> {
  const common = { configuration: ws.configuration, state, clients, kindOf: resourceKind };
  const recorded = args.refresh ? state.objects().filter((o) => o.mode === 'managed').length : 0;
  const refreshed = await withReadProgress(recorded, (onRead) => refresh({ ...common, parallelism: args.parallelism, refresh: args.refresh, onRead }));
  return buildPlan({ ...common, refreshed, targets: args.target ?? [], refreshOnly: args['refresh-only'], destroy: mode.destroy });
}

/** Whether applying the plan would change anything: the platform, or (refresh-only) the recorded state. */
export function planChangesSomething(plan: PlanResult['plan']): boolean {
  return hasChanges(plan) || changedOutputs(plan).length > 0 || (plan.refreshOnly && plan.drift.length > 0);
}

interface PlanArgs extends WorkspaceArgs {
  out?: string;
  format: 'text' | 'markdown' | 'json';
  'detailed-exitcode': boolean;
  destroy: boolean;
  'comments-dir'?: string;
}

export const planCommand: CommandModule<object, PlanArgs> = {
  command: 'plan',
  describe: 'Show what apply would change: reads the platform, compares it with the configuration and the state',
  builder: (y) =>
    workspaceFlags(y)
      .option('out', { type: 'string', describe: 'Save the plan to this file, for `tenantform apply PLANFILE`' })
      .option('format', { choices: ['text', 'markdown', 'json'] as const, default: 'text' as const, describe: 'Output format (markdown for pull requests)' })
      .option('detailed-exitcode', { type: 'boolean', default: false, describe: 'Exit 0 without changes, 1 on error, 2 with changes' })
      .option('comments-dir', {
        type: 'string',
        describe: 'Write the markdown plan as pull-request comments into this folder: comment-1.md, comment-2.md, ... (each under 65,536 characters)',
      })
      .option('destroy', { type: 'boolean', default: false, describe: 'Plan to delete every recorded object (the targets and what depends on them)' })
      .check((a) => {
        if (a.destroy && a['refresh-only']) throw new Error('--destroy and --refresh-only cannot be combined.');
        return true;
      })
      .example('tenantform plan', 'Plan the only synthesized stack')
      .example('tenantform plan --format markdown > plan.md', 'A pull-request comment')
      .example('tenantform plan --out tf.plan && tenantform apply tf.plan', 'Apply exactly what was reviewed')
      .example('tenantform plan --refresh-only', 'What `apply --refresh-only` would accept into the state'),
  handler: async (args) => {
    const ws = await openSynthesizedWorkspace(args);
    if (!ws) return;
    await withLockedState(ws, process.env, 'OperationTypePlan', async (state, _client, clients) => {
      const result = await makePlan(ws, args, state, clients, { destroy: args.destroy });
      const context = { configuration: ws.configuration, data: result.data, recordedDependencies: new Map(state.objects().map((o) => [o.address, o.dependencies])), version: TENANTFORM_VERSION };
      process.stdout.write(redactSecrets(render(result, args, context)));
      if (hasErrors(result.plan.diagnostics)) {
        process.exitCode = 1;
        return;
      }
      if (args['comments-dir']) writeComments(args['comments-dir'], result.plan);
      if (args.out) {
        await savePlan(args.out, result);
        process.stderr.write(`Saved the plan to ${args.out}. Apply exactly this plan with: tenantform apply ${args.out}\n`);
      }
      process.exitCode = args['detailed-exitcode'] && planChangesSomething(result.plan) ? 2 : 0;
    }, stateLockFlags(args));
  },
};

function render({ plan }: PlanResult, args: PlanArgs, context: PlanJsonContext): string {
  if (args.format === 'json') return serializePlanJson(plan, context);
  if (args.format === 'markdown') return renderComments(plan, { runUrl: ciRunUrl() }).join('\n---\n\n');
  return renderText(plan, { color: shouldColor(process.stdout, process.env, args.color) });
}

/** One file per comment, and nothing left of an earlier, longer plan. */
function writeComments(dir: string, plan: PlanResult['plan']): void {
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir).filter((f) => /^comment-\d+\.md$/.test(f))) rmSync(join(dir, old));
  const comments = renderComments(plan, { runUrl: ciRunUrl() });
  comments.forEach((text, i) => writeFileSync(join(dir, `comment-${i + 1}.md`), redactSecrets(text)));
  process.stderr.write(`Wrote ${comments.length} pull-request comment${comments.length === 1 ? '' : 's'} to ${dir}.\n`);
}
