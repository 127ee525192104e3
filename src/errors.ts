import { formatPath, renderDiagnostic, type AttributePath, type Diagnostic } from './diagnostics';

/**
 * tenantform's own failures. Each factory returns an error whose message says what
 * happened and what to run next; `retryable` says whether running again can help.
 */
export class TenantformError extends Error {
  constructor(
    readonly code: string,
    readonly summary: string,
    readonly detail: string,
    readonly retryable: boolean,
    readonly address?: string,
    readonly path?: AttributePath,
  ) {
    super(`${summary}: ${detail}`);
    this.name = 'TenantformError';
  }

  toDiagnostic(): Diagnostic {
    return {
      severity: 'error',
      summary: this.summary,
      detail: this.detail,
      address: this.address,
      path: this.path,
      code: this.code,
      retryable: this.retryable,
    };
  }
}

export const errors = {
  versionConflict(address: string, expected: unknown, live: unknown) {
    return new TenantformError(
      'version_conflict',
      'The object was changed by someone else',
      `${address} is at version ${String(live)} on the platform, but this change was planned against version ${String(expected)}. ` +
        'Nothing was overwritten. Run `tenantform plan` (or `terraform plan -refresh=true`) to see the other change, then apply again.',
      false,
      address,
    );
  },
  changedSincePlan(address: string, attributes: readonly string[]) {
    return new TenantformError(
      'version_conflict',
      'The object was changed by someone else',
      `${address} changed on the platform after the plan was made (${attributes.join(', ')}), and it has no version to send with the change. ` +
        'Nothing was overwritten. Run `tenantform plan` (or `terraform plan -refresh=true`) to see the other change, then apply again.',
      false,
      address,
    );
  },
  deleteRefused(what: string, reason: string) {
    return new TenantformError(
      'delete_refused',
      'The platform refused the delete',
      `${what} is at the version the plan saw, but the platform refused to delete it: ${reason}. ` +
        'Nothing was deleted. For an infrastructure component that customers still use, set `force_delete = true` and apply, then destroy it.',
      false,
      undefined,
      ['force_delete'],
    );
  },
  goneDuringApply(address: string) {
    return new TenantformError(
      'object_gone',
      'The object no longer exists',
      `${address} was deleted outside tenantform after the plan was made. Run \`tenantform plan\` again to recreate it.`,
      false,
      address,
    );
  },
  notFoundForImport(type: string, id: string) {
    return new TenantformError(
      'import_not_found',
      'Cannot import a non-existent object',
      `No ${type} with id "${id}" exists on the platform. Check the id (see the import format in docs/resources/${type.replace(/^tenantform_/, '')}.md).`,
      false,
    );
  },
  invalidImportId(type: string, id: string, format: string) {
    return new TenantformError('invalid_import_id', 'Invalid import id', `"${id}" is not an import id of ${type}; expected ${format}.`, false);
  },
  dataSourceNotFound(type: string, what: string) {
    return new TenantformError(
      'data_source_not_found',
      'No matching object',
      `${type} found no object with ${what}. Check the filter, or list what exists with \`tenantform export\`.`,
      false,
    );
  },
  dataSourceAmbiguous(type: string, what: string, count: number) {
    return new TenantformError(
      'data_source_ambiguous',
      'More than one matching object',
      `${type} found ${count} objects with ${what}; narrow the filter (for tenants, add parent_id).`,
      false,
    );
  },
  /** A rule of the platform that only the live objects show, found at apply before anything is written. */
  ruleRefused(address: string | undefined, refused: Diagnostic) {
    return new TenantformError(refused.code ?? 'rule_refused', refused.summary, `${refused.detail} Nothing was changed.`, false, address, refused.path);
  },
  platformRefused(address: string, what: string) {
    return new TenantformError('platform_refused', 'The platform refused the change', `${address}: ${what}`, false, address);
  },
};

