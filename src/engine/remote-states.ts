import { BackendSettings, configuredBackend, logged } from '../backends';
import { TenantformError } from '../errors';
import type { RemoteStateRead, RemoteStateRequest } from '../config/remote-state';

/**
 * The states a configuration's `data.terraform_remote_state` blocks name, read through their
 * backends (local, pg, http) without taking their locks, as Terraform does, before the
 * configuration is evaluated.
 */

/** Reads each requested state through its backend, without its lock; a relative local path starts beside the configuration. */
export async function readRemoteStateTexts(
  requests: readonly RemoteStateRequest[],
  configDir: string,
  env: NodeJS.ProcessEnv,
): Promise<Map<string, RemoteStateRead>> {
  const reads = await Promise.all(
    requests.map(async (r): Promise<[string, RemoteStateRead]> => {
      try {
        const backend = logged(configuredBackend(new BackendSettings(r.backend, r.config, env), r.workspace, configDir));
        try {
          return [r.address, { text: await backend.read(), location: backend.location }];
        } finally {
          await backend.close();
        }
      } catch (err) {
        if (err instanceof TenantformError) return [r.address, { problem: err.detail }];
        return [r.address, { problem: (err as Error).message }];
      }
    }),
  );
  return new Map(reads);
}
