import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { hasErrors, withFile } from '../../diagnostics';
import { changedOutputs, hasChanges } from '../../plans/model';
import { savePlan } from '../../plans/planfile';
import type { PlanResult } from '../../plans/model';
import { planStack } from '../../engine/plan-stack';
import { serializePlanJson } from '../views/json';
import type { PlanJsonContext } from '../views/json-document';
import { renderComments } from '../views/markdown-comments';
import { renderTextChunks, shouldColor } from '../views/text';
import { PLAN_OPERATION, withLockedState, type Workspace } from '../../engine/session';
import { TENANTFORM_VERSION } from '../../package-root';
import { backendErrors } from '../../backends/errors';
import { resourceKind } from '../../resources/registry';
import type { ProviderClients } from '../../engine/clients';
import type { StateStore } from '../../state/state';
import { ciRunUrl } from '../ci-run';
import { redactSecrets } from '../redact';
import { writeChunks } from '../write-chunks';
import { openSynthesizedWorkspace, stateLockFlags, workspaceFlags, type WorkspaceArgs } from './shared';
import { withReadProgress } from '../read-progress';

/** Refreshes and plans (the part plan and apply share). */
export async function makePlan(
  ws: Workspace,
  args: WorkspaceArgs,
  state: StateStore,
  clients: ProviderClients,
  mode: { destroy?: boolean } = {},
): Promise<PlanResult> {
  const recorded = args.refresh ? state.objects().filter((o) => o.mode === 'managed').length : 0;
  const planned = await withReadProgress(recorded, (onRead) =>
    planStack(
      { configuration: ws.configuration, state, clients, kindOf: resourceKind },
      {
        parallelism: args.parallelism,
        refresh: args.refresh,
        refreshOnly: args['refresh-only'],
        destroy: mode.destroy,
        targets: args.target,
        replace: args.replace,
        onRead,
      },
    ),
  );
  // Every view of the plan (text, markdown, JSON) then names the file a problem of a folder's block is written in.
  const { positionOf } = ws;
  if (!positionOf) return planned;
  return { ...planned, plan: { ...planned.plan, diagnostics: planned.plan.diagnostics.map((d) => withFile(d, positionOf)) } };
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
    // A saved plan is for `tenantform apply`, which leaves this backend's writes to terraform.
    if (args.out && ws.backend.readOnly) throw backendErrors.writesThroughTerraform(ws.backend.type, ws.backend.location, 'save a plan for');
    await withLockedState(
      ws,
      process.env,
      PLAN_OPERATION,
      async (state, _client, clients) => {
        if (ws.backend.readOnly) process.stderr.write(ws.backend.readOnly.notice);
        const result = await makePlan(ws, args, state, clients, { destroy: args.destroy });
        const context = {
          configuration: ws.configuration,
          data: result.data,
          recordedDependencies: new Map(state.objects().map((o) => [o.address, o.dependencies])),
          version: TENANTFORM_VERSION,
        };
        await writeChunks(process.stdout, render(result, args, context), redactSecrets);
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
      },
      // A plan that reads nothing asks for no token: a state and a configuration alone plan offline.
      { ...stateLockFlags(args), checkPlatformFirst: args.refresh },
    );
  },
};

/** The plan in the chosen format; text in chunks, written as they are rendered. */
function render({ plan }: PlanResult, args: PlanArgs, context: PlanJsonContext): Iterable<string> {
  if (args.format === 'json') return [serializePlanJson(plan, context)];
  if (args.format === 'markdown') return [renderComments(plan, { runUrl: ciRunUrl() }).join('\n---\n\n')];
  return renderTextChunks(plan, { color: shouldColor(process.stdout, process.env, args.color), compactWarnings: args['compact-warnings'] });
}

/** One file per comment, and nothing left of an earlier, longer plan. */
function writeComments(dir: string, plan: PlanResult['plan']): void {
  mkdirSync(dir, { recursive: true });
  for (const old of readdirSync(dir).filter((f) => /^comment-\d+\.md$/.test(f))) rmSync(join(dir, old));
  const comments = renderComments(plan, { runUrl: ciRunUrl() });
  comments.forEach((text, i) => writeFileSync(join(dir, `comment-${i + 1}.md`), redactSecrets(text)));
  process.stderr.write(`Wrote ${comments.length} pull-request comment${comments.length === 1 ? '' : 's'} to ${dir}.\n`);
}
