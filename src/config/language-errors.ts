import { type AttributePath, formatPath } from '../diagnostics';
import { TenantformError } from '../errors';

/** The failures of the configuration language: blocks, arguments, expressions, variables, repetition. */

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
  /** Terraform's "Function calls not allowed": a variable file holds constant values. */
  callInVarFile(file: string, line: number, name: string, call: string) {
    return new TenantformError(
      'var_file_unreadable',
      'Function calls not allowed',
      `${file}: line ${line}, ${name}: functions may not be called here (found ${call}(...)); write the value itself.`,
      false,
    );
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
  /** Terraform's "Invalid condition result": a condition must be true or false (its value is not quoted: it may be secret). */
  invalidConditionResult(address: string, path: AttributePath, value: unknown) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
    return new TenantformError('invalid_condition', 'Invalid condition result', `The condition must be true or false, not ${found}.`, false, address, path);
  },
  /** Terraform's "Invalid assert expression": a condition that names nothing checks nothing. */
  conditionChecksNothing(address: string, path: AttributePath) {
    return new TenantformError(
      'invalid_check',
      'Invalid assert expression',
      `The condition must refer to at least one object of the configuration, or else its result would not be checking anything.`,
      false,
      address,
      path,
    );
  },
  cycle(addresses: readonly string[]) {
    return new TenantformError('cycle', 'Cycle', `These refer to each other: ${addresses.join(', ')}.`, false, addresses[0]);
  },
};
