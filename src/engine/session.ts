import { logExchange, logRoute } from '../logging';
import { baseUrlProblem, PlatformClient } from '../api';
import { HttpBackend } from '../backends/http';
import { hasErrors, withFile, type AttributePath, type Diagnostic, type SourcePosition } from '../diagnostics';
import { TenantformError } from '../errors';
import { backendErrors } from '../backends/errors';
import { engineErrors } from './errors';
import { faultErrors } from '../resources/errors';
import {
  DEFAULT_RETRY_TIMEOUT_SECONDS,
  parseRequestsPerSecond,
  parseRetryTimeout,
  PROVIDER_ENV,
  PROVIDER_TYPE,
  REQUESTS_PER_SECOND_ENV,
  RETRY_TIMEOUT_ENV,
} from '../resources/provider-config';
import { locateConfiguration, loadConfiguration, remoteStatesToRead, type Configuration } from '../config/config';
import { readRemoteStateTexts } from './remote-states';
import { folderBackend, readConfigDocument, readConfiguration } from '../config/document';
import { declaredProviderAddress } from '../config/provider-source';
import { decodeDocument } from '../config/model';
import { ProviderClients } from './clients';
import type { VariableInputs } from '../config/variables';
import { openBackend, withStateLock, type StateBackend } from '../backends';
import type { ProviderMirror } from '../backends/through-terraform';
import { checkPlatform } from './preflight';
import { serializeState, StateStore } from '../state/state';
import { writeAtomically } from '../state/state-file';
import { resolve } from 'node:path';
import { carryOutMoves } from './moves';
import { TENANTFORM_VERSION } from '../package-root';
import { requestNotice } from './request-notices';

/** Where a command finds its configuration and state (the flags every command shares). */
export interface WorkspaceOptions {
  readonly cwd: string;
  readonly stack?: string;
  readonly config?: string;
  readonly state?: string;
  readonly env: NodeJS.ProcessEnv;
  /** `--var-file` files and `--var name=value` flags, in the order they apply. */
  readonly variables?: VariableInputs['given'];
  /** A filesystem mirror holding tenantform's provider, for a backend read through terraform (see `BackendRequest`). */
  readonly providerMirror?: ProviderMirror;
}

/** Platform client settings given on the command line, which win over provider blocks and environment variables. */
export interface CommandLineSettings {
  /** `--retry-timeout`: seconds the retries of one request may take. */
  readonly retryTimeoutSeconds?: number;
  /** `--requests-per-second`: the most requests a second to send to a data center. */
  readonly requestsPerSecond?: number;
}

export interface Workspace {
  readonly configuration: Configuration;
  /** Where the state lives: the stack's `terraform.backend` (nothing connected yet). */
  readonly backend: StateBackend;
  /** Warnings found while loading the configuration. */
  readonly diagnostics: Diagnostic[];
  /** What the command line sets for every platform client, over the provider blocks and the environment. */
  readonly commandLine?: CommandLineSettings;
  /** For a folder of Terraform files: where each block (and argument) is written, for the diagnostics of what is planned from it. */
  readonly positionOf?: (address: string, path?: AttributePath) => SourcePosition | undefined;
  /** The command's working directory: where a state its backend did not take is kept. */
  readonly workingDir?: string;
}

/**
 * Finds, reads and checks the configuration. Returns the problems instead when there are
 * any: nothing is sent to the platform for a configuration that does not validate.
 */
