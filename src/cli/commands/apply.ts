import { createInterface } from 'node:readline/promises';
import type { CommandModule } from 'yargs';
import { hasErrors } from '../../diagnostics';
import { reconcilerErrors } from '../../errors';
import { applyPlan, type ApplyResult } from '../../reconciler/apply';
import { assertPlanFresh, loadPlan } from '../../reconciler/planfile';
import type { PlanResult } from '../../reconciler/planner';
import { Progress } from '../../reconciler/progress';
import { renderText, shouldColor } from '../../reconciler/render/text';
import { resourceKind, withLockedState } from '../../reconciler/session';
import { redactSecrets } from '../redact';
import { makePlan, planChangesSomething, printDiagnostics, workspaceFlags, workspaceOrProblems, type WorkspaceArgs } from './plan';

interface ApplyArgs extends WorkspaceArgs {
  planfile?: string;
  'auto-approve': boolean;
}

const PROMPT = "Do you want to perform these actions? Only 'yes' will be accepted: ";

export const applyCommand: CommandModule<object, ApplyArgs> = {
  command: 'apply [planfile]',
  describe: 'Make the platform match the configuration (plans first and asks, or applies a saved plan)',
  builder: (y) =>
    workspaceFlags(y)
      .positional('planfile', { type: 'string', describe: 'A plan saved by `tenantform plan --out`; refused when stale' })
      .option('auto-approve', { type: 'boolean', default: false, describe: 'Apply without asking (needed without a terminal)' })
      .example('tenantform apply', 'Plan, show the plan, ask, apply')
      .example('tenantform plan --out tf.plan && tenantform apply tf.plan', 'Apply exactly the reviewed plan')
      .example('tenantform apply --auto-approve', 'In CI, without a terminal')
      .example('tenantform apply --refresh-only --auto-approve', 'Accept changes made on the platform into the state, changing nothing there'),
  handler: async (args) => {
    const ws = workspaceOrProblems(args);
    if (!ws) return;
    await withLockedState(ws, process.env, 'OperationTypeApply', async (state, _client, clients) => {
      let result: PlanResult;
      if (args.planfile) {
        result = loadPlan(args.planfile);
        await assertPlanFresh({ saved: result, configuration: ws.configuration, state, clients, parallelism: args.parallelism, kindOf: resourceKind });
      } else {
        result = await makePlan(ws, args, state, clients);
        process.stdout.write(redactSecrets(renderText(result.plan, { color: shouldColor(process.stdout, process.env) })));
        if (hasErrors(result.plan.diagnostics)) {
          process.exitCode = 1;
          return;
        }
        if (planChangesSomething(result.plan) && !args['auto-approve'] && !(await approved())) {
          process.stderr.write('Apply cancelled: nothing was changed.\n');
          process.exitCode = 1;
          return;
        }
      }
      const progress = new Progress((line) => process.stderr.write(`${redactSecrets(line)}\n`));
      const applied = await applyPlan({ ...result, configuration: ws.configuration, state, clients, parallelism: args.parallelism, kindOf: resourceKind, progress });
      report(applied);
    });
  },
};

async function approved(): Promise<boolean> {
  if (!process.stdin.isTTY) throw reconcilerErrors.notInteractive();
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await rl.question(`\n${PROMPT}`)).trim() === 'yes';
  } finally {
    rl.close();
  }
}

function report(r: ApplyResult): void {
  const counts = `Resources: ${r.added} added, ${r.changed} changed, ${r.destroyed} destroyed.`;
  printDiagnostics(r.diagnostics);
  const failures = r.diagnostics.filter((d) => d.severity === 'error');
  if (failures.length === 0) {
    process.stdout.write(`\nApply complete! ${counts}\n`);
    return;
  }
  const failed = [...new Set(failures.map((d) => d.address ?? '(no address)'))];
  process.stderr.write(`Apply failed for ${failed.join(', ')}. What succeeded is recorded in the state. ${counts}\n`);
  process.exitCode = 1;
}
