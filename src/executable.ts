/**
 * The entry point of tenantform's single executable (`npm run release`): one file that is the
 * `tenantform` command and, when Terraform launches it, the Terraform provider. Terraform
 * launches a provider with its handshake cookie in the environment, from a file named
 * `terraform-provider-tenantform_v<version>`; either one makes this process the provider (run
 * by hand under that name, the provider says what it is and exits).
 */
import { basename } from 'node:path';
import { MAGIC_COOKIE_KEY } from './provider/handshake';

/** The file name Terraform gives the provider's executable in a mirror or in `.terraform/providers`. */
const PROVIDER_FILE = /^terraform-provider-tenantform(_|\.exe$|$)/;

/** Whether this process serves the provider rather than run a command. */
export function servesProvider(env: NodeJS.ProcessEnv, executable: string): boolean {
  return env[MAGIC_COOKIE_KEY] !== undefined || PROVIDER_FILE.test(basename(executable));
}

if (servesProvider(process.env, process.execPath)) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./provider/main');
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  void (require('./cli/main') as typeof import('./cli/main')).main(process.argv.slice(2));
}
