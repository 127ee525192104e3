import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { configErrors, folderErrors } from './errors';
import { readInputFile } from '../input-file';
import { holdsTerraformFiles } from './folder';
import type { RemoteStateRead } from './remote-state';
import type { VariableInputs } from './variables';

export interface ConfigLocation {
  /** The Terraform JSON file, or the folder of Terraform files. */
  readonly file: string;
  /** `file`: one Terraform JSON document (a synthesized stack, `--config FILE`); `folder`: every `.tf` and `.tf.json` file of `dir`. */
  readonly source: 'file' | 'folder';
  /** The folder of the configuration: `path.module`, relative paths of its backends, where terraform runs for it. */
  readonly dir: string;
  /** Values for input variables (`--var`, `--var-file`, `TF_VAR_`, a folder's own variable files). */
  readonly inputs?: VariableInputs;
  readonly stack: string;
  /** Where the state lives by default (beside cdktf.json, beside the --config file, or `terraform.tfstate` in the folder). */
  readonly defaultState: string;
  /** A folder's variable files, in the order terraform loads them: `terraform.tfvars`, `terraform.tfvars.json`, then `*.auto.tfvars(.json)` by name. */
  readonly varFiles: readonly string[];
  /** The states of `data.terraform_remote_state` blocks, read before evaluation, by address. */
  readonly remoteStates?: ReadonlyMap<string, RemoteStateRead>;
}

/**
 * Finds the configuration: `--config DIR` (a folder of Terraform files) or `--config FILE` (Terraform
 * JSON); else `<output>/stacks/<stack>/cdk.tf.json` beside cdktf.json; else, in a folder without
 * cdktf.json or cdktf.out, the folder's own `.tf` and `.tf.json` files, as terraform reads them.
 */
export function locateConfiguration(opts: { cwd: string; stack?: string; config?: string }): ConfigLocation {
  if (opts.config) {
    const file = resolve(opts.cwd, opts.config);
    if (!existsSync(file)) throw configErrors.configNotFound(`There is no file ${opts.config}`);
    if (statSync(file).isDirectory()) return folderLocation(file, opts.stack);
    if (file.endsWith('.tf')) throw folderErrors.singleHclFile(opts.config, dirname(opts.config));
    const stack = opts.stack ?? basename(file).replace(/(\.tf)?\.json$/, '');
    return { file, source: 'file', dir: dirname(file), stack, defaultState: join(dirname(file), `terraform.${stack}.tfstate`), varFiles: [] };
  }
  const project = resolve(opts.cwd);
  const cdktfJson = join(project, 'cdktf.json');
  if (!existsSync(cdktfJson) && !existsSync(join(project, 'cdktf.out')) && holdsTerraformFiles(project)) return folderLocation(project, opts.stack);
  if (!existsSync(cdktfJson)) throw configErrors.configNotFound(`There is no cdktf.json, and no .tf file, in ${project}`);
  let output = 'cdktf.out';
  try {
    output = (JSON.parse(readInputFile(cdktfJson)) as { output?: string }).output ?? output;
  } catch (err) {
    throw configErrors.configUnreadable(cdktfJson, (err as Error).message);
  }
  const stacksDir = join(project, output, 'stacks');
  const stacks = existsSync(stacksDir)
    ? readdirSync(stacksDir)
        .filter((s) => existsSync(join(stacksDir, s, 'cdk.tf.json')))
        .sort()
    : [];
  if (stacks.length === 0) throw configErrors.configNotFound(`There is no synthesized stack in ${join(output, 'stacks')}`);
  if (opts.stack && !stacks.includes(opts.stack)) throw configErrors.stackNotFound(opts.stack, stacks);
  if (!opts.stack && stacks.length > 1) throw configErrors.stackAmbiguous(stacks);
  const stack = opts.stack ?? stacks[0];
  return {
    file: join(stacksDir, stack, 'cdk.tf.json'),
    source: 'file',
    dir: join(stacksDir, stack),
    stack,
    defaultState: join(project, `terraform.${stack}.tfstate`),
    varFiles: [],
  };
}

/** A folder of Terraform files: its state in `terraform.tfstate` beside them, as terraform keeps it. */
function folderLocation(dir: string, stack: string | undefined): ConfigLocation {
  if (!holdsTerraformFiles(dir)) throw folderErrors.empty(dir);
  return { file: dir, source: 'folder', dir, stack: stack ?? basename(dir), defaultState: join(dir, 'terraform.tfstate'), varFiles: variableFiles(dir) };
}

function variableFiles(dir: string): string[] {
  const names = readdirSync(dir);
  const auto = names.filter((n) => /\.auto\.tfvars(\.json)?$/.test(n)).sort();
  return [...['terraform.tfvars', 'terraform.tfvars.json'].filter((n) => names.includes(n)), ...auto].map((n) => join(dir, n));
}
