import { createInterface } from 'node:readline/promises';
import type { CommandModule } from 'yargs';
import { hasErrors, withFile } from '../../diagnostics';
import { cliErrors } from '../errors';
import { applyPlan, type ApplyResult } from '../../engine/apply';
import { loadPlan } from '../../plans/planfile';
import { assertPlanFresh } from '../../engine/plan-freshness';
import type { PlanResult } from '../../plans/model';
import { Progress } from '../../engine/progress';
import { renderTextChunks, shouldColor } from '../views/text';
import { withLockedState } from '../../engine/session';
import { resourceKind } from '../../resources/registry';
import { redactSecrets } from '../redact';
import { writeChunks } from '../write-chunks';
import { makePlan, planChangesSomething } from './plan';
import { openSynthesizedWorkspace, printDiagnostics, stateLockFlags, workspaceFlags, type WorkspaceArgs } from './shared';

export interface ApproveArgs extends WorkspaceArgs {
  'auto-approve': boolean;
}

interface ApplyArgs extends ApproveArgs {
  planfile?: string;
  destroy: boolean;
}

/** What differs between apply and destroy: the question, and the words around it. */
interface Flavour {
  readonly command: 'apply' | 'destroy';
  readonly destroy: boolean;
  question(args: ApproveArgs): string;
  readonly cancelled: string;
  complete(r: ApplyResult): string;
}

const APPLY: Flavour = {
  command: 'apply',
  destroy: false,
  question: () => "Do you want to perform these actions?\n  tenantform will perform the actions described above.\n  Only 'yes' will be accepted to approve.",
  cancelled: 'Apply cancelled.',
  complete: (r) =>
    `Apply complete! Resources: ${r.imported ? `${r.imported} imported, ` : ''}${r.added} added, ${r.changed} changed, ${r.destroyed} destroyed.`,
};

export const DESTROY: Flavour = {
  command: 'destroy',
  destroy: true,
  question: (args) =>
    `Do you really want to destroy${args.target?.length ? '' : ' all resources'}?\n` +
    `  tenantform will destroy ${args.target?.length ? 'the resources' : 'all your managed infrastructure'}, as shown above.\n` +
    "  There is no undo. Only 'yes' will be accepted to confirm.",
  cancelled: 'Destroy cancelled.',
  complete: (r) => `Destroy complete! Resources: ${r.destroyed} destroyed.`,
};

export function approveFlags<T>(y: Parameters<typeof workspaceFlags<T>>[0]) {
  return workspaceFlags(y).option('auto-approve', { type: 'boolean', default: false, describe: 'Apply without asking (needed without a terminal)' });
}

export const applyCommand: CommandModule<object, ApplyArgs> = {
  command: 'apply [planfile]',
  describe: 'Make the platform match the configuration (plans first and asks, or applies a saved plan)',
  builder: (y) =>
    approveFlags(y)
      .option('destroy', {
        type: 'boolean',
        default: false,
        describe: "Destroy every object the state records, as `tenantform destroy` does (Terraform's `apply -destroy`)",
      })
      .positional('planfile', { type: 'string', describe: 'A plan saved by `tenantform plan --out`; refused when stale' })
      .example('tenantform apply', 'Plan, show the plan, ask, apply')
      .example('tenantform plan --out tf.plan && tenantform apply tf.plan', 'Apply exactly the reviewed plan')
      .example('tenantform apply -auto-approve -input=false', 'In CI, without a terminal')
      .example('tenantform apply --refresh-only --auto-approve', 'Accept changes made on the platform into the state, changing nothing there'),
  handler: (args) => planApproveApply(args, args.destroy ? DESTROY : APPLY),
};

/**
 * Plans (or loads a saved plan), shows it, asks unless told not to, applies. Refuses at once,
 * before reading anything, when it would have to ask but may not (-input=false).
 */
export async function planApproveApply(args: ApproveArgs & { planfile?: string }, flavour: Flavour): Promise<void> {
  if (!args.planfile && !args['auto-approve'] && !args.input) throw cliErrors.approvalWithoutInput(flavour.command);
  const ws = await openSynthesizedWorkspace(args);
  if (!ws) return;
  await withLockedState(
    ws,
    process.env,
    'OperationTypeApply',
    async (state, _client, clients) => {
      let result: PlanResult;
      if (args.planfile) {
        result = loadPlan(args.planfile);
        await assertPlanFresh({ saved: result, configuration: ws.configuration, state, clients, parallelism: args.parallelism, kindOf: resourceKind });
      } else {
        result = await makePlan(ws, args, state, clients, { destroy: flavour.destroy });
        await writeChunks(
          process.stdout,
          renderTextChunks(result.plan, { color: shouldColor(process.stdout, process.env, args.color), compactWarnings: args['compact-warnings'] }),
          redactSecrets,
        );
        if (hasErrors(result.plan.diagnostics)) {
          process.exitCode = 1;
          return;
        }
        if (planChangesSomething(result.plan) && !args['auto-approve'] && !(await approved(flavour.question(args)))) {
          process.stdout.write(`\n${flavour.cancelled}\n`);
          process.exitCode = 1;
          return;
        }
      }
      const progress = new Progress((line) => process.stderr.write(`${redactSecrets(line)}\n`));
      const applied = await applyPlan({
        ...result,
        configuration: ws.configuration,
        state,
        clients,
        parallelism: args.parallelism,
        kindOf: resourceKind,
        progress,
      });
      // Problems met while applying name the file and line of their block too, as the plan's do.
      const positionOf = ws.positionOf;
      report(
        positionOf ? { ...applied, diagnostics: applied.diagnostics.map((d) => withFile(d, positionOf)) } : applied,
        result.plan.destroy ? DESTROY : flavour,
      );
    },
    stateLockFlags(args),
  );
}

async function approved(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) throw cliErrors.notInteractive();
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(`\n${question}\n\n  Enter a value: `)).trim() === 'yes';
  } finally {
    rl.close();
  }
}

function report(r: ApplyResult, flavour: Flavour): void {
  printDiagnostics(r.diagnostics);
  const failures = r.diagnostics.filter((d) => d.severity === 'error');
  if (failures.length === 0) {
    process.stdout.write(`\n${flavour.complete(r)}\n`);
    return;
  }
  const counts = APPLY.complete(r).replace('Apply complete! ', '');
  const failed = [...new Set(failures.map((d) => d.address ?? '(no address)'))];
  process.stderr.write(
    `${flavour.command === 'destroy' ? 'Destroy' : 'Apply'} failed for ${failed.join(', ')}. What succeeded is recorded in the state. ${counts}\n`,
  );
  process.exitCode = 1;
}
