/** The local stand-in for the platform: a real HTTP server with a seeded world and fault injection. */
export { startEmulator, emulatorEnvLines, exchangeChannel, arrivalChannel } from './server';
export type { Arrival, EmulatorOptions, Exchange, RunningEmulator } from './server';
export type { WorldSummary } from './control';
export type { Faults } from './faults';
export { DEFAULT_FAULTS } from './faults';
