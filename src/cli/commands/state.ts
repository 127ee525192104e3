import type { CommandModule } from 'yargs';
import { withHelpNote } from './help-note';
import { stateListCommand, statePullCommand, stateShowCommand } from './state-read';
import { stateMvCommand, statePushCommand, stateRmCommand } from './state-edit';

const STATE_COMMANDS = [stateListCommand, stateShowCommand, statePullCommand, statePushCommand, stateRmCommand, stateMvCommand].map(
  withHelpNote,
) as ReadonlyArray<CommandModule<never, never>>;

export const stateCommand: CommandModule<object, object> & { subcommands: typeof STATE_COMMANDS } = {
  command: 'state <command>',
  describe: "Read and edit the stack's state where its backend keeps it (as terraform state)",
  builder: (y) =>
    y
      .usage(
        'tenantform state <command> [options]\n\n' +
          "The state is read from the stack's backend (terraform.backend: local, pg or http), the same one\n" +
          '`terraform` uses. list, show and pull only read (like Terraform, without the lock); push, rm and mv\n' +
          'change only the state, never the platform, under the lock shared with terraform.',
      )
      .command(STATE_COMMANDS as CommandModule[])
      .demandCommand(1, 'Name a state command: list, show, pull, push, rm or mv.'),
  handler: () => undefined,
  subcommands: STATE_COMMANDS,
};
