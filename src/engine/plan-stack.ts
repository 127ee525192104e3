import type { ProviderClients } from './clients';
import type { Configuration } from '../config/config';
import type { ResourceKind } from '../resources/declaration';
import type { StateStore } from '../state/state';
import { readImports } from './imports';
import { buildPlan } from './planner';
import type { PlanResult } from '../plans/model';
import { refresh } from './refresh';

/** What a plan of a stack is asked for: the flags `plan` and `apply` share. */
export interface PlanStackOptions {
  /** `-parallelism` when given (a cap); undefined: the data centers' request budgets decide (see `ProviderClients.atOnce`). */
  readonly parallelism?: number;
  /** false: take the recorded state as live (`--refresh=false`). */
  readonly refresh: boolean;
  readonly refreshOnly?: boolean;
  readonly destroy?: boolean;
  readonly targets?: readonly string[];
  readonly replace?: readonly string[];
  /** Called as each recorded object has been read. */
  readonly onRead?: (address: string) => void;
}

/**
 * Refreshes and plans a stack: every recorded object and data source read, the import blocks'
 * objects read (in a plan that changes the platform, as Terraform's), then the plan made.
 */
export async function planStack(
  stack: { configuration: Configuration; state: StateStore; clients: ProviderClients; kindOf: (type: string) => ResourceKind | undefined },
  opts: PlanStackOptions,
): Promise<PlanResult> {
  const read = await refresh({ ...stack, parallelism: opts.parallelism, refresh: opts.refresh, onRead: opts.onRead });
  const { refreshed, importing } =
    opts.refreshOnly || opts.destroy
      ? { refreshed: read, importing: undefined }
      : await readImports({ ...stack, refreshed: read, parallelism: opts.parallelism });
  return buildPlan({
    ...stack,
    refreshed,
    importing,
    targets: opts.targets ?? [],
    replace: opts.replace ?? [],
    refreshOnly: opts.refreshOnly,
    destroy: opts.destroy,
    asksPlatform: opts.refresh,
  });
}
