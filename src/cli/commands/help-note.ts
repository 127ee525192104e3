import type { Argv, CommandModule } from 'yargs';

/** The end of every --help: yargs lists options with two dashes, and terraform users type one. */
export const TERRAFORM_SPELLINGS_NOTE =
  'Options also take one dash, as terraform writes them: -auto-approve, -out=FILE, -var name=value.\n' +
  '-chdir=DIR before the command runs it in DIR, as terraform does: tenantform -chdir=stacks/main plan';

/** The command with the note at the end of its --help (yargs gives each command its own epilogue). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withHelpNote<C extends CommandModule<any, any>>(command: C): C {
  const builder = command.builder;
  return {
    ...command,
    builder: (y: Argv) => (typeof builder === 'function' ? (builder(y) as Argv) : y.options(builder ?? {})).epilogue(TERRAFORM_SPELLINGS_NOTE),
  };
}