export async function openWorkspace(opts: WorkspaceOptions): Promise<Workspace | { diagnostics: Diagnostic[] }> {
  const located = locateConfiguration(opts);
  const location = { ...located, inputs: { files: located.varFiles, given: opts.variables ?? [], env: opts.env, cwd: opts.cwd } };
  const { document, positionOf, problems = [], modules } = await readConfiguration(location);
  // Every problem of every file at once, before any is evaluated: a half-read folder would add problems that are not there.
  if (hasErrors(problems)) return { diagnostics: [...problems] };
  // Other stacks' states are read first: evaluating the configuration is synchronous.
  const remoteStates = await readRemoteStateTexts(remoteStatesToRead(location, document), location.dir, opts.env);
  const loaded = loadConfiguration({ ...location, remoteStates, modules }, document);
  const configuration = loaded.configuration;
  const diagnostics = positionOf ? loaded.diagnostics.map((d) => withFile(d, positionOf)) : loaded.diagnostics;
  if (!configuration || hasErrors(diagnostics)) return { diagnostics };
  const backend = openBackend({
    configFile: location.file,
    stackDir: location.dir,
    backendValue: { value: configuration.backend },
    defaultState: location.defaultState,
    stateOverride: opts.state,
    cwd: opts.cwd,
    env: opts.env,
    providerMirror: opts.providerMirror,
    providerAddress: configuration.providerAddress,
  });
  // Terraform says nothing here; the backend's password then travels over a connection whose other end is not checked.
  if (backend instanceof HttpBackend && backend.skipsCertVerification) {
    diagnostics.push({
      severity: 'warning',
      summary: "The state backend's certificate is not verified",
      detail: `skip_cert_verification is set for the http backend at ${backend.location}: its credentials and the state (with the secrets it holds) go to whoever answers at that address. Remove it once the server has a certificate this machine trusts.`,
    });
  }
  return { configuration, diagnostics, backend, positionOf, workingDir: opts.cwd };
}

/**
 * The platform client of a provider configuration (`tenantform` or `tenantform.<alias>`): each
 * argument from its provider block, else its environment variable; the retry timeout and the request rate from the
 * command line first.
 */
export function platformClient(
  configuration: Configuration,
  env: NodeJS.ProcessEnv,
  commandLine: CommandLineSettings = {},
  provider: string = PROVIDER_TYPE,
): PlatformClient {
  return clientOfProviderBlock(configuration.providers.get(provider) ?? configuration.provider, env, commandLine, provider);
}

/**
 * The platform client of one provider block's arguments (`{}` for the environment alone): each
 * argument from the block, else its environment variable.
 */
export function clientOfProviderBlock(
  block: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv,
  commandLine: CommandLineSettings = {},
  provider: string = PROVIDER_TYPE,
): PlatformClient {
  const valueOf = (name: keyof typeof PROVIDER_ENV): unknown => block[name] ?? env[PROVIDER_ENV[name]];
  // Every missing setting named at once, so that one run tells the user all they have to set.
  const missing = (Object.keys(PROVIDER_ENV) as Array<keyof typeof PROVIDER_ENV>).filter((name) => {
    const v = valueOf(name);
    return typeof v !== 'string' || v === '';
  });
  if (missing.length > 0) throw engineErrors.missingCredentials(missing.map((argument) => ({ argument, variable: PROVIDER_ENV[argument] })));
  const setting = (name: keyof typeof PROVIDER_ENV): string => valueOf(name) as string;
  const seconds =
    commandLine.retryTimeoutSeconds ??
    numberSetting(
      block.retry_timeout,
      env[RETRY_TIMEOUT_ENV],
      { parse: parseRetryTimeout, invalid: faultErrors.invalidRetryTimeout, argument: 'retry_timeout', variable: RETRY_TIMEOUT_ENV },
      DEFAULT_RETRY_TIMEOUT_SECONDS,
    );
  const baseUrl = setting('base_url');
  const problem = baseUrlProblem(baseUrl);
  if (problem !== undefined) {
    const where = block.base_url !== undefined ? `base_url in the provider "${provider}" block` : PROVIDER_ENV.base_url;
    throw engineErrors.invalidBaseUrl(where, problem);
  }
  return new PlatformClient({
    baseUrl,
    clientId: setting('client_id'),
    clientSecret: setting('client_secret'),
    retry: { maxElapsedMs: seconds * 1000 },
    requestsPerSecond:
      commandLine.requestsPerSecond ??
      numberSetting(
        block.requests_per_second,
        env[REQUESTS_PER_SECOND_ENV],
        { parse: parseRequestsPerSecond, invalid: faultErrors.invalidRequestsPerSecond, argument: 'requests_per_second', variable: REQUESTS_PER_SECOND_ENV },
        undefined,
      ),
    onEvent: (e) => {
      logExchange(e);
      requestNotice(e, process.stderr);
    },
    onRoute: logRoute,
  });
}

