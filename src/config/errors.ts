import { type AttributePath, type Diagnostic, formatPath, renderDiagnostic } from '../diagnostics';
import { TenantformError } from '../errors';
import { closestName } from '../suggest';

/** The failures of locating, reading and evaluating a configuration (files, modules, the language). */

export const configErrors = {
  configNotFound(looked: string) {
    return new TenantformError(
      'config_not_found',
      'No configuration found',
      `${looked}. Synthesize the app first (\`cdktn synth\`, or \`cdktf synth\`), or name a folder of Terraform files with --config DIR (or -chdir=DIR), or a Terraform JSON file with --config FILE.`,
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
      `There is no stack "${stack}" in cdktf.out/stacks (found: ${stacks.join(', ') || 'none'}). Synthesize the app (\`cdktn synth\`, or \`cdktf synth\`), or check --stack.`,
      false,
    );
  },
  configUnreadable(file: string, reason: string) {
    return new TenantformError(
      'config_unreadable',
      'Cannot read the configuration',
      `${file}: ${reason}. Synthesize the app again (\`cdktn synth\`, or \`cdktf synth\`), or fix the file.`,
      false,
    );
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
  unknownReference(address: string, path: AttributePath, target: string, meant?: string) {
    return new TenantformError(
      'unknown_reference',
      'Reference to an undeclared object',
      `${target} is not declared in this configuration.${meant ? ` Did you mean ${meant}?` : ''} Declare it, or fix the reference.`,
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
  /** `known` as the types are written in addresses; `ofMode`, the names a block of this mode can have. */
  unknownType(address: string, type: string, known: readonly string[], ofMode: readonly string[]) {
    const meant = closestName(type, ofMode);
    return new TenantformError(
      'unknown_type',
      'Unknown resource type',
      `This version of tenantform has no ${type}.${meant ? ` Did you mean ${meant}?` : ''} Known types: ${known.join(', ')}.`,
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
};

/** The failures of the `terraform` block's settings. */
export const settingsErrors = {
  unsupportedTerraformVersion(constraint: string, version: string) {
    return new TenantformError(
      'unsupported_terraform_version',
      'Unsupported Terraform Core version',
      `The configuration's required_version "${constraint}" is not met by the Terraform language tenantform reads (${version}). Change the constraint, or plan this configuration with a Terraform release that meets it.`,
      false,
      'terraform',
      ['required_version'],
    );
  },
  invalidRequiredVersion(constraint: string) {
    return new TenantformError(
      'invalid_required_version',
      'Invalid required_version constraint',
      `"${constraint}" is not a version constraint: write it as Terraform does, e.g. ">= 1.5, < 2.0".`,
      false,
      'terraform',
      ['required_version'],
    );
  },
  invalidProviderSource(source: string) {
    return new TenantformError(
      'invalid_provider_source',
      'Invalid provider source address',
      `"${source}" is not a provider source address: write it as Terraform does, [hostname/]namespace/type, e.g. "tenantform/tenantform" or "registry.example.com/platform-team/tenantform".`,
      false,
      'terraform',
      ['required_providers', 'tenantform', 'source'],
    );
  },
  conflictingProviderSources(first: string, second: string) {
    return new TenantformError(
      'conflicting_provider_sources',
      'Conflicting provider source addresses',
      `The terraform blocks name two sources for tenantform: "${first}" and "${second}". Keep one.`,
      false,
      'terraform',
      ['required_providers', 'tenantform', 'source'],
    );
  },
};

export const folderErrors = {
  /** What the HCL converter refused: its message names the file, line and column. */
  unreadable(file: string, reason: string) {
    return new TenantformError('config_unreadable', 'Cannot read the configuration', `${file}: ${reason.replace(/\.$/, '')}.`, false);
  },
  /** A `.tf` file nested so deeply that reading it would exhaust the stack. */
  nestedTooDeeplyToRead(file: string, limit: number) {
    return new TenantformError(
      'config_too_deep',
      'Cannot read the configuration',
      `${file}: an expression or block is nested more than ${limit} levels deep. Flatten it: no configuration needs that depth.`,
      false,
    );
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
  /** The HCL converter's WebAssembly program could not reserve its memory: `what` is V8's message. */
  converterOutOfMemory(what: string) {
    return new TenantformError(
      'hcl_converter_out_of_memory',
      'Cannot start the converter of .tf files',
      `Reading .tf files starts a WebAssembly program, and it could not reserve its memory (${what.replace(/^\w+\.\w+\(\): /, '')}). ` +
        'The likely cause is a limit on the address space of processes (`ulimit -v`): WebAssembly reserves about 10 GB of address space, ' +
        'far more than it uses. Run without the limit (`ulimit -v unlimited`), or give the configuration as Terraform JSON ' +
        '(.tf.json files, or the stack `cdktf synth` writes), which needs no converter.',
      false,
    );
  },
  /** The converter's program stopped on the same file twice, in two programs. */
  converterStopped(file: string, why: string) {
    return new TenantformError(
      'hcl_converter_stopped',
      'Cannot read the configuration',
      `${file}: ${why}, twice, on this file. Check that the machine has memory to spare; if it does, ` +
        'give the configuration as Terraform JSON (.tf.json files, or the stack `cdktf synth` writes), which needs no converter, and report the file.',
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
