import type { CommandModule } from 'yargs';
import { demoCommand } from './demo';
import { emulatorCommand } from './emulator';

/** Every `tenantform` command, one module each; add a command here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMMANDS: ReadonlyArray<CommandModule<any, any>> = [emulatorCommand, demoCommand];
