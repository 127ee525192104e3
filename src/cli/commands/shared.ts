/**
 * What the commands share: the flags for the state lock, for where the stack and its state are,
 * and for plan and apply; opening the workspace; printing diagnostics.
 */
import { join } from 'node:path';
import type { Argv } from 'yargs';
import { parseDuration } from '../../backends/acquire';
import type { StateBackend } from '../../backends';
import { locateConfiguration } from '../../config/config';
import { renderDiagnostic, type Diagnostic } from '../../diagnostics';
import { openWorkspace, stackBackend, type StateLockFlags, type Workspace } from '../../engine/session';
import { cliErrors } from '../errors';
import { installProvider } from '../../provider/install';
import { parseRequestsPerSecond, parseRetryTimeout } from '../../resources/provider-config';
import { redactSecrets } from '../redact';
import { staleStackWarning, synthesizeApp } from '../synth';

/** `--lock` and `--lock-timeout`, as Terraform's `-lock` and `-lock-timeout`. */
export interface LockArgs {
  lock: boolean;
  'lock-timeout': string;
}

export function lockFlags<T>(y: Argv<T>): Argv<T & LockArgs> {
  return y
    .option('lock', {
      type: 'boolean',
      default: true,
      describe: 'Hold the state lock while running (shared with terraform on the same backend); --lock=false skips it, as terraform -lock=false',
    })
    .option('lock-timeout', {
      type: 'string',
      default: '0s',
      describe: 'How long to wait for a lock held by another run (e.g. 30s, 5m) before failing with its holder named',
    })
    .check((a) => {
      if (parseDuration(String(a['lock-timeout'])) === undefined)
        throw new Error(`--lock-timeout: "${String(a['lock-timeout'])}" is not a duration (e.g. 0s, 30s, 5m).`);
      return true;
    });
}

export function stateLockFlags(args: LockArgs): StateLockFlags {
  return { lock: args.lock, lockTimeoutMs: parseDuration(args['lock-timeout']) ?? 0 };
}

/** Where the state is: the flags every `state` subcommand shares. */
export interface StateArgs {
  stack?: string;
  config?: string;
  state?: string;
}

export function stateFlags<T>(y: Argv<T>): Argv<T & StateArgs> {
  return y
    .option('stack', { type: 'string', describe: 'The cdktf stack to use (needed when cdktf.out holds several)' })
    .option('config', {
      type: 'string',
      describe: 'A folder of Terraform files (.tf, .tf.json), or a Terraform JSON file, to use instead of the synthesized stack',
    })
    .option('state', { type: 'string', describe: "State file of the local backend (default: the stack's terraform.backend)" });
}

/** The stack's backend, from its `terraform.backend`. */
export function backendOf(args: StateArgs): Promise<StateBackend> {
  return stackBackend({ cwd: process.cwd(), stack: args.stack, config: args.config, state: args.state, env: process.env, providerMirror });
}

/**
 * tenantform's provider, as `tenantform provider install` puts it, in a mirror inside the stack's
 * own `.terraform` folder: `terraform init` of a backend read through terraform needs the
 * providers the stack requires, and this needs no registry and nothing of the user's set-up.
 */
function providerMirror(stackDir: string, providerAddress: string | undefined): string {
  return installProvider({ dir: join(stackDir, '.terraform', 'tenantform-provider'), ...(providerAddress ? { address: providerAddress } : {}) }).mirror;
}

/** Flags shared by plan and apply: where the configuration and state are, and how much runs at once. */
export interface WorkspaceArgs extends LockArgs, StateArgs, VariableArgs {
  parallelism?: number;
  refresh: boolean;
  target?: string[];
  replace?: string[];
  'refresh-only'?: boolean;
  'retry-timeout'?: number;
  'requests-per-second'?: number;
  /** false: never ask a question (Terraform's -input=false). */
  input: boolean;
  /** false: no colour (Terraform's -no-color). */
  color: boolean;
  /** Run the cdktf app first (as `cdktf diff` does). */
  synth?: boolean;
  'compact-warnings': boolean;
}

/** `--var` and `--var-file`, for every command that evaluates the configuration (Terraform's `-var`, `-var-file`). */
export interface VariableArgs {
  var?: string[];
  'var-file'?: string[];
}

export function variableFlags<T>(y: Argv<T>): Argv<T & VariableArgs> {
  return y
    .option('var', { type: 'string', array: true, describe: 'A value for an input variable: --var name=value (repeatable; also TF_VAR_name)' })
    .option('var-file', { type: 'string', array: true, describe: 'Input variable values from a .tfvars or .tfvars.json file (repeatable)' });
}

/** The variables given on the command line: files first, then flags, so that a --var overrides a --var-file. */
export function inputVariables(args: VariableArgs): Array<{ kind: 'file' | 'var'; text: string }> {
  return [...(args['var-file'] ?? []).map((text) => ({ kind: 'file' as const, text })), ...(args.var ?? []).map((text) => ({ kind: 'var' as const, text }))];
}