/** Failures of the reconciler (configuration, state, locking, plans) and of its commands. */
export const reconcilerErrors = {
  /** An import of an object the state already manages at another address; `remedy` says what to remove. */
  importedElsewhere(address: string, other: string, identity: string, remedy: string) {
    return new TenantformError(
      'import_already_managed',
      'Object already managed',
      `${identity} is already managed by tenantform as ${other}; nothing was imported. One object is managed at one address only: ${remedy}.`,
      false,
      address,
    );
  },
  invalidReplaceAddress(address: string) {
    return new TenantformError(
      'invalid_replace_address',
      'Invalid -replace address',
      `"${address}" is not a resource address (such as \`tenantform_tenant.acme\` or \`tenantform_tenant.all["acme"]\`).`,
      false,
    );
  },
  /** Terraform plans no replacement for an address that holds no object, and says so. */
  nothingToReplace(address: string): Diagnostic {
    return {
      severity: 'warning',
      summary: 'No object to replace',
      detail: `-replace names ${address}, which the configuration does not declare or the state does not record: nothing is replaced for it.`,
      address,
    };
  },
  configNotFound(looked: string) {
    return new TenantformError(
      'config_not_found',
      'No configuration found',
      `${looked}. Run \`cdktf synth\` first, or name a folder of Terraform files with --config DIR (or -chdir=DIR), or a Terraform JSON file with --config FILE.`,
      false,
    );
  },
  stackAmbiguous(stacks: readonly string[]) {
    return new TenantformError(
      'stack_ambiguous',
      'More than one stack',
      `cdktf.out/stacks holds ${stacks.join(', ')}. Choose one with --stack ${stacks[0]}.`,
      false,
    );
  },
  stackNotFound(stack: string, stacks: readonly string[]) {
    return new TenantformError(
      'stack_not_found',
      'No such stack',
      `There is no stack "${stack}" in cdktf.out/stacks (found: ${stacks.join(', ') || 'none'}). Run \`cdktf synth\`, or check --stack.`,
      false,
    );
  },
  configUnreadable(file: string, reason: string) {
    return new TenantformError('config_unreadable', 'Cannot read the configuration', `${file}: ${reason}. Re-run \`cdktf synth\`, or fix the file.`, false);
  },
  /** A provider argument that cannot be known before anything is read. `sensitive`: the expression is never quoted (it may be, or hold, a secret). */
  unsupportedExpression(address: string, path: AttributePath, expression: string, sensitive = false) {
    return new TenantformError(
      'unsupported_expression',
      'Unsupported expression',
      `${sensitive ? 'The value of this sensitive argument' : `"${expression}"`} cannot be known before anything is read: provider arguments may use ` +
        'variables, locals and functions, not attributes of resources or data sources. Deploy this configuration with `cdktf deploy` (Terraform) if it needs them.',
      false,
      address,
      path,
    );
  },
  undeclaredProvider(address: string, provider: string, declared: readonly string[]) {
    return new TenantformError(
      'undeclared_provider',
      'Reference to an undeclared provider',
      `There is no provider block for "${provider}" (declared: ${declared.join(', ')}). Add a TenantformProvider with alias "${provider.split('.')[1] ?? ''}".`,
      false,
      address,
      ['provider'],
    );
  },
  duplicateProvider(name: string) {
    return new TenantformError(
      'duplicate_provider',
      'Duplicate provider configuration',
      `Two provider blocks are named "${name}"; give each data center its own alias.`,
      false,
      `provider.${name}`,
      ['alias'],
    );
  },
  nestedTooDeeply(address: string, path: AttributePath, limit: number) {
    return new TenantformError(
      'nested_too_deeply',
      'Value nested too deeply',
      `This value is nested more than ${limit} levels deep; no argument of any kind is. Fix the generated configuration.`,
      false,
      address,
      path,
    );
  },
  unknownReference(address: string, path: AttributePath, target: string) {
    return new TenantformError(
      'unknown_reference',
      'Reference to an undeclared object',
      `${target} is not declared in this configuration. Declare it, or fix the reference.`,
      false,
      address,
      path,
    );
  },
  unknownAttributeReference(address: string, path: AttributePath, target: string, attribute: string) {
    return new TenantformError(
      'unknown_attribute_reference',
      'Reference to an attribute that does not exist',
      `${target} has no attribute "${attribute}". See docs/resources for the attributes of its type.`,
      false,
      address,
      path,
    );
  },
  /** A step into a value that has no attributes (`tenantform_tenant.t.id.x`) or no elements. */
  unsupportedAttributeStep(address: string, path: AttributePath, reached: string, what: string, step: string | number) {
    return new TenantformError(
      'unknown_attribute_reference',
      'Unsupported attribute',
      typeof step === 'number'
        ? `${reached} is ${what}: it cannot be indexed with [${step}].`
        : `${reached} is ${what}: it has no attribute "${step}".${what.startsWith('a list') ? ' Index an element first, e.g. [0].' : ''}`,
      false,
      address,
      path,
    );
  },
  unknownType(address: string, known: readonly string[]) {
    return new TenantformError(
      'unknown_type',
      'Unknown resource type',
      `This version of tenantform has no ${address.split('.').slice(-2, -1)[0]}; known types: ${known.join(', ')}.`,
      false,
      address,
    );
  },
  /** Language that Terraform carries out and tenantform's own plan does not: refused, never passed over. */
  unsupportedMetaArgument(address: string, path: AttributePath) {
    return new TenantformError(
      'unsupported_meta_argument',
      `"${formatPath(path)}" is not supported`,
      `tenantform's own plan does not carry out "${formatPath(path)}". Remove it, or deploy this configuration through Terraform and tenantform's provider (\`cdktf deploy\`, \`terraform apply\`), which does.`,
      false,
      address,
      path,
    );
  },
  unknownIgnoredAttribute(address: string, index: number, name: string, type: string, attributes: readonly string[], meant: string | undefined) {
    return new TenantformError(
      'unknown_attribute',
      'Unknown attribute in ignore_changes',
      `ignore_changes[${index}] is "${name}", which is not an attribute of ${type}.${meant ? ` Did you mean "${meant}"?` : ''} Its attributes: ${attributes.join(', ')}.`,
      false,
      address,
      ['lifecycle', 'ignore_changes', index],
    );
  },
  invalidMetaArgument(address: string, argument: string, expected: string) {
    return new TenantformError('invalid_meta_argument', `Invalid "${argument}"`, `Expected ${expected}.`, false, address, [argument]);
  },
  dependencyCycle(cycle: readonly string[]) {
    return new TenantformError(
      'dependency_cycle',
      'Dependency cycle',
      `${[...cycle, cycle[0]].join(' -> ')}. Remove one of these references or depends_on entries.`,
      false,
    );
  },
  preventDestroy(address: string, action: string) {
    return new TenantformError(
      'prevent_destroy',
      'The object is protected from destruction',
      `The plan would ${action} ${address}, but its lifecycle sets prevent_destroy. Remove prevent_destroy first (and apply), or change the configuration so that it is kept.`,
      false,
      address,
    );
  },
  stateUnreadable(file: string, reason: string) {
    return new TenantformError(
      'state_unreadable',
      'Cannot read the state',
      `${file}: ${reason}. Restore it from ${file}.backup, or point --state at a valid state file.`,
      false,
    );
  },
  notARegularFile(path: string, kind: string) {
    return new TenantformError(
      'not_a_regular_file',
      'Not a regular file',
      `${path} is ${kind}. tenantform writes its state and plan files by replacing them, and would replace or remove it. ` +
        'Nothing was read or changed. Name a regular file (or a path where none exists yet), the target itself rather than a link to it.',
      false,
    );
  },
  journalDamaged(file: string, line: number, reason: string) {
    return new TenantformError(
      'journal_damaged',
      'The apply journal cannot be trusted',
      `${file}, line ${line}: ${reason}. The journal holds what an unfinished apply did after the state was last written; ` +
        'read past the damage, objects it made would be created again. Nothing was read or changed. Restore the journal, ' +
        'or, if every object it names is in the state (check with the platform), remove it.',
      false,
    );
  },
  stateWriteInterrupted(file: string, found: string, serial: number | undefined) {
    return new TenantformError(
      'state_write_interrupted',
      'The last write of the state was interrupted',
      `${file}.writing holds the complete state that was being written${serial === undefined ? '' : ` (serial ${serial})`}, ` +
        `while ${file} ${found}. Objects recorded only in the newer state would otherwise be created again. Nothing was ` +
        `read or changed. Check it, then put it in place and run again: mv '${file}.writing' '${file}'`,
      false,
    );
  },
  stalePlan(reason: string) {
    return new TenantformError(
      'stale_plan',
      'Saved plan is stale',
      `${reason} Nothing was applied. Run \`tenantform plan --out PLANFILE\` again and apply the new plan.`,
      false,
    );
  },
  planfileUnreadable(file: string, reason: string) {
    return new TenantformError(
      'planfile_unreadable',
      'Cannot read the plan file',
      `${file}: ${reason}. Create it with \`tenantform plan --out ${file}\`.`,
      false,
    );
  },
  invalidBaseUrl(where: string, problem: string) {
    return new TenantformError('invalid_base_url', 'Invalid base URL', `${where}: ${problem}. Nothing was sent.`, false);
  },
  missingCredential(argument: string, variable: string) {
    return new TenantformError(
      'missing_credential',
      'Missing provider setting',
      `Set ${variable} (or \`${argument}\` in the tenantform provider block). \`tenantform emulator\` prints values for a local stand-in.`,
      false,
    );
  },
  notInteractive() {
    return new TenantformError(
      'approval_required',
      'Apply needs approval',
      'There is no terminal to ask for approval. Review a saved plan (`tenantform plan --out PLANFILE`) and apply it, or pass --auto-approve.',
      false,
    );
  },
  pendingCreateUnresolved(address: string, detail: string) {
    return new TenantformError(
      'pending_create',
      'An interrupted create could not be resolved',
      `${address} was being created when an earlier run stopped. ${detail} Until it is resolved, tenantform does not create it again, so that nothing is created twice.`,
      false,
      address,
    );
  },
};

