import type { CommandModule } from 'yargs';
import { withHelpNote } from './help-note';
import { listWorkspaces, workspaceOf } from '../../backends';
import { locateConfiguration } from '../../config/config';
import { folderBackend } from '../../config/document';
import { stateFlags, type StateArgs } from './shared';

/** The workspace a command uses: TF_WORKSPACE, as Terraform takes it in automation, else `default`. */
function currentWorkspace(): string {
  return workspaceOf(process.env);
}

const workspaceShowCommand: CommandModule<object, StateArgs> = {
  command: 'show',
  describe: 'Print the workspace the commands use (TF_WORKSPACE, else default)',
  builder: (y) => stateFlags(y),
  handler: () => {
    process.stdout.write(`${currentWorkspace()}\n`);
  },
};

const workspaceListCommand: CommandModule<object, StateArgs> = {
  command: 'list',
  describe: "List the workspaces of the stack's backend, the current one marked with *",
  builder: (y) => stateFlags(y),
  handler: async (args) => {
    const location = locateConfiguration({ cwd: process.cwd(), stack: args.stack, config: args.config });
    const current = currentWorkspace();
    const backendValue = await folderBackend(location);
    const listed = await listWorkspaces({ configFile: location.file, stackDir: location.dir, backendValue, env: process.env });
    const names = [...new Set([...listed, current])].sort();
    process.stdout.write(names.map((n) => `${n === current ? '*' : ' '} ${n}\n`).join(''));
  },
};

/** select, new and delete: Terraform keeps the choice in `.terraform/environment`; tenantform reads TF_WORKSPACE. */
const workspaceChoiceCommand = (verb: 'select' | 'new' | 'delete', said: string): CommandModule<object, { name: string }> => ({
  command: `${verb} <name>`,
  describe: said,
  builder: (y) => y.positional('name', { type: 'string', demandOption: true }),
  handler: (args) => {
    const how =
      verb === 'delete'
        ? `tenantform deletes no workspace: \`terraform workspace delete ${args.name}\` does, with the provider.`
        : `tenantform takes the workspace from TF_WORKSPACE, as terraform does in automation: set TF_WORKSPACE=${args.name}${verb === 'new' ? ' (the first apply makes its state)' : ''}.`;
    throw new Error(how);
  },
});

const WORKSPACE_COMMANDS = [
  workspaceShowCommand,
  workspaceListCommand,
  workspaceChoiceCommand('select', 'Use another workspace (set TF_WORKSPACE)'),
  workspaceChoiceCommand('new', 'Make a workspace (set TF_WORKSPACE, then apply)'),
  workspaceChoiceCommand('delete', 'Delete a workspace (terraform does)'),
].map(withHelpNote) as ReadonlyArray<CommandModule<never, never>>;

export const workspaceCommand: CommandModule<object, object> & { subcommands: typeof WORKSPACE_COMMANDS } = {
  command: 'workspace <command>',
  describe: "The stack's workspaces (TF_WORKSPACE chooses one, as in Terraform's automation)",
  builder: (y) => y.command(WORKSPACE_COMMANDS as CommandModule[]).demandCommand(1, 'Name a workspace command: show or list.'),
  handler: () => undefined,
  subcommands: WORKSPACE_COMMANDS,
};
