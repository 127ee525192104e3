import type { CommandModule } from 'yargs';
import { demoCommand } from './demo';
import { destroyCommand } from './destroy';
import { doctorCommand } from './doctor';
import { driftCommand } from './drift';
import { applyCommand } from './apply';
import { emulatorCommand } from './emulator';
import { exportCommand } from './export';
import { forceUnlockCommand } from './force-unlock';
import { stateCommand } from './state';
import { workspaceCommand } from './workspace';
import { importCommand } from './import';
import { planCommand } from './plan';
import { providerCommand } from './provider';
import { versionCommand } from './version';
import { outputCommand } from './output';
import { validateCommand } from './validate';
import { showCommand } from './show';
import { withHelpNote } from './help-note';

/** Every `tenantform` command, one module each; add a command here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const COMMANDS: ReadonlyArray<CommandModule<any, any>> = [
  emulatorCommand,
  demoCommand,
  providerCommand,
  exportCommand,
  doctorCommand,
  planCommand,
  applyCommand,
  destroyCommand,
  driftCommand,
  importCommand,
  forceUnlockCommand,
  stateCommand,
  workspaceCommand,
  versionCommand,
  outputCommand,
  validateCommand,
  showCommand,
].map(withHelpNote);