/** Problems with a folder of Terraform files (`.tf`, `.tf.json`) read as one configuration, each naming its file. */
export const folderErrors = {
  /** What the HCL converter refused: its message names the file, line and column. */
  unreadable(file: string, reason: string) {
    return new TenantformError('config_unreadable', 'Cannot read the configuration', `${file}: ${reason.replace(/\.$/, '')}.`, false);
  },
  /** The same block declared twice (in one file or two), as Terraform refuses it. */
  duplicate(what: string, address: string, first: string, second: string) {
    const where = first === second ? `twice in ${first}` : `in ${first} and again in ${second}`;
    return new TenantformError(
      'duplicate_definition',
      `Duplicate ${what}`,
      `${address} is declared ${where}. Each must be declared once per folder: remove or rename one.`,
      false,
      address,
    );
  },
  /** `items { ... }` where the kind has an attribute: terraform refuses the block, and so does tenantform. */
  blockForAttribute(address: string, attribute: string, file: string) {
    return new TenantformError(
      'unsupported_block',
      `Unsupported block type "${attribute}"`,
      `${file}: blocks of type "${attribute}" are not expected here: "${attribute}" is an attribute, written with an equals sign ` +
        `(\`${attribute} = { ... }\`, or \`${attribute} = [{ ... }]\` for a list), as terraform also requires.`,
      false,
      address,
      [attribute],
    );
  },
  /** Override files change blocks declared elsewhere: merging them is left to terraform. */
  overrideFile(file: string) {
    return new TenantformError(
      'unsupported_override_file',
      'Override files are not read',
      `${file} is an override file: tenantform's own plan does not merge override files into the blocks they change, and passing over one would plan without it. ` +
        "Fold it into the files it overrides, or plan and apply through terraform and tenantform's provider (`terraform plan`, `terraform apply`).",
      false,
    );
  },
  /** Every problem of a folder's files, for a command that reads only its backend: each said as diagnostics are. */
  invalidFiles(dir: string, problems: readonly Diagnostic[]) {
    return new TenantformError(
      'config_invalid',
      'The configuration is invalid',
      `the files of ${dir} have ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}; nothing was read or sent. ` +
        `Fix ${problems.length === 1 ? 'it' : 'them'}, then run again.\n\n${problems.map(renderDiagnostic).join('\n\n')}`,
      false,
    );
  },
  /** A folder without any Terraform file. */
  empty(dir: string) {
    return new TenantformError(
      'config_not_found',
      'No configuration found',
      `There is no .tf or .tf.json file in ${dir}. Name the folder of your Terraform files with --config DIR (or -chdir=DIR), or a Terraform JSON file with --config FILE.`,
      false,
    );
  },
  /** `--config main.tf`: Terraform reads every file of a folder, never one .tf file. */
  singleHclFile(file: string, dir: string) {
    return new TenantformError(
      'config_not_found',
      'A configuration is a folder',
      `${file} is one file of a Terraform folder; as terraform does, tenantform reads every .tf and .tf.json file of the folder together. Name the folder: --config ${dir}.`,
      false,
    );
  },
};

