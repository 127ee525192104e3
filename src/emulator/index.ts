/** The local stand-in for the platform: a real HTTP server with a seeded world and fault injection. */
export { startEmulator, emulatorEnvLines } from './server';
export type { EmulatorOptions, RunningEmulator } from './server';
export { exchangeChannel, arrivalChannel, type Arrival, type Exchange } from './channels';
export type { WorldSummary } from './control';
export type { Faults } from './faults';
export { DEFAULT_FAULTS } from './faults';
