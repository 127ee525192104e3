import { existsSync, lstatSync, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import type { CommandModule } from 'yargs';
import type { Diagnostic } from '../../diagnostics';
import { UUID_PATTERN } from '../../resources/attributes';
import { exportTenant, renderHcl, renderImportList, renderTerraformJson, renderTypescript, writeExportState } from '../../export';
import { redactSecrets } from '../redact';
import { projectCdkLibrary } from '../project-kind';
import { clientOfProviderBlock } from '../../engine/session';

interface Args {
  tenant: string;
  out?: string;
  format: 'typescript' | 'json' | 'hcl';
  stack?: string;
  state?: string;
  imports?: string;
  'import-blocks': boolean;
  overwrite: boolean;
  setting?: string[];
}

/** `tenantform export`: a cdktf app (or Terraform JSON) declaring what a tenant's subtree has live. */
export const exportCommand: CommandModule<object, Args> = {
  command: 'export',
  describe: "Write a cdktf app (or Terraform JSON, or HCL) declaring what a tenant's subtree has live, with its import list or state",
  builder: (y) =>
    y
      .option('tenant', { type: 'string', demandOption: true, describe: 'Id of the tenant whose subtree is exported' })
      .option('out', { type: 'string', describe: 'Write the configuration to this file (default: standard output); never over an existing one' })
      .option('overwrite', {
        type: 'boolean',
        default: false,
        describe: 'Let --out and --imports replace an existing regular file (never a symbolic link, never a state)',
      })
      .option('format', {
        choices: ['typescript', 'json', 'hcl'] as const,
        default: 'typescript' as const,
        describe: 'A cdktf app in TypeScript, Terraform JSON as `cdktf synth` writes it, or a Terraform file in HCL (main.tf)',
      })
      .option('stack', { type: 'string', describe: "Stack name (default: made from the tenant's name)" })
      .option('imports', { type: 'string', describe: 'Also write one `tenantform import <address> <id>` line per object to this file' })
      .option('import-blocks', {
        type: 'boolean',
        default: false,
        describe: 'Adopt each object with an import block (importFrom in TypeScript): the first plan imports them all, no state file needed',
      })
      .option('state', { type: 'string', describe: 'Also write a new Terraform state file holding every object (never overwrites a file)' })
      .option('setting', {
        type: 'string',
        array: true,
        describe: "A tenant setting name to export where a tenant has its own value (repeatable; the platform lists no tenant's settings)",
      })
      .check((a) => {
        if (!UUID_PATTERN.test(a.tenant)) throw new Error(`--tenant must be a tenant id (a lowercase uuid); got ${JSON.stringify(a.tenant)}.`);
        if (a.state && existsSync(a.state)) throw new Error(`${a.state} already exists; an export never overwrites a state file.`);
        // Before anything is read: the files must be writable as asked.
        for (const path of [a.out, a.imports]) if (path) refuseToWrite(path, a.overwrite);
        return true;
      })
      .example('tenantform export --tenant <id> --out main.ts --imports imports.sh', 'A cdktf app and the commands that adopt its objects')
      .example('tenantform export --tenant <id> --format json --state terraform.acme.tfstate', 'Terraform JSON and a ready state: the first plan is empty')
      .example('tenantform export --tenant <id> --format hcl --import-blocks --out acme/main.tf', 'A Terraform folder whose first plan imports everything')
      .example('tenantform export --tenant <id> --setting retention_days --setting backup_window', 'Also the own values of these two settings')
      .epilog(
        'Exported: application bindings, own tenant settings of the names given with --setting, infrastructure components the ' +
          'tenants own, own master agent update settings and usage report configurations of the tenant and every tenant below it. ' +
          'The platform interface reads a tenant setting by name only, and cannot list event subscriptions: settings of other ' +
          'names and subscriptions are not exported. Nothing on the platform changes.',
      ),
  handler: async (args) => {
    // The credentials come from the environment, as for the provider block left empty.
    const client = clientOfProviderBlock({}, process.env);
    try {
      const exp = await exportTenant(client, { tenantId: args.tenant, stack: args.stack, settingNames: args.setting ?? [] });
      report(exp.diagnostics);
      if (exp.diagnostics.some((d) => d.severity === 'error')) {
        process.stderr.write('Nothing was written: the export would be incomplete.\n');
        process.exitCode = 1;
        return;
      }
      const options = { importBlocks: args['import-blocks'] };
      const text =
        args.format === 'json'
          ? renderTerraformJson(exp, options)
          : args.format === 'hcl'
            ? renderHcl(exp, options)
            : renderTypescript(exp, projectCdkLibrary(process.cwd()), options);
      if (args.state) await writeExportState(args.state, exp);
      if (args.imports) writeNewFile(args.imports, renderImportList(exp), args.overwrite);
      if (args.out) writeNewFile(args.out, text, args.overwrite);
      else process.stdout.write(text);
      process.stderr.write(
        `Exported ${exp.objects.length} object${exp.objects.length === 1 ? '' : 's'} from ${JSON.stringify(exp.root.name)} ` +
          `and ${exp.tenants.length - 1} tenant${exp.tenants.length === 2 ? '' : 's'} below it (stack ${JSON.stringify(exp.stack)}).\n`,
      );
    } finally {
      await client.close();
    }
  },
};

function report(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) {
    const where = d.address ? `${d.address}: ` : '';
    process.stderr.write(`${d.severity === 'error' ? 'Error' : 'Warning'}: ${where}${d.summary}\n  ${redactSecrets(d.detail).replace(/\n/g, '\n  ')}\n`);
  }
}

/**
 * Writes an exported file: never over an existing file unless asked (as terraform's
 * -generate-config-out refuses), and never through a symbolic link, which would write wherever
 * it points. A file replaced is replaced whole (written beside it, then renamed over it).
 */
function writeNewFile(path: string, text: string, overwrite: boolean): void {
  const existing = refuseToWrite(path, overwrite);
  if (!existing) {
    // wx: created here, or refused if something appeared meanwhile.
    writeFileSync(path, text, { flag: 'wx' });
    return;
  }
  const beside = `${path}.tenantform-export-${process.pid}`;
  try {
    writeFileSync(beside, text, { flag: 'wx' });
    renameSync(beside, path);
  } finally {
    rmSync(beside, { force: true });
  }
}

/** Throws when the export may not write `path`; returns what is there now. */
function refuseToWrite(path: string, overwrite: boolean): Stats | undefined {
  const existing = lstatSync(path, { throwIfNoEntry: false });
  if (existing?.isSymbolicLink()) throw new Error(`${path} is a symbolic link; an export never writes through one. Name the file itself.`);
  if (existing && !overwrite) throw new Error(`${path} already exists; an export never overwrites a file. Remove it, name another, or pass --overwrite.`);
  if (existing && !existing.isFile()) throw new Error(`${path} is not a regular file; an export writes only regular files.`);
  return existing;
}