/** Module calls (`module` blocks) and the modules they call. */
export const moduleErrors = {
  /** A registry, git or archive source: fetching modules is terraform's (`terraform init`). */
  remoteSource(call: string, source: string) {
    return new TenantformError(
      'unsupported_module_source',
      'Unsupported module source',
      `${call} calls "${source}": tenantform's own plan reads modules from local folders only (a source starting with ./ or ../). ` +
        "Copy the module into the repository and call it by its path, or plan and apply through terraform and tenantform's provider (`terraform init`, `terraform plan`).",
      false,
      call,
      ['source'],
    );
  },
  missingSource(call: string) {
    return new TenantformError(
      'missing_argument',
      'Missing required argument',
      `${call} needs a source: the module's folder, such as "./modules/customer".`,
      false,
      call,
      ['source'],
    );
  },
  /** A local source without Terraform files. */
  emptySource(call: string, source: string, dir: string) {
    return new TenantformError(
      'config_not_found',
      'Module not found',
      `${call} calls "${source}", and there is no .tf or .tf.json file in ${dir}. Check the path: it is relative to the folder of the file that calls it.`,
      false,
      call,
      ['source'],
    );
  },
  /** An argument the module declares no variable for. */
  unexpectedArgument(call: string, name: string, declared: readonly string[], closest: string | undefined) {
    const hint = closest ? ` Did you mean "${closest}"?` : '';
    const takes = declared.length > 0 ? `it declares the variables ${declared.join(', ')}` : 'it declares no variable';
    return new TenantformError('unsupported_argument', 'Unsupported argument', `The module ${call} has no variable "${name}": ${takes}.${hint}`, false, call, [
      name,
    ]);
  },
  /** An argument that its variable's type cannot take, or a type that is not one. */
  invalidArgument(call: string, name: string, reason: string) {
    return new TenantformError(
      'invalid_variable',
      'Invalid value for module argument',
      `The module ${call} takes "${name}" as its variable declares it: ${reason}.`,
      false,
      call,
      [name],
    );
  },
  /** An argument its variable's validation refuses: the module's own message. */
  failedValidation(call: string, name: string, message: string) {
    return new TenantformError(
      'invalid_variable',
      'Invalid value for module argument',
      `${message} (the module ${call} checks "${name}" with a validation rule)`,
      false,
      call,
      [name],
    );
  },
  /** A variable without a default that the call does not set. */
  missingArgument(call: string, name: string) {
    return new TenantformError(
      'missing_argument',
      'Missing required argument',
      `The module ${call} needs "${name}": its variable has no default. Set ${name} in the module block.`,
      false,
      call,
      [name],
    );
  },
  /** A block of the language that a module of tenantform's own plan cannot hold. */
  unsupportedBlock(module: string, block: string) {
    return new TenantformError(
      'unsupported_block',
      `Unsupported block type "${block}" in a module`,
      `${module} declares a "${block}" block, which tenantform's own plan does not carry out inside modules. ` +
        "Move it to the root module, or plan and apply through terraform and tenantform's provider (`terraform plan`, `terraform apply`).",
      false,
      module,
    );
  },
  /** A name inside a module that its module does not declare. */
  undeclared(module: string, name: string) {
    return new TenantformError(
      'undeclared_name',
      'Reference to undeclared name',
      `${name} is not declared in ${module}. Declare it in the module's files, or check the spelling.`,
      false,
      module,
    );
  },
  /** A module that calls itself, directly or through others. */
  recursion(chain: readonly string[], source: string) {
    return new TenantformError(
      'module_cycle',
      'Module calls itself',
      `${chain[chain.length - 1]} calls "${source}", the module it is in: ${chain.join(' → ')} would never end. Remove the call.`,
      false,
      chain[chain.length - 1],
      ['source'],
    );
  },
};

