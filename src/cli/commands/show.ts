import type { CommandModule } from 'yargs';
import { withUnlockedState } from '../../engine/session';
import { loadPlan } from '../../plans/planfile';
import { outputValueText } from '../views/value-text';
import { stateJson } from '../views/json-document';
import { renderText, serializePlanJson } from '../views';
import { redactSecrets } from '../redact';
import { backendOf, stateFlags, type StateArgs } from './shared';
import { renderObject } from './state-read';

interface ShowArgs extends StateArgs {
  planfile?: string;
  json: boolean;
}

/**
 * `tenantform show [PLANFILE]`: a saved plan as `plan` showed it, or the state's objects and
 * outputs; `-json` as `terraform show -json` writes either. Sensitive values are never shown.
 */
export const showCommand: CommandModule<object, ShowArgs> = {
  command: 'show [planfile]',
  describe: 'Show a saved plan, or the state (its objects and outputs); -json as terraform show -json',
  builder: (y) =>
    stateFlags(y)
      .positional('planfile', { type: 'string', describe: 'A plan saved by `tenantform plan --out`' })
      .option('json', { type: 'boolean', default: false, describe: 'As the JSON document of `terraform show -json`' }),
  handler: async (args) => {
    if (args.planfile !== undefined) {
      const { plan } = loadPlan(args.planfile);
      process.stdout.write(redactSecrets(args.json ? serializePlanJson(plan) : renderText(plan, { color: false })));
      return;
    }
    await withUnlockedState({ backend: await backendOf(args) }, async (state) => {
      const objects = state.objects();
      if (args.json) {
        process.stdout.write(redactSecrets(`${JSON.stringify(stateJson(objects, state.outputs()))}\n`));
        return;
      }
      if (objects.length === 0) {
        process.stdout.write('The state is empty.\n');
        return;
      }
      const outputs = Object.entries(state.outputs()).map(([name, o]) => {
        const recorded = o as { value?: unknown; sensitive?: boolean };
        return `${name} = ${recorded.sensitive ? '(sensitive value)' : outputValueText(recorded.value)}`;
      });
      process.stdout.write(
        redactSecrets(objects.map((o) => `${renderObject(o)}\n`).join('') + (outputs.length > 0 ? `\nOutputs:\n\n${outputs.join('\n')}\n` : '')),
      );
    });
  },
};
