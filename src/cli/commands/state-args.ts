import type { Argv } from 'yargs';
import type { StateBackend } from '../../backends';
import { stackBackend } from '../../engine/session';

/** Where the state is: the flags every `state` subcommand shares. */
export interface StateArgs {
  stack?: string;
  config?: string;
  state?: string;
}

export function stateFlags<T>(y: Argv<T>): Argv<T & StateArgs> {
  return y
    .option('stack', { type: 'string', describe: 'The cdktf stack to use (needed when cdktf.out holds several)' })
    .option('config', { type: 'string', describe: 'A Terraform JSON file to use instead of the synthesized stack' })
    .option('state', { type: 'string', describe: "State file of the local backend (default: the stack's terraform.backend)" }) as unknown as Argv<T & StateArgs>;
}

/** The stack's backend, from its `terraform.backend`. */
export function backendOf(args: StateArgs): StateBackend {
  return stackBackend({ cwd: process.cwd(), stack: args.stack, config: args.config, state: args.state, env: process.env });
}

/** A resource address: TYPE.NAME or data.TYPE.NAME. */
export const RESOURCE_ADDRESS = /^(data\.)?[a-zA-Z_][\w-]*\.[a-zA-Z_][\w-]*$/;