/** Problems with the Terraform language in a configuration: variables, locals, outputs, expressions. */
export const languageErrors = {
  /** An expression that cannot be parsed or evaluated; `construct` names the function, operator or syntax. */
  expression(address: string, path: AttributePath, problem: { code: string; message: string; construct: string }) {
    const outOfReach = problem.code === 'unsupported_function' || problem.code === 'unsupported_construct' || problem.code === 'syntax_error';
    return new TenantformError(
      problem.code === 'unsupported_function' || problem.code === 'unsupported_construct' ? 'unsupported_expression' : 'invalid_expression',
      outOfReach ? `Unsupported expression: ${problem.construct}` : `Invalid expression: ${problem.construct}`,
      `${problem.message}${outOfReach ? ' Deploy this configuration with `cdktf deploy` (Terraform) if it needs it.' : ''}`,
      false,
      address,
      path,
    );
  },
  /** Terraform's "Extraneous JSON object property": an argument the block does not have. */
  unsupportedArgument(address: string, path: AttributePath, block: string, expected: readonly string[]) {
    const name = String(path[path.length - 1]);
    return new TenantformError(
      'unsupported_argument',
      'Unsupported argument',
      `${block} has no argument "${name}"; it takes ${expected.join(', ')}. Check the spelling, or remove it.`,
      false,
      address,
      path,
    );
  },
  /** A top-level block Terraform carries out and tenantform's own plan does not: refused, never passed over. */
  unsupportedBlock(block: string, known: boolean) {
    const what = known
      ? `tenantform's own plan does not carry out "${block}" blocks, and passing over one would plan without what it says (a module's resources, a check's assertions).`
      : `"${block}" is not a block of the Terraform language.`;
    return new TenantformError(
      'unsupported_block',
      `Unsupported block type "${block}"`,
      `${what} Remove it, or deploy this configuration through Terraform and tenantform's provider (\`cdktf deploy\`, \`terraform plan\` and \`apply\`), which ${known ? 'carry it out' : 'refuse it too'}.`,
      false,
      block,
    );
  },
  invalidRemoval(at: string, why: string) {
    return new TenantformError('invalid_removal', 'Invalid removed block', `${at}: ${why}.`, false, at);
  },
  invalidCheck(at: string, why: string, path: AttributePath) {
    return new TenantformError('invalid_check', 'Invalid check block', `${at}: ${why}.`, false, at, path);
  },
  invalidImport(at: string, why: string, path: AttributePath = []) {
    return new TenantformError('invalid_import', 'Invalid import block', `${at}: ${why}.`, false, at, path);
  },
  invalidMove(at: string, why: string) {
    return new TenantformError('invalid_move', 'Invalid moved block', `${at}: ${why}.`, false, at);
  },
  /** Terraform JSON's "Missing block label": an object of blocks (`resource`, `resource.<type>`, ...) that holds none. */
  missingBlockLabel(at: string, block: string, label: 'name' | 'type' = 'name') {
    return new TenantformError(
      'missing_block_label',
      'Missing block label',
      `"${at}" holds no block: at least one property is required, whose name is the ${block} block's ${label}.`,
      false,
      at,
    );
  },
  selfReference(address: string, path: AttributePath) {
    return new TenantformError(
      'self_reference',
      'Self-referential block',
      `Configuration for ${address} may not refer to itself: its own values are known only once it exists. Refer to another object, or remove the reference.`,
      false,
      address,
      path,
    );
  },
  missingArgument(address: string, argument: string) {
    return new TenantformError(
      'missing_argument',
      'Missing required argument',
      `The argument "${argument}" is required, but no definition was found.`,
      false,
      address,
      [argument],
    );
  },
  /** Terraform's "Unsuitable value type": an argument of a language block given a value it cannot take. */
  unsuitableArgument(address: string, path: AttributePath, expected: string) {
    return new TenantformError('unsuitable_argument', 'Unsuitable value type', `"${formatPath(path)}" must be ${expected}.`, false, address, path);
  },
  invalidVariableName(name: string, reason: string) {
    return new TenantformError('invalid_variable_name', 'Invalid variable name', `variable "${name}": ${reason}`, false, `var.${name}`);
  },
  invalidVariable(name: string, reason: string, path: AttributePath = []) {
    return new TenantformError('invalid_variable', 'Invalid value for input variable', `var.${name}: ${reason}.`, false, `var.${name}`, path);
  },
  missingVariable(name: string) {
    return new TenantformError(
      'missing_variable',
      'No value for required variable',
      `var.${name} has no default. Set it with --var ${name}=VALUE, --var-file FILE or the environment variable TF_VAR_${name}.`,
      false,
      `var.${name}`,
    );
  },
  undeclaredVariable(name: string, source: string) {
    return new TenantformError(
      'undeclared_variable',
      'Value for undeclared variable',
      `${source} sets "${name}", but no variable "${name}" is declared.`,
      false,
      `var.${name}`,
    );
  },
  variableValidation(name: string, message: string) {
    return new TenantformError(
      'variable_validation',
      'Invalid value for variable',
      `${message} (var.${name}, from its validation rule).`,
      false,
      `var.${name}`,
    );
  },
  unreadableVarFile(file: string, reason: string) {
    return new TenantformError('var_file_unreadable', 'Cannot read the variable file', `${file}: ${reason.replace(/\.$/, '')}.`, false);
  },
  undeclaredName(address: string, path: AttributePath, name: string) {
    return new TenantformError('unknown_reference', 'Reference to an undeclared name', `${name} is not declared in this configuration.`, false, address, path);
  },
  invalidRepetition(address: string, argument: 'count' | 'for_each', detail: string) {
    return new TenantformError('invalid_repetition', `Invalid ${argument} argument`, detail, false, address, [argument]);
  },
  remoteState(address: string, path: AttributePath, reason: string) {
    return new TenantformError('remote_state_unreadable', 'Cannot read the remote state', `${reason}.`.replace(/\.\.$/, '.'), false, address, path);
  },
  cycle(addresses: readonly string[]) {
    return new TenantformError('cycle', 'Cycle', `These refer to each other: ${addresses.join(', ')}.`, false, addresses[0]);
  },
};

