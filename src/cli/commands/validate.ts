import type { CommandModule } from 'yargs';
import type { Diagnostic } from '../../diagnostics';
import { openWorkspace } from '../../engine/session';
import { redactSecrets } from '../redact';
import { printDiagnostics, stateFlags, type StateArgs } from './shared';

interface ValidateArgs extends StateArgs {
  json: boolean;
  var?: string[];
  'var-file'?: string[];
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
    stateFlags(y)
      .option('json', { type: 'boolean', default: false, describe: 'As the JSON document of `terraform validate -json`' })
      .option('var', { type: 'string', array: true, describe: 'A value for an input variable: --var name=value (repeatable)' })
      .option('var-file', { type: 'string', array: true, describe: 'Input variable values from a .tfvars or .tfvars.json file (repeatable)' }),
  handler: async (args) => {
    const variables = [
      ...(args['var-file'] ?? []).map((text) => ({ kind: 'file' as const, text })),
      ...(args.var ?? []).map((text) => ({ kind: 'var' as const, text })),
    ];
    const ws = await openWorkspace({ cwd: process.cwd(), stack: args.stack, config: args.config, env: process.env, variables });
    const diagnostics = ws.diagnostics;
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
