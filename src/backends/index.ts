import { existsSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { backendErrors } from './errors';
import { HttpBackend, httpSettings } from './http';
import { LocalBackend } from './local';
import { logged } from './logged';
import { PgBackend, pgSettings } from './pg';
import { ThroughTerraformBackend, type ProviderMirror } from './through-terraform';
import { backendBlockOf, BackendSettings, readBackendBlock } from './settings';

export { BackendSettings } from './settings';
export { logged } from './logged';
import type { StateBackend } from './types';

export type { StateBackend, HeldLock } from './types';
export { withStateLock, type LockOptions } from './acquire';

/**
 * The backend types tenantform speaks itself. Any other a stack declares is read through
 * terraform (plan, drift, the state reads) and never written; it is never replaced by a local file.
 */
export const SPOKEN_BACKENDS = ['local', 'pg', 'http'] as const;

const spoken = (type: string): boolean => (SPOKEN_BACKENDS as readonly string[]).includes(type);

export interface BackendRequest {
  /** The Terraform JSON configuration whose `terraform.backend` says where the state is. */
  readonly configFile: string;
  /** The folder terraform runs in for the stack, relative backend paths start from: the configuration file's folder unless given. */
  readonly stackDir?: string;
  /** Its `terraform.backend` value when the configuration is already parsed (the file is then not read again). */
  readonly backendValue?: { readonly value: unknown };
  /** Where the state is when the configuration declares no backend. */
  readonly defaultState: string;
  /** `--state FILE`: the local backend's file instead (local backend only). */
  readonly stateOverride?: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** A filesystem mirror holding tenantform's provider, for `terraform init` of a backend read through terraform. */
  readonly providerMirror?: ProviderMirror;
  /** The provider address the stack's `required_providers` names (undefined: tenantform's default address). */
  readonly providerAddress?: string;
}

/** The characters terraform keeps in a workspace name: those a URL path keeps unescaped (Go's url.PathEscape). */
const WORKSPACE_NAME = /^[A-Za-z0-9\-._~$&+,:;=@]+$/;

/**
 * The workspace the commands use: TF_WORKSPACE, as Terraform takes it in automation, else
 * `default`. A name that is no workspace name is refused: it names a folder or key of the state,
 * and `../other-stack` would read and write another stack's state.
 */
export function workspaceOf(env: NodeJS.ProcessEnv): string {
  const name = env.TF_WORKSPACE || 'default';
  if (!WORKSPACE_NAME.test(name) || name === '.' || name === '..') throw backendErrors.invalidWorkspace(name);
  return name;
}

/**
 * The stack's backend, from its `terraform.backend` block and Terraform's environment
 * variables. Nothing is connected until the state is read or locked.
 */
export function openBackend(req: BackendRequest): StateBackend {
  return logged(openUnlogged(req));
}

function openUnlogged(req: BackendRequest): StateBackend {
  const block = req.backendValue ? backendBlockOf(req.backendValue.value) : readBackendBlock(req.configFile);
  const type = block?.type ?? 'local';
  const settings = new BackendSettings(type, block?.settings ?? {}, req.env);
  const workspace = workspaceOf(req.env);
  if (req.stateOverride !== undefined && type !== 'local') {
    throw backendErrors.invalidSetting(type, '--state', 'applies to the local backend only; this stack keeps its state in its backend');
  }
  if (req.stateOverride !== undefined) return new LocalBackend(resolve(req.cwd, req.stateOverride), req.env);
  if (!block && workspace === 'default') return new LocalBackend(req.defaultState, req.env);
  const stackDir = req.stackDir ?? dirname(req.configFile);
  if (!spoken(type)) return new ThroughTerraformBackend({ settings, stackDir, providerMirror: req.providerMirror, providerAddress: req.providerAddress });
  return configuredBackend(settings, workspace, stackDir);
}

/**
 * The workspaces a stack's backend holds, as `terraform workspace list` lists them: `default`
 * always; on `local`, each folder of the workspace directory holding a state; on `pg`, each row of
 * its table. `http` keeps one state: it has no workspaces to list, as terraform says.
 */
export async function listWorkspaces(req: Pick<BackendRequest, 'configFile' | 'env' | 'stackDir' | 'backendValue'>): Promise<string[]> {
  const block = req.backendValue ? backendBlockOf(req.backendValue.value) : readBackendBlock(req.configFile);
  const settings = new BackendSettings(block?.type ?? 'local', block?.settings ?? {}, req.env);
  const stackDir = req.stackDir ?? dirname(req.configFile);
  switch (settings.type) {
    case 'local': {
      const dir = settings.string('workspace_dir') ?? 'terraform.tfstate.d';
      const root = isAbsolute(dir) ? dir : resolve(stackDir, dir);
      const named = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'terraform.tfstate'))) : [];
      return [...new Set(['default', ...named])].sort();
    }
    case 'pg': {
      const backend = new PgBackend(pgSettings(settings, 'default', stackDir));
      try {
        return await backend.workspaces();
      } finally {
        await backend.close();
      }
    }
    case 'http':
      throw backendErrors.noWorkspaces('http');
    default:
      throw backendErrors.unsupported(settings.type, SPOKEN_BACKENDS, 'Listing workspaces', 'Run `terraform workspace list` in the stack folder.');
  }
}

/**
 * A backend from its settings alone, for one workspace: what `terraform_remote_state` reads
 * another stack's state through. `stackDir` is where a relative local path starts.
 */
export function configuredBackend(settings: BackendSettings, workspace: string, stackDir: string): StateBackend {
  switch (settings.type) {
    case 'local': {
      // Terraform runs in the stack's directory: a relative path is relative to it.
      if (workspace === 'default') return new LocalBackend(resolve(stackDir, settings.string('path') ?? 'terraform.tfstate'), settings.env);
      const workspaceDir = settings.string('workspace_dir') ?? 'terraform.tfstate.d';
      return new LocalBackend(join(isAbsolute(workspaceDir) ? workspaceDir : resolve(stackDir, workspaceDir), workspace, 'terraform.tfstate'), settings.env);
    }
    case 'pg':
      return new PgBackend(pgSettings(settings, workspace, stackDir));
    case 'http':
      return new HttpBackend(httpSettings(settings));
    default:
      throw backendErrors.unsupported(settings.type, SPOKEN_BACKENDS, 'Reading this state', 'Terraform speaks every backend: read it with `terraform`.');
  }
}