/** Faults met while applying: lost answers, interrupted creates. */
export const faultErrors = {
  /** A create's request lost its answer and its repetition was refused: the object may exist. */
  createOutcomeUnknown(address: string, refusal: string) {
    return new TenantformError(
      'create_outcome_unknown',
      'The create may have been applied',
      `A request made while creating ${address} lost its answer, and repeating it was refused (${refusal}): the platform may have applied it. ` +
        'tenantform looks for the object by its natural key and completes it; running apply again does the same.',
      true,
      address,
    );
  },
  nameTaken(address: string, what: string, existingId: string | undefined, importId: string | undefined) {
    const adopt =
      existingId === undefined || importId === undefined
        ? 'Choose another name, or delete the other object on the platform.'
        : `To manage the existing one with this configuration, import it: an \`import\` block (\`import { to = ${address}, id = "${importId}" }\`, cdktf's \`importFrom\`) or \`tenantform import ${address} ${importId}\`. Otherwise choose another name.`;
    return new TenantformError(
      'name_taken',
      'An object with this name already exists',
      `${address} cannot be created: ${what}${existingId !== undefined ? ` (id ${existingId})` : ''} already exists on the platform and is not recorded in this state. ${adopt}`,
      false,
      address,
    );
  },
  adoptionAmbiguous(address: string, ids: readonly string[], heldElsewhere: number) {
    const others = heldElsewhere > 0 ? ` (${heldElsewhere} more ${heldElsewhere === 1 ? 'is' : 'are'} recorded for other addresses and were left out)` : '';
    return new TenantformError(
      'adopt_ambiguous',
      'More than one object matches an interrupted create',
      `${address} was being created when its answer was lost, and ${ids.length} objects on the platform match its configuration without being recorded for another address${others}: ${ids.join(', ')}. ` +
        `Import the one that belongs to ${address} (\`tenantform import ${address} <id>\`), then import the others for their own addresses or delete them on the platform.`,
      false,
      address,
    );
  },
  invalidRetryTimeout(where: string, found: unknown) {
    return new TenantformError(
      'invalid_retry_timeout',
      'Invalid retry timeout',
      `${where} must be a number of seconds from 0 to 86400, found ${JSON.stringify(found)}.`,
      false,
      where.startsWith('provider.') ? where.split(' ')[0] : undefined,
      where.startsWith('provider.') ? ['retry_timeout'] : undefined,
    );
  },
  credentialsRefused(baseUrl: string, clientId: string, answer: string) {
    return new TenantformError(
      'credentials_refused',
      'The platform refused the credentials',
      `${baseUrl} did not accept API client ${clientId} (${answer}). Nothing was read or planned. ` +
        'Check TENANTFORM_CLIENT_ID and TENANTFORM_CLIENT_SECRET (or the provider block), and that the client is enabled.',
      false,
    );
  },
  notThePlatform(baseUrl: string, answer: string) {
    return new TenantformError(
      'not_the_platform',
      'The base URL does not answer as the platform does',
      `${baseUrl} answered without the platform's error body or response shape (${answer}). Nothing was read or planned. ` +
        "Check TENANTFORM_BASE_URL (or base_url in the provider block): it is the data center's address, such as https://eu2-cloud.example.com.",
      false,
    );
  },
  platformUnreachable(baseUrl: string, answer: string) {
    return new TenantformError(
      'platform_unreachable',
      'Cannot reach the platform',
      `${baseUrl} could not be reached (${answer}). Nothing was read or planned. Check the address and the network, then run again.`,
      true,
    );
  },
};

/**
 * A failed connection as src/network describes it: a certificate not trusted (`host`, and the
 * proxy the connection went through), a proxy that could not be used, a setting that cannot.
 */
export type NetworkFailureFacts =
  | { readonly kind: 'certificate'; readonly host: string; readonly what: string; readonly proxy?: string }
  | { readonly kind: 'proxy'; readonly proxy: string; readonly what: string; readonly retryable: boolean }
  | { readonly kind: 'setting'; readonly variable: string; readonly what: string };

const TRUST_VARIABLES =
  "To trust your organisation's certificate authority (a proxy that inspects TLS signs with one), name its PEM file in SSL_CERT_FILE, " +
  "or a directory of PEM files in SSL_CERT_DIR (several separated by ':'), or the file in NODE_EXTRA_CA_CERTS; then run again.";

/** Connections that fail on the way to a server: certificates, proxies, their variables. Nothing was sent. */
export const networkErrors = {
  certificateRejected(host: string, what: string, proxy: string | undefined) {
    const through = proxy ? ` The connection went through the proxy ${proxy}, which may present a certificate of its own.` : '';
    return new TenantformError(
      'certificate_rejected',
      `The certificate of ${host} is not trusted`,
      `It ${what}; nothing was sent to ${host}.${through} ${TRUST_VARIABLES}`,
      false,
    );
  },
  proxyFailed(proxy: string, what: string, retryable: boolean) {
    return new TenantformError(
      'proxy_failed',
      `Cannot connect through the proxy ${proxy}`,
      `It ${what}; nothing was sent through it. The proxy comes from HTTPS_PROXY (HTTP_PROXY for http:// addresses); ` +
        `hosts listed in NO_PROXY are reached directly.${retryable ? ' Running again may succeed.' : ''}`,
      retryable,
    );
  },
  unusableSetting(variable: string, what: string) {
    return new TenantformError('network_setting', `${variable} cannot be used`, `${capitalized(what)}. Correct or unset ${variable}, then run again.`, false);
  },
  /** The error for a failure as src/network reports it. */
  of(failure: NetworkFailureFacts) {
    switch (failure.kind) {
      case 'certificate':
        return networkErrors.certificateRejected(failure.host, failure.what, failure.proxy);
      case 'proxy':
        return networkErrors.proxyFailed(failure.proxy, failure.what, failure.retryable);
      default:
        return networkErrors.unusableSetting(failure.variable, failure.what);
    }
  },
};

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Command lines that cannot work, refused before anything is read or sent. */
export const cliErrors = {
  approvalWithoutInput(command: string) {
    return new TenantformError(
      'approval_required',
      `${command} needs approval, but -input=false forbids asking`,
      `Pass -auto-approve to ${command} without asking${command === 'apply' ? ', or apply a reviewed saved plan (`tenantform plan -out=PLANFILE`, then `tenantform apply PLANFILE`)' : ''}.`,
      false,
    );
  },
  synthImpossible(dir: string) {
    return new TenantformError(
      'synth_impossible',
      'Nothing to synthesize',
      `--synth runs the app named by \`app\` in cdktf.json, and ${dir} has no cdktf.json with an app. Run tenantform in the CDK Terrain (cdktn) or cdktf project, or leave out --synth.`,
      false,
    );
  },
  synthFailed(app: string, code: number | null) {
    return new TenantformError(
      'synth_failed',
      'The app failed to synthesize',
      `\`${app}\` exited with ${code ?? 'a signal'} (its output is above). Nothing was read from the platform.`,
      false,
    );
  },
};