/**
 * A number argument of the provider block, else of its environment variable, else `fallback`;
 * `invalid` names the place of a value `parse` refuses.
 */
function numberSetting<F>(
  configured: unknown,
  fromEnv: string | undefined,
  {
    parse,
    invalid,
    argument,
    variable,
  }: { parse: (v: unknown) => number | undefined; invalid: (where: string, found: unknown) => Error; argument: string; variable: string },
  fallback: F,
): number | F {
  if (configured !== undefined && configured !== null) {
    const n = parse(configured);
    if (n === undefined) throw invalid(`provider.tenantform ${argument}`, configured);
    return n;
  }
  if (fromEnv === undefined || fromEnv === '') return fallback;
  const n = parse(fromEnv);
  if (n === undefined) throw invalid(variable, fromEnv);
  return n;
}

/** `--lock` and `--lock-timeout`, as Terraform's `-lock` and `-lock-timeout`. */
export interface StateLockFlags {
  readonly lock?: boolean;
  readonly lockTimeoutMs?: number;
  /**
   * Whether the platform is asked for a token before the work (default true). A plan that reads
   * nothing (`-refresh=false`) asks only when a request needs one, as terraform does: a state and
   * a configuration alone plan offline.
   */
  readonly checkPlatformFirst?: boolean;
  /** Where `errored.tfstate` is written when the backend does not take the state (default: the process's directory). */
  readonly workingDir?: string;
}

/**
 * Runs `work` with the state locked (unless `--lock=false`) and open, and a client;
 * releases the lock, the client and the backend's connections whatever happens.
 */
export async function withLockedState<T>(
  workspace: Workspace,
  env: NodeJS.ProcessEnv,
  operation: string,
  work: (state: StateStore, client: PlatformClient, clients: ProviderClients) => Promise<T>,
  flags: StateLockFlags = {},
): Promise<T> {
  refuseWriteThroughTerraform(workspace.backend, operation);
  const connect = (provider: string) => platformClient(workspace.configuration, env, workspace.commandLine, provider);
  // Credentials are checked before the lock is taken.
  ProviderClients.check(workspace.configuration, connect);
  let clients: ProviderClients | undefined;
  try {
    return await withLockedBackend(
      workspace.backend,
      operation,
      async (state) => {
        // Objects are recorded with the provider address the configuration names, as terraform records them.
        state.providerSource = workspace.configuration.providerAddress;
        carryOutMoves(workspace.configuration.moves, state);
        // The state adds the providers of objects no longer declared.
        const open = ProviderClients.open(workspace.configuration, state, connect);
        clients = open;
        if (flags.checkPlatformFirst !== false) await Promise.all(open.names().map((name) => checkPlatform(open.named(name))));
        return work(state, open.default, open);
      },
      { ...flags, workingDir: flags.workingDir ?? workspace.workingDir },
    );
  } finally {
    await clients?.close();
  }
}

/** The state of a backend, locked (unless `--lock=false`) and open; the backend is closed after. */
export async function withLockedBackend<T>(
  backend: StateBackend,
  operation: string,
  work: (state: StateStore) => Promise<T>,
  flags: StateLockFlags = {},
): Promise<T> {
  refuseWriteThroughTerraform(backend, operation);
  // A plan of a backend read through terraform takes no lock, as terraform's `state pull` takes none.
  const lock = backend.readOnly ? false : (flags.lock ?? true);
  let state: StateStore | undefined;
  try {
    return await withStateLock(backend, { lock, timeoutMs: flags.lockTimeoutMs ?? 0, operation, version: TENANTFORM_VERSION }, async () => {
      state = await StateStore.load(backend);
      return work(state);
    });
  } catch (err) {
    throw await keepUnwrittenState(state, backend, err, flags.workingDir);
  } finally {
    await backend.close();
  }
}

