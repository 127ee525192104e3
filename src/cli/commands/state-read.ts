import type { CommandModule } from 'yargs';
import { withUnlockedState } from '../../engine/session';
import { resourceKind } from '../../resources/registry';
import { serializeState } from '../../state/state';
import { type RecordedObject } from '../../state/model';
import { stateCommandErrors } from '../errors';
import { redactSecrets } from '../redact';
import { stateValueText } from '../views/value-text';
import { backendOf, stateFlags, type StateArgs } from './shared';

interface ListArgs extends StateArgs {
  addresses?: string[];
}

export const stateListCommand: CommandModule<object, ListArgs> = {
  command: 'list [addresses..]',
  describe: 'List the addresses recorded in the state (those starting with ADDRESS only, when given)',
  builder: (y) => stateFlags(y).positional('addresses', { type: 'string', array: true, describe: 'Only these addresses, or those under them' }),
  handler: async (args) => {
    await withUnlockedState({ backend: await backendOf(args) }, async (state) => {
      const filters = args.addresses ?? [];
      const matches = (a: string) => filters.length === 0 || filters.some((f) => a === f || a.startsWith(`${f}.`));
      const listed = state
        .objects()
        .map((o) => o.address)
        .filter(matches)
        .sort();
      process.stdout.write(listed.map((a) => `${a}\n`).join(''));
    });
  },
};

interface ShowArgs extends StateArgs {
  address: string;
}

export const stateShowCommand: CommandModule<object, ShowArgs> = {
  command: 'show <address>',
  describe: 'Show the attributes of one recorded object (sensitive ones masked)',
  builder: (y) => stateFlags(y).positional('address', { type: 'string', demandOption: true }),
  handler: async (args) => {
    const backend = await backendOf(args);
    await withUnlockedState({ backend }, async (state) => {
      const object = state.get(args.address);
      if (!object) throw stateCommandErrors.notInState(args.address, backend.location);
      process.stdout.write(redactSecrets(renderObject(object)));
    });
  },
};

/** An object as Terraform's `state show` prints it: its block, one attribute a line. */
export function renderObject(o: RecordedObject): string {
  const kind = resourceKind(o.type);
  // Terraform leaves out what has no value, and aligns the rest.
  const names = Object.keys(o.attributes)
    .filter((name) => o.attributes[name] !== null && o.attributes[name] !== undefined)
    .sort();
  const width = Math.max(0, ...names.map((name) => name.length));
  const lines = names.map((name) => {
    const value = o.attributes[name];
    const shown =
      // Sensitive by its kind, or by what it was given (a value derived from a sensitive variable, recorded in sensitive_attributes).
      kind?.attributes[name]?.sensitive || o.sensitive.includes(name) ? '(sensitive value)' : stateValueText(value, '    ');
    return `    ${name.padEnd(width)} = ${shown}`;
  });
  const block = o.mode === 'data' ? 'data' : 'resource';
  return `# ${o.address}:\n${block} "${o.type}" "${o.name}" {\n${lines.join('\n')}\n}\n`;
}

export const statePullCommand: CommandModule<object, StateArgs> = {
  command: 'pull',
  describe: 'Print the state document (Terraform format version 4) to stdout',
  builder: (y) => stateFlags(y),
  handler: async (args) => {
    await withUnlockedState({ backend: await backendOf(args) }, async (state) => {
      if (state.existed) process.stdout.write(serializeState(state.snapshot()));
    });
  },
};
