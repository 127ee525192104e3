import type { CommandModule } from 'yargs';
import { PROVIDER_ADDRESS, PROVIDER_SOURCE, providerSourceAddress } from '../../resources/provider-config';
import { cliErrors } from '../errors';
import { withHelpNote } from './help-note';

interface InstallArgs {
  dir?: string;
  source?: string;
  'print-cli-config': boolean;
}

const installCommand: CommandModule<object, InstallArgs> = {
  command: 'install',
  describe: 'Put the Terraform provider into a filesystem mirror, so `terraform init` finds it offline',
  builder: (y) =>
    y
      .option('dir', { type: 'string', describe: 'Mirror directory (default: ~/.terraform.d/plugins, which Terraform searches by itself)' })
      .option('source', {
        type: 'string',
        describe: 'The source address the configuration names, e.g. registry.example.com/platform-team/tenantform (default: tenantform/tenantform)',
      })
      .option('print-cli-config', {
        type: 'boolean',
        default: false,
        describe: 'Print a Terraform CLI configuration that uses the mirror (save it and point TF_CLI_CONFIG_FILE at it)',
      })
      .example('tenantform provider install', 'Install into ~/.terraform.d/plugins; then `terraform init`')
      .example('tenantform provider install --dir ./mirror --print-cli-config > tf.rc', 'Use a mirror of its own with TF_CLI_CONFIG_FILE=tf.rc')
      .example(
        'tenantform provider install --source registry.example.com/platform-team/tenantform',
        'For a stack whose required_providers names a private registry',
      ),
  handler: async (args) => {
    // The single executable has no package folder to point a launcher at; the release is its mirror.
    if ((await import('node:sea')).isSea()) throw cliErrors.providerInstallInSingleExecutable();
    const { installProvider, cliConfig } = await import('../../provider/install');
    const address = args.source === undefined ? PROVIDER_ADDRESS : providerSourceAddress(args.source);
    if (address === undefined) throw cliErrors.invalidProviderSource(args.source!);
    const installed = installProvider({ dir: args.dir, address });
    process.stderr.write(`Installed tenantform provider ${installed.version} (${installed.platform}) at ${installed.executable}\n`);
    if (args['print-cli-config']) process.stdout.write(cliConfig(installed.mirror, address));
    else process.stderr.write(`Next: \`terraform init\` in a directory whose configuration uses source = "${args.source ?? PROVIDER_SOURCE}".\n`);
  },
};

/** `tenantform provider ...`: the Terraform provider that drives the same resource modules. */
export const providerCommand: CommandModule<object, object> = {
  command: 'provider',
  describe: 'Manage the Terraform provider (plugin protocol 6) for terraform and cdktf deploy',
  builder: (y) => y.command(withHelpNote(installCommand)).demandCommand(1, 'Name a provider command, e.g. `tenantform provider install`.'),
  handler: () => undefined,
};