/** The installed package itself: its build and the provider it installs. */
export const packageErrors = {
  providerNotBuilt(mainPath: string) {
    return new TenantformError(
      'provider_not_built',
      'The compiled provider is missing',
      `${mainPath} does not exist. In a checkout of tenantform, run \`npm run build\` first; an installed package ships it built.`,
      false,
    );
  },
  cdkLibraryMissing(libraries: readonly string[]) {
    return new TenantformError(
      'cdk_library_missing',
      'No CDK library to build the constructs on',
      `tenantform's constructs extend the app's own ${libraries.join(' or ')}, and neither is installed. ` +
        'Install CDK Terrain (`npm install cdktn constructs`) or cdktf (`npm install cdktf constructs`) in the project.',
      false,
    );
  },
};

/** Failures of the state backends (where the state lives, and its lock). */
export const backendErrors = {
  /** `what` is what tenantform would need to speak the backend itself for (reading another stack's state, listing workspaces). */
  unsupported(type: string, spoken: readonly string[], what: string, instead: string) {
    return new TenantformError(
      'backend_unsupported',
      'Unsupported backend',
      `${what} needs a "${type}" backend spoken by tenantform itself, and it speaks ${spoken.join(', ')}; ` +
        `it reads the state of any other backend through terraform for plan, drift and the state reads only. Nothing was read or sent. ${instead}`,
      false,
    );
  },
  /** A write, a lock or a saved plan's apply on a backend whose state tenantform reads through terraform. */
  writesThroughTerraform(type: string, location: string, what: string) {
    return new TenantformError(
      'backend_read_only',
      `tenantform does not ${what} a stack on the "${type}" backend`,
      `tenantform reads the state of ${location} through terraform (\`terraform state pull\`, which takes no lock) and never writes it or takes its lock. ` +
        'Deploy this stack with `cdktn deploy` (or `cdktf deploy`), or run `terraform apply` in its synthesized folder, with the tenantform provider ' +
        "(`tenantform provider install`): they hold the backend's lock. Nothing was read from or sent to the platform.",
      false,
    );
  },
  /** `terraform init` or `terraform state pull` failed: terraform's own message, for the backend it was reading. */
  terraformFailed(type: string, location: string, command: string, message: string) {
    return new TenantformError(
      'backend_terraform_failed',
      `terraform could not read the "${type}" backend`,
      `\`${command}\` failed while reading ${location} (tenantform reads this backend's state through terraform, in the stack's folder):\n\n${message}\n\n` +
        "Nothing was sent to the platform. Check the backend's settings and the credentials in the environment, then run again; " +
        'running again unchanged helps only when the backend was briefly unreachable.',
      true,
    );
  },
  terraformMissing(type: string, reason: string) {
    return new TenantformError(
      'terraform_missing',
      'terraform cannot be run',
      `tenantform reads the state of a "${type}" backend through terraform, which could not be started (${reason}). ` +
        'Install Terraform 1.x and put it on PATH, then run again. Nothing was sent to the platform.',
      false,
    );
  },
  noWorkspaces(type: string) {
    return new TenantformError(
      'workspaces_not_supported',
      'Workspaces not supported',
      `The ${type} backend keeps one state: it has no workspaces (terraform refuses them there too). Another state needs another address.`,
      false,
    );
  },
  invalidWorkspace(name: string) {
    return new TenantformError(
      'invalid_workspace',
      'Invalid workspace name set using TF_WORKSPACE',
      `TF_WORKSPACE=${JSON.stringify(name)} is not a workspace name: it may hold only letters, digits and the characters - . _ ~ $ & + , : ; = @ (no path separator), and be neither "." nor "..", as terraform requires. Nothing was read or written.`,
      false,
    );
  },
  invalidSetting(type: string, setting: string, reason: string) {
    return new TenantformError('backend_setting', 'Invalid backend setting', `backend "${type}", ${setting}: ${reason}`, false);
  },
  /** A file a pg TLS setting names (`sslrootcert`, `sslcert`, `sslkey` or their PG* variables) cannot be read. */
  tlsFileUnreadable(setting: string, path: string, reason: string) {
    return new TenantformError(
      'backend_tls_file',
      'Cannot read a TLS file of the state backend',
      `backend "pg", ${setting}: ${path} cannot be read (${reason}). Point ${setting} at the file, or give this user read access to it. Nothing was sent.`,
      false,
    );
  },
  tlsFileInvalid(setting: string, path: string, reason: string) {
    return new TenantformError(
      'backend_tls_file',
      'A TLS file of the state backend is not usable',
      `backend "pg", ${setting}: ${path} cannot be used (${reason}). ` +
        'sslrootcert takes the CA certificate (PEM); sslcert and sslkey take the client certificate and its private key, which must match. Nothing was sent.',
      false,
    );
  },
  tlsKeyExposed(setting: string, path: string, mode: string) {
    return new TenantformError(
      'backend_tls_key_exposed',
      'The private key of the state backend can be read by others',
      `backend "pg", ${setting}: ${path} has mode ${mode}, and a private key must be readable by its owner only (0600; 0640 when root owns it), ` +
        `as libpq and Terraform require. Run \`chmod 600 ${path}\`. Nothing was sent.`,
      false,
    );
  },
  /** The TLS handshake with the pg server failed, or the server refused the connection for want of a client certificate. */
  tlsFailed(location: string, host: string, reason: string, remedy: string) {
    return new TenantformError('backend_tls', 'Cannot connect securely to the state backend', `${location}: TLS with ${host}: ${reason}. ${remedy}`, false);
  },
  unreachable(location: string, reason: string) {
    return new TenantformError('backend_unreachable', 'Cannot reach the state backend', `${location}: ${reason}`, true);
  },
  stateKeptLocally(location: string, cause: string, file: string) {
    return new TenantformError(
      'state_not_persisted',
      'The state was not written to its backend',
      `${cause}\n\nWhat this run changed on the platform is recorded only in ${file}, written in the current directory. ` +
        `Once ${location} answers again, run \`tenantform state push ${file}\` (it continues the state's lineage), then plan. ` +
        'Applying again before that would create those objects a second time.',
      false,
    );
  },
  locked(location: string, holder: string, id: string | undefined) {
    return new TenantformError(
      'state_locked',
      'The state is locked',
      `${location} is locked by ${holder}. Wait for that run to finish (--lock-timeout=DURATION waits for it). ` +
        (id
          ? `If no run is active (it crashed), remove the lock with \`tenantform force-unlock ${id}\`.`
          : "This lock belongs to its holder's connection and goes when that process stops."),
      true,
    );
  },
  /** `why` says which lock Terraform takes and how to let tenantform take it too. */
  lockUnavailable(location: string, why: string, optIn: string) {
    return new TenantformError(
      'lock_unavailable',
      'The state cannot be locked against Terraform',
      `${location}: ${why} Nothing was sent to the platform. Where no \`terraform\` run uses this state, set ${optIn} ` +
        'to lock it with the lock-info file alone, which excludes other tenantform runs but not Terraform.',
      false,
    );
  },
  lockNotFound(location: string) {
    return new TenantformError('lock_not_found', 'The state is not locked', `There is no lock on ${location}; nothing to unlock.`, false);
  },
  lockIdMismatch(location: string, given: string, actual: string | undefined) {
    return new TenantformError(
      'lock_id_mismatch',
      'Lock id does not match',
      `The lock on ${location} has id ${actual ?? '(none)'}, not ${given}. Copy the id from the error that reported the lock.`,
      false,
    );
  },
  lockHeldByLiveProcess(location: string, holder: { Who?: string; Operation?: string }) {
    return new TenantformError(
      'lock_in_use',
      'The lock is held by a running process',
      `${location} is locked by a process that is still running (${holder.Operation ?? 'an operation'} of ${holder.Who ?? 'someone'}). ` +
        'Its lock goes when it stops; a lock of a running process cannot be forced.',
      false,
    );
  },
  forceUnlockUnsupported(location: string, reason: string) {
    return new TenantformError('force_unlock_unsupported', 'Cannot force the lock open', `${location}: ${reason}`, false);
  },
};

