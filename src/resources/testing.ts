/** Helpers for the kinds' tests that run against the emulator (kinds/ holds kinds only: the registry is made from it). */
import { PlatformClient } from '../api';
import { startEmulator, type RunningEmulator } from '../emulator';
import { attributeList, type Attribute, type Attributes } from './attributes';
import type { StateOf } from './models';

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

/**
 * `value` with the type the kind's attributes give its state, once it is checked to have that
 * shape: every attribute of its type, null only where it may be unset (the test fails otherwise).
 */
export function stateOf<As extends Attributes>(kind: { readonly attributes: As }, value: unknown): StateOf<As> {
  if (!isStateOf(kind.attributes, value)) throw new Error(`Not a state of these attributes: ${JSON.stringify(value)}`);
  return value;
}

function isStateOf<As extends Attributes>(attributes: As, value: unknown): value is StateOf<As> {
  if (value === null || typeof value !== 'object') return false;
  const members = new Map(Object.entries(value));
  return attributeList(attributes).every(({ name, attribute }) => fits(attribute, members.get(name)));
}

function fits(a: Attribute, v: unknown): boolean {
  if (v === null) return a.mode !== 'required' && a.default === undefined && a.key !== true;
  switch (a.type) {
    case 'string':
    case 'json':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number';
    case 'bool':
      return typeof v === 'boolean';
    case 'list':
      return Array.isArray(v) && v.every((item) => typeof item === 'string');
    case 'object':
      return isStateOf(a.attributes, v);
    case 'nested': {
      const items =
        a.nesting === 'map' ? (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.values(v) : undefined) : Array.isArray(v) ? v : undefined;
      return items !== undefined && items.every((item) => isStateOf(a.attributes, item));
    }
  }
}
