import { PlatformClient } from '../api';
import { hasErrors, type Diagnostic } from '../diagnostics';
import { faultErrors, reconcilerErrors } from '../errors';
import type { ResourceKind } from '../resources/declaration';
import { DEFAULT_RETRY_TIMEOUT_SECONDS, parseRetryTimeout, PROVIDER_ENV, PROVIDER_TYPE, RETRY_TIMEOUT_ENV } from '../resources/provider-config';
import { ALL_KINDS } from '../resources/registry.generated';
import { locateConfiguration, loadConfiguration, type Configuration } from './config';
import { ProviderClients } from './clients';
import { acquireLock, type StateLock } from './lock';
import type { VariableInputs } from './variables';
import { StateStore } from './state';

/** Where a command finds its configuration and state (the flags every command shares). */
export interface WorkspaceOptions {
  readonly cwd: string;
  readonly stack?: string;
  readonly config?: string;
  readonly state?: string;
  readonly env: NodeJS.ProcessEnv;
  /** `--var-file` files and `--var name=value` flags, in the order they apply. */
  readonly variables?: VariableInputs['given'];
}

export interface Workspace {
  readonly configuration: Configuration;
  readonly statePath: string;
  /** Warnings found while loading the configuration. */
  readonly diagnostics: Diagnostic[];
  /** Seconds the retries of one request may take (the command line's choice, when made). */
  readonly retryTimeoutSeconds?: number;
}

/**
 * Finds, reads and checks the configuration. Returns the problems instead when there are
 * any: nothing is sent to the platform for a configuration that does not validate.
 */
export function openWorkspace(opts: WorkspaceOptions): Workspace | { diagnostics: Diagnostic[] } {
  const location = locateConfiguration(opts);
  const { configuration, diagnostics } = loadConfiguration({ ...location, inputs: { given: opts.variables ?? [], env: opts.env, cwd: opts.cwd } });
  if (!configuration || hasErrors(diagnostics)) return { diagnostics };
  return { configuration, diagnostics, statePath: opts.state ?? location.defaultState };
}

/**
 * The platform client of a provider configuration (`tenantform` or `tenantform.<alias>`): each
 * argument from its provider block, else its environment variable; the retry timeout from the
 * command line first.
 */
export function platformClient(configuration: Configuration, env: NodeJS.ProcessEnv, retryTimeoutSeconds?: number, provider: string = PROVIDER_TYPE): PlatformClient {
  const block = configuration.providers.get(provider) ?? configuration.provider;
  const setting = (name: keyof typeof PROVIDER_ENV): string => {
    const v = block[name] ?? env[PROVIDER_ENV[name]];
    if (typeof v !== 'string' || v === '') throw reconcilerErrors.missingCredential(name, PROVIDER_ENV[name]);
    return v;
  };
  const seconds = retryTimeoutSeconds ?? retryTimeoutSetting(block.retry_timeout, env[RETRY_TIMEOUT_ENV]);
  return new PlatformClient({
    baseUrl: setting('base_url'),
    clientId: setting('client_id'),
    clientSecret: setting('client_secret'),
    retry: { maxElapsedMs: seconds * 1000 },
  });
}

function retryTimeoutSetting(configured: unknown, fromEnv: string | undefined): number {
  if (configured !== undefined && configured !== null) {
    const n = parseRetryTimeout(configured);
    if (n === undefined) throw faultErrors.invalidRetryTimeout('provider.tenantform retry_timeout', configured);
    return n;
  }
  if (fromEnv === undefined || fromEnv === '') return DEFAULT_RETRY_TIMEOUT_SECONDS;
  const n = parseRetryTimeout(fromEnv);
  if (n === undefined) throw faultErrors.invalidRetryTimeout(RETRY_TIMEOUT_ENV, fromEnv);
  return n;
}

const RESOURCE_KINDS = new Map(ALL_KINDS.filter((k): k is ResourceKind => k.kind === 'resource').map((k) => [k.type, k]));

export function resourceKind(type: string): ResourceKind | undefined {
  return RESOURCE_KINDS.get(type);
}

/**
 * Runs `work` with the state locked and open, and a client; releases both whatever happens.
 */
export async function withLockedState<T>(
  workspace: Workspace,
  env: NodeJS.ProcessEnv,
  operation: string,
  work: (state: StateStore, client: PlatformClient, clients: ProviderClients) => Promise<T>,
): Promise<T> {
  const connect = (provider: string) => platformClient(workspace.configuration, env, workspace.retryTimeoutSeconds, provider);
  // Credentials are checked before the lock is taken.
  ProviderClients.check(workspace.configuration, connect);
  let clients: ProviderClients | undefined;
  let lock: StateLock | undefined;
  try {
    lock = acquireLock(workspace.statePath, operation, TENANTFORM_VERSION);
    const state = await StateStore.open(workspace.statePath);
    // The state adds the providers of objects no longer declared.
    clients = ProviderClients.open(workspace.configuration, state, connect);
    return await work(state, clients.default, clients);
  } finally {
    lock?.release();
    await clients?.close();
  }
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const TENANTFORM_VERSION: string = (require('../../package.json') as { version: string }).version;
