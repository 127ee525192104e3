import type { CommandModule } from 'yargs';
import { describeHolder } from '../../backends/lock-info';
import { stackBackend } from '../../engine/session';

interface ForceUnlockArgs {
  id: string;
  stack?: string;
  config?: string;
  state?: string;
  force: boolean;
}

export const forceUnlockCommand: CommandModule<object, ForceUnlockArgs> = {
  command: 'force-unlock <id>',
  describe: 'Remove the state lock left by a run that stopped (the id is in the "state is locked" error)',
  builder: (y) =>
    y
      .positional('id', { type: 'string', demandOption: true, describe: 'The ID of the lock to remove' })
      .option('stack', { type: 'string', describe: 'The cdktf stack whose state is locked' })
      .option('config', {
        type: 'string',
        describe: 'A folder of Terraform files (.tf, .tf.json), or a Terraform JSON file, used instead of the synthesized stack',
      })
      .option('state', { type: 'string', describe: "State file of the local backend (default: the stack's backend)" })
      // terraform asks before unlocking and -force skips the question; tenantform never asks.
      .option('force', { type: 'boolean', default: false, describe: "Accepted as terraform's -force: tenantform force-unlock never asks" })
      .example('tenantform force-unlock 6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b', 'Only when no other run is active'),
  handler: async (args) => {
    const backend = await stackBackend({ cwd: process.cwd(), stack: args.stack, config: args.config, state: args.state, env: process.env });
    try {
      const outcome = await backend.forceUnlock(args.id);
      process.stdout.write(
        'removed' in outcome
          ? `Removed the lock ${args.id} (${describeHolder(outcome.removed)}) from ${backend.location}.\n`
          : `${backend.location} accepted the unlock of ${args.id}. Its protocol does not say whether a lock with that ID was held: if a run still reports the state locked, check the ID in its message.\n`,
      );
    } finally {
      await backend.close();
    }
  },
};
