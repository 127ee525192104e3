import type { CommandModule } from 'yargs';
import { hasErrors } from '../../diagnostics';
import { importIdProblem, importObject } from '../../engine/import';
import { withLockedState } from '../../engine/session';
import { KINDS, resourceKind } from '../../resources/registry';
import {
  lockFlags,
  printDiagnostics,
  stateFlags,
  stateLockFlags,
  variableFlags,
  workspaceOrProblems,
  type LockArgs,
  type StateArgs,
  type VariableArgs,
} from './shared';

interface ImportArgs extends LockArgs, StateArgs, VariableArgs {
  address: string;
  id: string;
  parallelism: number;
}

const FORMATS = KINDS.resources.map((k) => `  ${k.type}: ${k.importId.format.replace(/`/g, '')}`).join('\n');

export const importCommand: CommandModule<object, ImportArgs> = {
  command: 'import <address> <id>',
  describe: 'Adopt an existing platform object into the state, for a resource declared in the configuration',
  builder: (y) =>
    variableFlags(stateFlags(lockFlags(y)))
      .usage(
        'tenantform import ADDRESS ID [options]\n\n' +
          'Reads the object with this ID from the platform and records it in the state at ADDRESS, under the\n' +
          'state lock, in one atomic write. ADDRESS must be declared in the configuration and not managed yet.\n' +
          'Afterwards, `tenantform plan` shows only how the configuration differs from the object. Nothing on\n' +
          'the platform changes.\n\n' +
          `Import ids by resource type:\n${FORMATS}`,
      )
      .positional('address', { type: 'string', demandOption: true, describe: 'The resource address, e.g. tenantform_infra_component.primary' })
      .positional('id', { type: 'string', demandOption: true, describe: "The object's import id (see the list above)" })
      .option('parallelism', { type: 'number', default: 10, describe: 'How many objects are read at once' }),
  handler: async (args) => {
    const malformed = importIdProblem(args.address, args.id, resourceKind);
    if (malformed) {
      printDiagnostics([malformed]);
      process.exitCode = 1;
      return;
    }
    const ws = await workspaceOrProblems(args);
    if (!ws) return;
    await withLockedState(
      ws,
      process.env,
      'OperationTypeImport',
      async (state, _client, clients) => {
        process.stderr.write(`${args.address}: Importing from ID "${args.id}"...\n`);
        const r = await importObject({
          configuration: ws.configuration,
          state,
          clients,
          address: args.address,
          id: args.id,
          parallelism: args.parallelism,
          kindOf: resourceKind,
        });
        printDiagnostics(r.diagnostics);
        if (!r.value || hasErrors(r.diagnostics)) {
          process.exitCode = 1;
          return;
        }
        process.stdout.write(
          `${args.address}: Import complete [id=${String(r.value.id ?? args.id)}]\n\nImport successful!\n\n` +
            'The object is now managed by tenantform. Run `tenantform plan` to see how the configuration differs from it.\n',
        );
      },
      stateLockFlags(args),
    );
  },
};