export const SYNTH_OPTION = { type: 'boolean', default: false, describe: "Run the cdktf app (cdktf.json's `app`) first, as `cdktf diff` does" } as const;

export function workspaceFlags<T>(y: Argv<T>): Argv<T & WorkspaceArgs> {
  return variableFlags(stateFlags(lockFlags(y)))
    .option('parallelism', {
      type: 'number',
      describe:
        'How many objects are read or changed at once, at most (default: 10 at first, more while the platform keeps up, fewer when it refuses or slows)',
    })
    .option('refresh', { type: 'boolean', default: true, describe: 'Read the platform first; --refresh=false trusts the state' })
    .option('target', { type: 'string', array: true, describe: 'Only this address and what it depends on (repeatable)' })
    .option('replace', { type: 'string', array: true, describe: 'Replace this object although nothing forces it, as terraform -replace (repeatable)' })
    .option('input', { type: 'boolean', default: true, describe: 'Ask for approval on a terminal; --input=false never asks' })
    .option('color', { type: 'boolean', default: true, describe: 'Colour on a terminal (or with FORCE_COLOR); --no-color for none' })
    .option('synth', SYNTH_OPTION)
    .option('compact-warnings', { type: 'boolean', default: false, describe: "Warnings as one line each, their summaries (errors stay whole), as terraform's" })
    .option('json', {
      type: 'boolean',
      hidden: true,
      describe: "Refused with the way to a plan as JSON: tenantform has no terraform's streaming -json output",
    })
    .option('refresh-only', {
      type: 'boolean',
      default: false,
      describe: 'Only accept what changed on the platform into the state (see `tenantform drift`); nothing on the platform changes',
    })
    .option('retry-timeout', {
      type: 'number',
      describe: 'Seconds the retries of one request may take in all (default: provider retry_timeout, TENANTFORM_RETRY_TIMEOUT, or 30)',
    })
    .option('requests-per-second', {
      type: 'number',
      describe:
        'The most requests a second sent to a data center (default: provider requests_per_second, TENANTFORM_REQUESTS_PER_SECOND, or learned from its rate limit)',
    })
    .check((a) => {
      if (a['retry-timeout'] !== undefined && parseRetryTimeout(a['retry-timeout']) === undefined) {
        throw new Error('--retry-timeout must be a number of seconds from 0 to 86400.');
      }
      if (a['requests-per-second'] !== undefined && parseRequestsPerSecond(a['requests-per-second']) === undefined) {
        throw new Error('--requests-per-second must be a number of requests greater than 0.');
      }
      if (a.parallelism !== undefined && (!Number.isInteger(a.parallelism) || a.parallelism < 1))
        throw new Error('--parallelism must be a whole number of at least 1.');
      if (a['refresh-only'] && !a.refresh) throw new Error('--refresh-only reads the platform: it cannot be combined with --refresh=false.');
      if (a.json !== undefined)
        throw new Error(
          "-json (terraform's streaming messages) is not implemented. For the plan as JSON use -format=json (the document of " +
            '`terraform show -json`), or save it with -out=PLANFILE and run `tenantform show -json PLANFILE`.',
        );
      return true;
    });
}

/** Diagnostics to stderr, secrets masked. */
export function printDiagnostics(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) process.stderr.write(`${redactSecrets(renderDiagnostic(d))}\n\n`);
}

/** Opens the workspace; prints the problems and returns undefined when the configuration is invalid. */
export async function workspaceOrProblems(
  args: Pick<WorkspaceArgs, 'stack' | 'config' | 'state' | 'retry-timeout' | 'requests-per-second' | 'var' | 'var-file'>,
): Promise<Workspace | undefined> {
  const variables = inputVariables(args);
  const ws = await openWorkspace({
    cwd: process.cwd(),
    stack: args.stack,
    config: args.config,
    state: args.state,
    env: process.env,
    variables,
    providerMirror,
  });
  if (!('configuration' in ws)) {
    printDiagnostics(ws.diagnostics);
    process.stderr.write('The configuration is invalid: nothing was sent to the platform.\n');
    process.exitCode = 1;
    return undefined;
  }
  printDiagnostics(ws.diagnostics);
  return { ...ws, commandLine: { retryTimeoutSeconds: args['retry-timeout'], requestsPerSecond: args['requests-per-second'] } };
}

/**
 * Opens the workspace after synthesizing the app (--synth), or with a warning when the app's
 * sources are newer than the synthesized stack.
 */
export async function openSynthesizedWorkspace(
  args: Pick<WorkspaceArgs, 'stack' | 'config' | 'state' | 'synth' | 'var' | 'var-file'>,
): Promise<Workspace | undefined> {
  if (args.synth) {
    if (args.config) throw cliErrors.synthImpossible(process.cwd());
    await synthesizeApp(process.cwd());
  }
  const ws = await workspaceOrProblems(args);
  if (ws && !args.synth && !args.config) {
    const warning = staleStackWarning(process.cwd(), locateConfiguration({ cwd: process.cwd(), stack: args.stack }).file);
    if (warning) process.stderr.write(warning);
  }
  return ws;
}
