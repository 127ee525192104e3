import { readFileSync } from 'node:fs';
import { readInputFile } from '../../input-file';
import type { CommandModule } from 'yargs';
import { checkPush } from '../../backends/push';
import { stateCommandErrors } from '../errors';
import { withLockedBackend } from '../../engine/session';
import { parseState, type StateStore } from '../../state/state';
import type { StateBackend } from '../../backends/types';
import { backendOf, lockFlags, stateFlags, stateLockFlags, type LockArgs, type StateArgs } from './shared';
import { isModulePath, parseInstanceAddress } from '../../state/addresses';
import { isWithinModule } from '../../config/moves';

/** Terraform's lock records name state subcommands this way. */
const OPERATION = 'OperationTypeInvalid';

/** Changes the state of the stack's backend under its lock, as Terraform's state subcommands do. */
async function editState(args: StateArgs & LockArgs, edit: (state: StateStore, backend: StateBackend) => Promise<void>): Promise<void> {
  const backend = await backendOf(args);
  return withLockedBackend(backend, OPERATION, (state) => edit(state, backend), stateLockFlags(args));
}

interface PushArgs extends StateArgs, LockArgs {
  file: string;
  force: boolean;
}

export const statePushCommand: CommandModule<object, PushArgs> = {
  command: 'push <file>',
  describe: "Replace the backend's state with FILE ('-' for stdin); refuses another lineage or an older serial unless --force",
  builder: (y) =>
    lockFlags(stateFlags(y))
      .positional('file', { type: 'string', demandOption: true })
      .option('force', { type: 'boolean', default: false, describe: 'Write it even when its lineage differs or its serial is older' }),
  handler: async (args) => {
    const text = args.file === '-' ? readFileSync(0, 'utf8') : readPushedFile(args.file);
    const pushed = parseState(args.file, text);
    await editState(args, async (state, backend) => {
      const decision = checkPush(state.existed ? state.snapshot() : undefined, pushed, args.force);
      if ('refused' in decision) throw stateCommandErrors.pushRefused(args.file, decision.refused);
      await state.overwrite(decision.write);
      process.stdout.write(`Pushed ${args.file} to ${backend.location} (serial ${decision.write.serial}, lineage ${decision.write.lineage}).\n`);
    });
  },
};

function readPushedFile(file: string): string {
  try {
    return readInputFile(file);
  } catch (err) {
    throw stateCommandErrors.pushUnreadable(file, (err as Error).message);
  }
}

interface RmArgs extends StateArgs, LockArgs {
  addresses: string[];
  'dry-run'?: boolean;
}

/** `-dry-run`, as terraform's state rm and mv take it: what would change, the state left as it is. */
const DRY_RUN = { type: 'boolean', default: false, describe: 'Say what would change, and change nothing' } as const;

export const stateRmCommand: CommandModule<object, RmArgs> = {
  command: 'rm <addresses..>',
  describe: 'Forget objects (or every object of a module): they stay on the platform, no longer managed by this stack',
  builder: (y) => lockFlags(stateFlags(y)).option('dry-run', DRY_RUN).positional('addresses', { type: 'string', array: true, demandOption: true }),
  handler: async (args) => {
    await editState(args, async (state, backend) => {
      // An interrupted create is recorded too (as pending): forgetting it stops the search for its object.
      const isPending = (address: string) => state.pending().some((p) => p.address === address);
      // A module's address names every object recorded inside it, as in terraform.
      const inModule = (module: string) =>
        state
          .objects()
          .filter((o) => isWithinModule(o.address, module))
          .map((o) => o.address);
      // So does a repeated block's address (count, for_each) every instance of it.
      const expanded = (a: string) =>
        isModulePath(a) && inModule(a).length > 0 ? inModule(a) : !state.get(a) && state.instancesOf(a).length > 0 ? state.instancesOf(a) : [a];
      const addresses = args.addresses.flatMap(expanded);
      for (const address of addresses) if (!state.get(address) && !isPending(address)) throw stateCommandErrors.notInState(address, backend.location);
      if (args['dry-run']) {
        for (const address of addresses) process.stdout.write(`Would remove ${address}\n`);
        return;
      }
      for (const address of addresses) {
        if (state.get(address)) state.remove(address);
        state.removePending(address);
        state.setProtected(address, false);
      }
      await state.save();
      for (const address of addresses) process.stdout.write(`Removed ${address}\n`);
      process.stdout.write(`Successfully removed ${addresses.length} resource instance(s).\n`);
    });
  },
};

interface MvArgs extends StateArgs, LockArgs {
  from: string;
  to: string;
  'dry-run'?: boolean;
}

export const stateMvCommand: CommandModule<object, MvArgs> = {
  command: 'mv <from> <to>',
  describe: 'Record an object under another address of the same type (after renaming it in the configuration)',
  builder: (y) =>
    lockFlags(stateFlags(y))
      .option('dry-run', DRY_RUN)
      .positional('from', { type: 'string', demandOption: true })
      .positional('to', { type: 'string', demandOption: true }),
  handler: async (args) => {
    const [from, to] = [args.from, args.to].map((address) => {
      const parsed = parseInstanceAddress(address);
      if (!parsed) throw stateCommandErrors.invalidAddress(address);
      return parsed;
    });
    if (from.mode !== to.mode || from.type !== to.type) throw stateCommandErrors.moveTypeMismatch(args.from, args.to);
    // An instance (a key on either side) moves alone; a block, into or out of modules too, moves with all its instances.
    const oneInstance = from.key !== undefined || to.key !== undefined;
    await editState(args, async (state, backend) => {
      const moving = oneInstance || state.get(args.from) ? (state.get(args.from) ? [args.from] : []) : state.instancesOf(args.from);
      if (moving.length === 0) throw stateCommandErrors.notInState(args.from, backend.location);
      if (state.get(args.to) || (!oneInstance && state.instancesOf(args.to).length > 0)) throw stateCommandErrors.moveTargetExists(args.to);
      if (args['dry-run']) {
        process.stdout.write(`Would move "${args.from}" to "${args.to}"\n`);
        return;
      }
      if (oneInstance) state.moveInstance(args.from, args.to);
      else state.move(args.from, args.to);
      await state.save();
      process.stdout.write(`Move "${args.from}" to "${args.to}"\nSuccessfully moved ${moving.length} object(s).\n`);
    });
  },
};