/** The operation whose lock a plan takes: the only one a backend read through terraform allows. */
export const PLAN_OPERATION = 'OperationTypePlan';

/**
 * Applies, imports and state edits change the state under its lock: on a backend tenantform reads
 * through terraform, they are terraform's (or cdktn deploy's) to do. Refused before anything is read.
 */
function refuseWriteThroughTerraform(backend: StateBackend, operation: string): void {
  if (backend.readOnly && operation !== PLAN_OPERATION) throw backendErrors.writesThroughTerraform(backend.type, backend.location, verbOf(operation));
}

function verbOf(operation: string): string {
  if (operation === 'OperationTypeApply') return 'apply';
  if (operation === 'OperationTypeImport') return 'import into';
  return 'edit the state of';
}

/** Where a state that its backend did not take is kept, as Terraform keeps it: in the current directory. */
export const ERRORED_STATE_FILE = 'errored.tfstate';

/**
 * A run whose last state write failed (the backend stopped answering, say) keeps the state in
 * `errored.tfstate`, as Terraform does: it records objects this run created, which exist nowhere
 * else, and `state push` puts it in place.
 */
async function keepUnwrittenState(state: StateStore | undefined, backend: StateBackend, err: unknown, workingDir = process.cwd()): Promise<unknown> {
  const unwritten = state?.unwritten();
  if (unwritten === undefined) return err;
  try {
    await writeAtomically(resolve(workingDir, ERRORED_STATE_FILE), serializeState(unwritten), { backup: false });
  } catch {
    // Nowhere to keep it either (a full disk): the backend's error is what the user must see.
    return err;
  }
  const cause = err instanceof TenantformError ? `${err.summary}: ${err.detail}` : (err as Error).message;
  return backendErrors.stateKeptLocally(backend.location, cause, ERRORED_STATE_FILE);
}

/** The backend of a stack, from its configuration's `terraform.backend`, without checking the rest of the configuration. */
export async function stackBackend(opts: WorkspaceOptions): Promise<StateBackend> {
  const location = locateConfiguration(opts);
  // A folder's backend is in one of its .tf files: the folder is read to find it.
  const backendValue = await folderBackend(location);
  return openBackend({
    providerAddress: opts.providerMirror ? declaredProviderAddressOf(location, backendValue) : undefined,
    configFile: location.file,
    stackDir: location.dir,
    backendValue,
    defaultState: location.defaultState,
    stateOverride: opts.state,
    cwd: opts.cwd,
    env: opts.env,
    providerMirror: opts.providerMirror,
  });
}

/**
 * The provider address the stack names, for a backend read through terraform (whose `terraform
 * init` must find the provider there). A file that cannot be read names none: the backend's own
 * reading of it reports what is wrong.
 */
function declaredProviderAddressOf(
  location: ReturnType<typeof locateConfiguration>,
  folder: { readonly document: Record<string, unknown> } | undefined,
): string | undefined {
  try {
    return declaredProviderAddress(decodeDocument(folder?.document ?? readConfigDocument(location.file)).terraform.requiredProviders, () => {});
  } catch {
    return undefined;
  }
}

/** Runs `work` with the state read without a lock (reports that change nothing); closes the backend after. */
export async function withUnlockedState<T>(workspace: Pick<Workspace, 'backend'>, work: (state: StateStore) => Promise<T>): Promise<T> {
  try {
    return await work(await StateStore.load(workspace.backend));
  } finally {
    await workspace.backend.close();
  }
}
