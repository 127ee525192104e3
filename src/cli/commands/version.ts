import type { CommandModule } from 'yargs';
import { TENANTFORM_VERSION } from '../../package-root';

interface VersionArgs {
  json: boolean;
}

/** `tenantform version`: the version and platform, as `terraform version` prints its own. */
export const versionCommand: CommandModule<object, VersionArgs> = {
  command: 'version',
  describe: 'Show the version of tenantform and the platform it runs on',
  builder: (y) => y.option('json', { type: 'boolean', default: false, describe: 'As a JSON object, for scripts' }),
  handler: (args) => {
    const platform = `${process.platform}_${process.arch === 'x64' ? 'amd64' : process.arch}`;
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ tenantform_version: TENANTFORM_VERSION, platform, node_version: process.versions.node }, null, 2)}\n`
        : `tenantform v${TENANTFORM_VERSION}\non ${platform} (Node.js ${process.versions.node})\n`,
    );
  },
};
