import type { Diagnostic } from '../../diagnostics';
import type { ProviderClients } from '../clients';
import type { ResourceKind, State } from '../../resources/declaration';
import type { CreateGate } from '../adoption';
import type { Configuration } from '../../config/config';
import type { DependencyMap } from '../../graph/graph';
import type { PlannedChange } from '../../plans/model';
import type { Progress, Step } from '../progress';
import { withSensitiveMarks, type Known } from '../../config/evaluate';
import type { StateJournal } from '../../state/journal';
import type { StateStore } from '../../state/state';

/** What an apply is given: the plan's changes, and the configuration, state and clients they apply to. */
export interface ApplyInput {
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly clients: ProviderClients;
  readonly kindOf: (type: string) => ResourceKind | undefined;
  /** The plan's changes of managed objects, by address. */
  readonly changes: ReadonlyMap<string, PlannedChange>;
  /** The configuration's dependencies. */
  readonly configDeps: DependencyMap;
}

/** What an apply counts, as Terraform's summary does. */
export interface ApplyCounts {
  added: number;
  changed: number;
  destroyed: number;
}

/**
 * What the work of one node of the apply graph is handed by the run: everything it reads and
 * everything it writes (the values, the state through its journal, the counts, the problems).
 */
export interface ApplyContext extends ApplyInput {
  readonly progress: Progress;
  /** Makes each recorded object durable as it completes. */
  readonly journal: StateJournal;
  /** What expressions see: data sources, and each object as planned, then as applied (with its sensitive marks). */
  readonly values: Map<string, State>;
  /** References resolved in `values`. */
  readonly lookup: Known;
  readonly counts: ApplyCounts;
  /** What failed, and why; the run adds what was not applied because of it. */
  readonly diagnostics: Diagnostic[];
  /** One per kind and data center whose creates cannot be repeated blindly. */
  readonly gates: Map<string, CreateGate>;
}

/** The work one planned change needs; false when it failed, so that what depends on it is not applied. */
export type ApplyChange = (ctx: ApplyContext, change: PlannedChange) => Promise<boolean>;

export function dependenciesOf(input: Pick<ApplyInput, 'configDeps' | 'state'>, address: string): string[] {
  return [...(input.configDeps.get(address) ?? input.state.get(address)?.dependencies ?? [])];
}

/** Arguments given a sensitive value (not those the kind declares sensitive, which Terraform knows from the schema). */
export function sensitiveArguments(input: Pick<ApplyInput, 'changes' | 'kindOf'>, address: string): string[] {
  const c = input.changes.get(address);
  const kind = c ? input.kindOf(c.type) : undefined;
  return (c?.sensitive ?? []).filter((n) => !kind?.attributes[n]?.sensitive);
}

/** Records an object as the platform answered it: in the values expressions see, and durably in the state. */
export async function recordApplied(ctx: ApplyContext, address: string, kind: ResourceKind, value: State): Promise<void> {
  ctx.values.set(address, withSensitiveMarks(value, ctx.changes.get(address)?.sensitive ?? []));
  ctx.state.put(address, kind, value, dependenciesOf(ctx, address), ctx.clients.providerOf(address), sensitiveArguments(ctx, address));
  ctx.state.removePending(address);
  await ctx.journal.durable();
}

export function fail(ctx: ApplyContext, step: Step, diagnostics: readonly Diagnostic[]): false {
  return failAll(ctx, [step], diagnostics);
}

export function failAll(ctx: ApplyContext, steps: readonly Step[], diagnostics: readonly Diagnostic[]): false {
  for (const s of steps) s.failed();
  ctx.diagnostics.push(...diagnostics);
  return false;
}
