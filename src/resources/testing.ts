/** Helpers for the kinds' tests that run against the emulator (kinds/ holds kinds only: the registry is made from it). */
import { PlatformClient } from '../api';
import { startEmulator, type RunningEmulator } from '../emulator';

export interface EmulatorClient {
  readonly emulator: RunningEmulator;
  readonly client: PlatformClient;
}

/** An emulator and a platform client on it, started before the tests of a `describe` and closed after them. */
export function useEmulatorClient(seed = 1): EmulatorClient {
  const held: { emulator?: RunningEmulator; client?: PlatformClient } = {};
  beforeAll(async () => {
    const emulator = await startEmulator({ port: 0, seed });
    held.emulator = emulator;
    held.client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  });
  afterAll(async () => {
    await held.client?.close();
    await held.emulator?.close();
  });
  return {
    get emulator() {
      return held.emulator!;
    },
    get client() {
      return held.client!;
    },
  };
}
