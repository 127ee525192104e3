import type { CommandModule } from 'yargs';
import { withFile, type Diagnostic } from '../../diagnostics';
import { dependencyCycleProblems, valueProblemsWithoutInputs } from '../../config/validate-values';
import { openWorkspace } from '../../engine/session';
import { redactSecrets } from '../redact';
import { inputVariables, printDiagnostics, stateFlags, variableFlags, type StateArgs, type VariableArgs } from './shared';

interface ValidateArgs extends StateArgs, VariableArgs {
  json: boolean;
}

/**
 * `tenantform validate`: the configuration checked as a plan checks it before anything is read
 * (every argument against its kind, references still unknown), without the state, credentials
 * or the platform. Exit 0 when valid, 1 when not, as `terraform validate`.
 */
export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: 'validate',
  describe: 'Check the configuration without the state or the platform (exit 0 valid, 1 not)',
  builder: (y) =>
    variableFlags(stateFlags(y)).option('json', { type: 'boolean', default: false, describe: 'As the JSON document of `terraform validate -json`' }),
  handler: async (args) => {
    const variables = inputVariables(args);
    const ws = await openWorkspace({ cwd: process.cwd(), stack: args.stack, config: args.config, env: process.env, variables });
    const found = 'configuration' in ws ? [...valueProblemsWithoutInputs(ws.configuration), ...dependencyCycleProblems(ws.configuration)] : [];
    const diagnostics = [...ws.diagnostics, ...('positionOf' in ws && ws.positionOf ? found.map((d) => withFile(d, ws.positionOf!)) : found)];
    const valid = !diagnostics.some((d) => d.severity === 'error');
    if (args.json) process.stdout.write(redactSecrets(`${JSON.stringify(validateJson(valid, diagnostics), null, 2)}\n`));
    else {
      printDiagnostics(diagnostics);
      if (valid) process.stdout.write('Success! The configuration is valid.\n');
    }
    if (!valid) process.exitCode = 1;
  },
};

function validateJson(valid: boolean, diagnostics: readonly Diagnostic[]) {
  return {
    format_version: '1.0',
    valid,
    error_count: diagnostics.filter((d) => d.severity === 'error').length,
    warning_count: diagnostics.filter((d) => d.severity === 'warning').length,
    diagnostics: diagnostics.map((d) => ({
      severity: d.severity,
      summary: d.summary,
      detail: d.detail,
      ...(d.address !== undefined ? { address: d.address } : {}),
      ...(d.path !== undefined ? { attribute_path: d.path } : {}),
    })),
  };
}
