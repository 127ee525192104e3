import yargs from 'yargs';
import { TENANTFORM_VERSION } from '../package-root';
import { COMMANDS } from './commands';
import { TERRAFORM_SPELLINGS_NOTE } from './commands/help-note';
import { redactSecrets } from './redact';
import { hasOwn } from '../plain-json';
import { optionSuggestion, withDoubleDashes } from './terraform-spellings';
import { configureCliLogging, log } from '../logging';
import { projectKind, type ProjectKind } from './project-kind';
import { keepLimitsIn, limitMemoryFile } from '../api/limit-memory';
import { forgetBudgets } from '../api/rate-governor';

/**
 * The `tenantform` command. Each command sets process.exitCode itself, following
 * Terraform's convention: 0 success (or no changes), 1 error, 2 changes or drift.
 */
export async function main(argv: string[]): Promise<void> {
  configureCliLogging(process.env);
  forgetBudgets();
  let writeLimits: () => void;
  let args: string[];
  /** The arguments as typed (after -chdir), for suggestions in the dashes the user used. */
  let typed: string[] = [];
  try {
    args = changeDirectory(argv);
    // A run starts below the rate limits the runs before it met in this working directory.
    writeLimits = keepLimitsIn(limitMemoryFile(process.cwd()), {
      onRecall: (dataCenter, perSecond) =>
        log('info', 'starting below the rate limit an earlier run met here', { data_center: dataCenter, per_second: perSecond }),
    });
    // The command comes first, as in Terraform; a word later is an option's value (a stack named `test`).
    const command = args[0];
    if (command !== undefined && hasOwn(TERRAFORM_ONLY, command)) {
      process.stderr.write(`Error: ${terraformOnly(command)}\nRun \`tenantform --help\` for tenantform's commands.\n`);
      process.exitCode = 1;
      return;
    }
    typed = args;
    args = withDoubleDashes(versionFlagAsCommand(args), COMMANDS);
    // The command's name only: its arguments may carry values (`-var`) that are secrets.
    log('info', 'tenantform started', { version: TENANTFORM_VERSION, command: command ?? '', node: process.version });
  } catch (err) {
    process.stderr.write(`Error: ${redactSecrets((err as Error).message)}\nRun \`tenantform --help\` for usage.\n`);
    process.exitCode = 1;
    return;
  }
  const cli = yargs(args)
    .scriptName('tenantform')
    .usage(
      'tenantform: configuration as code for a multi-tenant cyber-protection platform.\n\n' +
        'Typical flow: `cdktf synth`, then `tenantform plan`, then `tenantform apply`.\n' +
        'Credentials come from TENANTFORM_BASE_URL, TENANTFORM_CLIENT_ID and TENANTFORM_CLIENT_SECRET\n' +
        '(or the provider block of the configuration).\n' +
        '-v, -version (or --version): the same as `tenantform version`.',
    )
    .epilogue(TERRAFORM_SPELLINGS_NOTE)
    .strict()
    .demandCommand(1, 'Name a command; `tenantform --help` lists them.')
    .recommendCommands()
    .help()
    .alias('h', 'help')
    // `-v`, `-version` and `--version` are the `version` command (versionFlagAsCommand), as in terraform.
    .version(false)
    // The help is printed and the command ends as every command does, with its exit code.
    .exitProcess(false)
    .wrap(Math.min(110, process.stdout.columns || 100))
    // Only the spellings the help lists: yargs would also take `--autoApprove` for `--auto-approve`.
    .parserConfiguration({ 'camel-case-expansion': false })
    .fail((message, err) => {
      if (err) throw err;
      const unknown = /^Unknown arguments?: (.*)$/s.exec(message)?.[1].split(', ') ?? [];
      const suggestions = unknown.flatMap((name) => optionSuggestion(typed, COMMANDS, name) ?? []);
      process.stderr.write(`Error: ${message}\n${suggestions.map((s) => `${s}\n`).join('')}Run \`tenantform --help\` for usage.\n`);
      process.exitCode = 1;
      throw REPORTED;
    });
  for (const command of COMMANDS) cli.command(command);
  try {
    await cli.parseAsync();
  } catch (err) {
    if (err === REPORTED) return;
    const text = err instanceof Error ? err.message : String(err);
    process.stderr.write(`Error: ${redactSecrets(text)}\n`);
    process.exitCode = 1;
  } finally {
    writeLimits();
  }
}

/** Thrown by the usage check once it has said what is wrong: nothing more to say. */
const REPORTED = new Error('the command line was refused');

/**
 * Terraform's `-chdir=DIR` before the command: the command runs in DIR, as if started there.
 * Returns the arguments without it.
 */
function changeDirectory(argv: readonly string[]): string[] {
  const match = /^--?chdir(?:=(.*))?$/s.exec(argv[0] ?? '');
  if (!match) return [...argv];
  const dir = match[1] ?? argv[1];
  if (dir === undefined || dir === '') throw new Error('-chdir needs a folder: -chdir=DIR, before the command');
  try {
    process.chdir(dir);
  } catch (err) {
    throw new Error(`-chdir=${dir}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (err as Error).message}`, { cause: err });
  }
  return argv.slice(match[1] === undefined ? 2 : 1);
}

const VERSION_FLAGS = new Set(['-v', '-version', '--version']);

/**
 * Terraform answers a version flag anywhere (before `--`) with its `version` command, keeping
 * that command's own `-json`: `tenantform -v` prints what `tenantform version` prints.
 */
function versionFlagAsCommand(args: readonly string[]): string[] {
  const end = args.indexOf('--');
  const options = end === -1 ? args : args.slice(0, end);
  if (!options.some((a) => VERSION_FLAGS.has(a))) return [...args];
  return ['version', ...options.filter((a) => /^--?json(=.*)?$/.test(a))];
}

/**
 * Terraform's commands that tenantform does not have, with where their work is done instead: in
 * a folder of Terraform files, or in a cdktf / CDK Terrain app (`synth`, its CLI's command).
 */
const TERRAFORM_ONLY: Readonly<Record<string, (project: ProjectKind) => string>> = {
  init: (p) =>
    p.kind === 'terraform-files'
      ? "tenantform needs no init: it reads this folder's .tf files and the backend they declare."
      : 'tenantform needs no init: it reads the synthesized stack and the backend the stack declares.',
  fmt: (p) =>
    p.kind === 'terraform-files'
      ? "tenantform reads this folder's .tf files as they are written."
      : `tenantform reads what \`${p.library} synth\` writes: format the app with your own formatter.`,
  refresh: () => '`tenantform apply --refresh-only` accepts what changed on the platform into the state.',
  taint: () => '`-replace=ADDRESS` on plan and apply replaces an object.',
  untaint: () => 'an object marked tainted by terraform is replaced by the next apply.',
  console: () => '',
  graph: () => '',
  providers: () => '',
  get: () => '',
  test: () => '',
  login: () => '',
  logout: () => '',
  metadata: () => '',
  modules: () => '',
};

function terraformOnly(command: string): string {
  const project = projectKind(process.cwd());
  const instead = TERRAFORM_ONLY[command](project);
  const where = project.kind === 'terraform-files' ? 'in this folder' : "in the stack's folder (cdktf.out/stacks/<stack>)";
  return (
    `\`${command}\` is a Terraform command that tenantform does not have. ${instead ? `${instead} Or run` : 'Run'} ` +
    `\`terraform ${command}\` ${where} with tenantform's provider.`
  );
}
