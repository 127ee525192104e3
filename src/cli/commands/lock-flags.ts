import type { Argv } from 'yargs';
import { parseDuration } from '../../backends/acquire';
import type { StateLockFlags } from '../../engine/session';

/** `--lock` and `--lock-timeout`, as Terraform's `-lock` and `-lock-timeout`. */
export interface LockArgs {
  lock: boolean;
  'lock-timeout': string;
}

export function lockFlags<T>(y: Argv<T>): Argv<T & LockArgs> {
  return y
    .option('lock', {
      type: 'boolean',
      default: true,
      describe: 'Hold the state lock while running (shared with terraform on the same backend); --lock=false skips it, as terraform -lock=false',
    })
    .option('lock-timeout', {
      type: 'string',
      default: '0s',
      describe: 'How long to wait for a lock held by another run (e.g. 30s, 5m) before failing with its holder named',
    })
    .check((a) => {
      if (parseDuration(String(a['lock-timeout'])) === undefined) throw new Error(`--lock-timeout: "${String(a['lock-timeout'])}" is not a duration (e.g. 0s, 30s, 5m).`);
      return true;
    }) as unknown as Argv<T & LockArgs>;
}

export function stateLockFlags(args: LockArgs): StateLockFlags {
  return { lock: args.lock, lockTimeoutMs: parseDuration(args['lock-timeout']) ?? 0 };
}