/** Failures of `tenantform state` subcommands. */
export const stateCommandErrors = {
  outputNotFound(name: string, location: string) {
    return new TenantformError(
      'output_not_found',
      `Output "${name}" not found`,
      `The state in ${location} records no output named "${name}": an apply records the outputs the configuration declares. \`tenantform output\` lists those recorded.`,
      false,
    );
  },
  outputNameNeeded() {
    return new TenantformError('output_name_needed', 'Name an output', '-raw prints one output: `tenantform output -raw NAME`.', false);
  },
  outputNotRaw(name: string) {
    return new TenantformError(
      'output_not_raw',
      'Unsupported value for raw output',
      `-raw prints a string, a number or a bool; "${name}" holds a list, a map or null. Use \`tenantform output -json ${name}\`.`,
      false,
    );
  },
  notInState(address: string, location: string) {
    return new TenantformError(
      'not_in_state',
      'No such object in the state',
      `${address} is not recorded in ${location}. \`tenantform state list\` lists what is.`,
      false,
      address,
    );
  },
  invalidAddress(address: string) {
    return new TenantformError(
      'invalid_address',
      'Invalid resource address',
      `"${address}" is not a resource address: write TYPE.NAME (e.g. tenantform_infra_component.primary) or data.TYPE.NAME.`,
      false,
      address,
    );
  },
  moveTypeMismatch(from: string, to: string) {
    return new TenantformError(
      'move_type_mismatch',
      'Cannot move to another type',
      `${from} cannot become ${to}: an object keeps its resource type.`,
      false,
      from,
    );
  },
  moveTargetExists(to: string) {
    return new TenantformError(
      'move_target_exists',
      'The destination is in use',
      `${to} is already recorded in the state; remove it or choose another address.`,
      false,
      to,
    );
  },
  pushRefused(file: string, reason: string) {
    return new TenantformError(
      'push_refused',
      'The state was not pushed',
      `${file}: ${reason} Nothing was written. Pass --force to replace the state anyway.`,
      false,
    );
  },
  pushUnreadable(file: string, reason: string) {
    return new TenantformError('push_unreadable', 'The state was not pushed', `${file} cannot be read: ${reason}. Nothing was written.`, false);
  },
};
