import type { CommandModule } from 'yargs';
import { withUnlockedState } from '../../engine/session';
import { stateCommandErrors } from '../errors';
import { isRecord } from '../../plain-json';
import { outputValueText } from '../views/value-text';
import { recordedOutputsJson } from '../views/json-document';
import { backendOf, stateFlags, type StateArgs } from './shared';

interface OutputArgs extends StateArgs {
  name?: string;
  json: boolean;
  raw: boolean;
}

interface RecordedOutput {
  readonly value: unknown;
  readonly sensitive?: boolean;
}

/**
 * `tenantform output`: the root outputs the state records, as `terraform output` prints them.
 * A sensitive value is printed only for an output named on the command line (`output NAME`,
 * `-raw`, `-json NAME`), the way a script takes a client secret; listed, it is `<sensitive>`.
 */
export const outputCommand: CommandModule<object, OutputArgs> = {
  command: 'output [name]',
  describe: "Show the outputs recorded in the state (one output's value with NAME; -raw for a script)",
  builder: (y) =>
    stateFlags(y)
      .positional('name', { type: 'string', describe: 'Only this output, its value in full (sensitive ones too)' })
      .option('json', { type: 'boolean', default: false, describe: 'As JSON: every output with its type, or the value of NAME' })
      .option('raw', { type: 'boolean', default: false, describe: "NAME's string, number or bool as it is, without quotes or a newline" })
      .example('tenantform output', 'Every output, sensitive values masked')
      .example('tenantform output -raw monitoring_client_secret', 'One value for a script'),
  handler: async (args) => {
    const backend = await backendOf(args);
    await withUnlockedState({ backend }, async (state) => {
      const outputs = recordedOutputs(state.outputs());
      if (args.name === undefined) {
        if (args.raw) throw stateCommandErrors.outputNameNeeded();
        process.stdout.write(args.json ? `${JSON.stringify(recordedOutputsJson(state.outputs()), null, 2)}\n` : listedText(outputs));
        if (!args.json && outputs.size === 0) process.stderr.write('Warning: No outputs found in the state.\n');
        return;
      }
      const output = outputs.get(args.name);
      if (!output) throw stateCommandErrors.outputNotFound(args.name, backend.location);
      if (args.raw) {
        const v = output.value;
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw stateCommandErrors.outputNotRaw(args.name);
        process.stdout.write(String(v));
        return;
      }
      process.stdout.write(args.json ? `${JSON.stringify(output.value)}\n` : `${outputValueText(output.value)}\n`);
    });
  },
};

function recordedOutputs(raw: Record<string, unknown>): Map<string, RecordedOutput> {
  const out = new Map<string, RecordedOutput>();
  for (const name of Object.keys(raw).sort()) {
    const o = raw[name];
    if (isRecord(o)) out.set(name, { value: o.value, sensitive: o.sensitive === true });
  }
  return out;
}

function listedText(outputs: ReadonlyMap<string, RecordedOutput>): string {
  return [...outputs].map(([name, o]) => `${name} = ${o.sensitive ? '<sensitive>' : outputValueText(o.value)}\n`).join('');
}
