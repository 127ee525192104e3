import yargs, { type CommandModule } from 'yargs';
import { closestName } from '../suggest';

/**
 * Terraform spells its options with one dash (`-detailed-exitcode`, `-out=FILE`); yargs
 * would read `-out` as the short flags o, u, t. Before parsing, a single-dash word of two or more
 * letters is rewritten with two dashes, so that one the command declares is taken and any other
 * is refused by its name. The names come from the command's own yargs definitions, so every
 * option a command gains is accepted both ways.
 */

/** What yargs records about declared options (not part of its typings). */
/** What a yargs instance declared; yargs has `getOptions()` but leaves it out of its types. */
function optionsOf(y: object): DeclaredOptions {
  const getOptions: unknown = Reflect.get(y, 'getOptions');
  if (typeof getOptions !== 'function') throw new Error('yargs no longer offers getOptions()');
  return Reflect.apply(getOptions, y, []) as DeclaredOptions;
}

interface DeclaredOptions {
  readonly key: Record<string, unknown>;
  readonly boolean: string[];
  readonly alias: Record<string, string[]>;
}

/** The first word of a command's usage string: `apply [planfile]` is `apply`. */
function commandName(command: CommandModule<unknown, unknown>): string | undefined {
  const usage = Array.isArray(command.command) ? command.command[0] : command.command;
  return usage?.split(' ')[0];
}

/**
 * argv with Terraform's single-dash spellings of the named command's options turned into
 * yargs' double-dash ones. Anything else (short flags, values, words after `--`) is kept.
 */
export function withDoubleDashes(argv: readonly string[], commands: ReadonlyArray<CommandModule<unknown, unknown>>): string[] {
  const command = commandOf(argv, commands);
  const booleans = new Set(command ? declaredOptions(command).boolean : []);
  const out: string[] = [];
  let ended = false;
  for (const arg of argv) {
    if (arg === '--') ended = true;
    const match = !ended && /^--?([a-z][a-z0-9-]+)(=.*)?$/s.exec(arg);
    if (match && match[2] !== undefined && booleans.has(match[1])) {
      out.push(`--${match[1]}=${String(parseBoolFlag(match[1], match[2].slice(1)))}`);
      continue;
    }
    // Any single-dash word is an option's name, as Terraform reads it: one it does not know is
    // refused by its name (`-destroy`), never taken apart into short flags (d, e, s, ...).
    out.push(match && !arg.startsWith('--') ? `-${arg}` : arg);
  }
  return out;
}

/** The command (or subcommand: `state pull`) that argv names. */
function commandOf(argv: readonly string[], commands: ReadonlyArray<CommandModule<unknown, unknown>>): CommandModule<unknown, unknown> | undefined {
  const [name, subName] = argv.filter((a) => !a.startsWith('-'));
  const group: (CommandModule<unknown, unknown> & { subcommands?: ReadonlyArray<CommandModule<unknown, unknown>> }) | undefined = commands.find(
    (c) => commandName(c) === name,
  );
  // A command with subcommands (`state pull`): the subcommand declares the options.
  return group?.subcommands?.find((c) => commandName(c) === subName) ?? group;
}

/** The options a command declares. */
function declaredOptions(command: CommandModule<unknown, unknown>): { names: string[]; boolean: string[] } {
  const builder = command.builder;
  if (typeof builder !== 'function') return { names: [], boolean: [] };
  const y = yargs([]);
  builder(y);
  const declared = optionsOf(y);
  return { names: Object.keys(declared.key), boolean: declared.boolean };
}

/**
 * "Did you mean -auto-approve?" for an option the command does not declare, spelled with the
 * dashes the user typed; undefined when no declared option is near.
 */
export function optionSuggestion(argv: readonly string[], commands: ReadonlyArray<CommandModule<unknown, unknown>>, unknown: string): string | undefined {
  const command = commandOf(argv, commands);
  const typed = argv.find((a) => a.replace(/=.*$/s, '').replace(/^--?/, '') === unknown && a.startsWith('-'));
  if (!command || typed === undefined) return undefined;
  const meant = closestName(unknown, declaredOptions(command).names);
  return meant === undefined ? undefined : `Did you mean ${typed.startsWith('--') ? '--' : '-'}${meant}?`;
}

/** A boolean option's value as Go's flag package reads it (Terraform's -refresh=false); anything else is an error. */
function parseBoolFlag(name: string, value: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  throw new Error(`-${name}: "${value}" is not a boolean value (true or false).`);
}
