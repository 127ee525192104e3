import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { backendErrors } from './errors';
import type { BackendSettings } from './settings';
import type { ForceUnlockOutcome, LockAttempt, StateBackend } from './types';

export interface ThroughTerraformOptions {
  readonly settings: BackendSettings;
  /** The synthesized stack's folder, where `terraform init` and `terraform state pull` run. */
  readonly stackDir: string;
  /** A filesystem mirror holding tenantform's provider (installed on the first call), for `terraform init -plugin-dir`. */
  readonly providerMirror?: ProviderMirror;
  /** The provider address the stack's `required_providers` names, where the mirror must hold the provider. */
  readonly providerAddress?: string;
}

/** Makes a filesystem mirror in `stackDir` holding tenantform's provider under `providerAddress` (undefined: the default address); returns its folder. */
export type ProviderMirror = (stackDir: string, providerAddress: string | undefined) => string;

/** The settings that say where a backend keeps the state, for messages: never a credential. */
const WHERE: Readonly<Record<string, readonly string[]>> = {
  s3: ['bucket', 'key'],
  gcs: ['bucket', 'prefix'],
  azurerm: ['storage_account_name', 'container_name', 'key'],
  oss: ['bucket', 'key'],
  cos: ['bucket', 'key'],
  consul: ['path'],
  kubernetes: ['secret_suffix', 'namespace'],
  remote: ['organization'],
  cloud: ['organization'],
};

/**
 * A backend tenantform does not speak itself (s3, azurerm, gcs, remote, ...), read through
 * `terraform` in the stack's folder: `terraform init`, then `terraform state pull`, with the
 * environment's credentials. Terraform's `state pull` takes no lock, so neither does this; it
 * never writes: applies go through `terraform apply` or `cdktn deploy`, which hold the lock.
 */
export class ThroughTerraformBackend implements StateBackend {
  readonly type: string;
  readonly location: string;
  readonly readOnly: { readonly notice: string };
  private initialized = false;

  constructor(private readonly opts: ThroughTerraformOptions) {
    this.type = opts.settings.type;
    const named = (WHERE[this.type] ?? []).flatMap((name) => {
      const value = opts.settings.string(name);
      return value === undefined ? [] : [`${name} ${JSON.stringify(value)}`];
    });
    this.location = `the ${this.type} backend${named.length > 0 ? ` (${named.join(', ')})` : ''} of ${opts.stackDir}`;
    this.readOnly = {
      notice: `Note: the state was read from ${this.location} with \`terraform state pull\`, which takes no lock: a terraform apply running meanwhile may not show here.\n`,
    };
  }

  async read(): Promise<string | undefined> {
    // A folder terraform has initialised keeps the backend as it was set up, with the values given
    // at `terraform init` (-backend-config, TF_CLI_ARGS_init) that the block leaves out: it is read
    // as it is. Only a folder terraform asks to initialise (again) is.
    if (!this.initialized && existsSync(join(this.opts.stackDir, '.terraform', 'terraform.tfstate'))) {
      const text = await this.terraform(['state', 'pull']).catch(() => undefined);
      if (text !== undefined) {
        this.initialized = true;
        return hasState(text) ? text : undefined;
      }
    }
    if (!this.initialized) {
      const mirror = this.opts.providerMirror?.(this.opts.stackDir, this.opts.providerAddress);
      // No -upgrade: the providers the lock file records; -reconfigure: a changed backend block is read, never migrated.
      await this.terraform(['init', '-input=false', '-no-color', '-reconfigure', ...(mirror ? [`-plugin-dir=${mirror}`] : [])]);
      this.initialized = true;
    }
    const text = await this.terraform(['state', 'pull']);
    return hasState(text) ? text : undefined;
  }

  write(): Promise<void> {
    return Promise.reject(backendErrors.writesThroughTerraform(this.type, this.location, 'change'));
  }

  tryLock(): Promise<LockAttempt> {
    return Promise.reject(backendErrors.writesThroughTerraform(this.type, this.location, 'lock'));
  }

  /** terraform says nothing about a lock without taking it. */
  async currentLock(): Promise<undefined> {
    return undefined;
  }

  forceUnlock(): Promise<ForceUnlockOutcome> {
    return Promise.reject(
      backendErrors.forceUnlockUnsupported(
        this.location,
        'tenantform reads this backend through terraform and takes none of its locks; remove a lock left behind with `terraform force-unlock ID` in the stack folder.',
      ),
    );
  }

  async close(): Promise<void> {}

  /** Runs terraform in the stack folder; its stdout, or an error with its own message. */
  private terraform(args: readonly string[]): Promise<string> {
    const command = `terraform ${args.filter((a) => !a.startsWith('-')).join(' ')}`;
    return new Promise((resolve, reject) => {
      const child = spawn('terraform', args, {
        cwd: this.opts.stackDir,
        env: { ...this.opts.settings.env, TF_INPUT: '0', TF_IN_AUTOMATION: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stderr.on('data', (c: Buffer) => err.push(c));
      child.once('error', (e) => reject(backendErrors.terraformMissing(this.type, e.message)));
      child.once('close', (code) => {
        if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
        const message = terraformMessage(Buffer.concat(err).toString('utf8') || Buffer.concat(out).toString('utf8'));
        reject(backendErrors.terraformFailed(this.type, this.location, command, message));
      });
    });
  }
}

/** terraform's message without the frame it draws around each diagnostic. */
function terraformMessage(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^[╷│╵]\s?/, '').trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `terraform state pull` prints an empty state (serial 0, no lineage) when the backend holds none. */
function hasState(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    const doc = JSON.parse(text) as { lineage?: unknown; serial?: unknown };
    return !(doc.lineage === '' && doc.serial === 0);
  } catch {
    // Not JSON: the state reader names what is wrong with it.
    return true;
  }
}
