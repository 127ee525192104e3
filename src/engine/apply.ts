import type { Diagnostic } from '../diagnostics';
import type { ProviderClients } from './clients';
import type { ResourceKind, State } from '../resources/declaration';
import type { Action } from '../resources/plan';
import { isGroupNode, dependencies, type Configuration } from '../config/config';
import { applyGraph, batchedType, batchMembers } from './apply-graph';
import { runInOrder } from '../graph/graph';
import type { Plan } from '../plans/model';
import type { Progress } from './progress';
import { lookupIn, withSensitiveMarks } from '../config/evaluate';
import { StateJournal } from '../state/journal';
import { evaluateOutputs, recordedOutputs } from './outputs';
import { checkWarnings } from '../config/checks';
import { contextFor } from '../config/expression-scope';
import type { StateStore } from '../state/state';
import type { ApplyChange, ApplyContext, ApplyInput } from './apply/context';
import { recordRefreshed } from './apply/refreshed';
import { createObject } from './apply/create';
import { updateObject } from './apply/update';
import { destroyObject } from './apply/destroy';
import { replaceObject } from './apply/replace';
import { readDataNow } from './apply/read';
import { writeBatch } from './apply/batch';

export interface ApplyOptions {
  readonly plan: Plan;
  /** Data source values the plan was made with. */
  readonly data: Readonly<Record<string, State>>;
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly clients: ProviderClients;
  /** `-parallelism` when given (a cap); undefined: the data centers' request budgets decide (see `ProviderClients.atOnce`). */
  readonly parallelism?: number;
  readonly kindOf: (type: string) => ResourceKind | undefined;
  readonly progress: Progress;
}

export interface ApplyResult {
  readonly added: number;
  readonly changed: number;
  readonly destroyed: number;
  /** Objects adopted by import blocks: recorded from what the plan read, before anything is sent. */
  readonly imported?: number;
  readonly diagnostics: Diagnostic[];
}

/** The work of each planned action, one file each in apply/. A no-op has none (it is no node of the apply graph). */
const APPLY: Record<Action, ApplyChange> = {
  create: createObject,
  update: updateObject,
  delete: destroyObject,
  replace: replaceObject,
  'no-op': () => Promise.resolve(true),
};

/**
 * Applies a plan: dependency order (deletes in reverse), as many at a time as `parallelism` (or,
 * without it, the request budgets) allow, the state written as each object completes. A failure stops only what depends on it; everything
 * that succeeded stays recorded.
 */
export async function applyPlan(opts: ApplyOptions): Promise<ApplyResult> {
  const { configuration, state } = opts;
  const input: ApplyInput = {
    configuration,
    state,
    clients: opts.clients,
    kindOf: opts.kindOf,
    changes: new Map(opts.plan.changes.filter((c) => c.mode === 'managed').map((c) => [c.address, c])),
    configDeps: dependencies(configuration),
  };
  const imported = await recordRefreshed(input, opts.plan, opts.data);
  // A refresh-only plan changes nothing on the platform: recording what was read is all of it.
  if (opts.plan.refreshOnly) return { added: 0, changed: 0, destroyed: 0, diagnostics: [] };
  const values = plannedValues(input, opts.data);
  // Each finished object is appended to a journal beside the state; the state is written at the end.
  const journal = await StateJournal.begin(state);
  let result: ApplyResult;
  try {
    const ctx: ApplyContext = {
      ...input,
      progress: opts.progress,
      journal,
      values,
      lookup: lookupIn(configuration, values),
      counts: { added: 0, changed: 0, destroyed: 0 },
      diagnostics: [],
      gates: new Map(),
    };
    await walk(ctx, opts.data, opts.parallelism);
    result = { ...ctx.counts, imported, diagnostics: ctx.diagnostics };
  } finally {
    await journal.finish();
  }
  await recordOutputs(opts, values);
  // Check blocks again, with what was applied: a warning for each assertion that fails now.
  if (!opts.plan.destroy) result.diagnostics.push(...checkWarnings(configuration.checks, contextFor(configuration, values)));
  return result;
}

/** What expressions see before anything is applied: the data sources, and each object as planned. */
function plannedValues(input: ApplyInput, data: Readonly<Record<string, State>>): Map<string, State> {
  const values = new Map<string, State>(Object.entries(data));
  for (const c of input.changes.values()) values.set(c.address, withSensitiveMarks(c.after ?? c.before ?? {}, c.sensitive));
  return values;
}

/** Runs the apply graph; what was not applied because something it depends on failed is said so. */
async function walk(ctx: ApplyContext, knownData: Readonly<Record<string, State>>, parallelism: number | undefined): Promise<void> {
  const nodes = applyGraph({
    changes: ctx.changes,
    configDeps: ctx.configDeps,
    recorded: ctx.state.objects(),
    knownData,
    writesInBatch: (type) => ctx.kindOf(type)?.writeBatch !== undefined,
    isGroupNode: (address) => isGroupNode(ctx.configuration, address),
  });
  const { failed, skipped } = await runInOrder(nodes, ctx.clients.atOnce(parallelism), (node) => applyNode(ctx, node));
  for (const node of skipped) {
    for (const address of membersOf(ctx, node)) {
      ctx.diagnostics.push({
        severity: 'warning',
        summary: 'Not applied',
        detail: `${address} was not applied because something it depends on failed. Fix the errors and apply again.`,
        address,
      });
    }
  }
  if (failed.length > 0 && !ctx.diagnostics.some((d) => d.severity === 'error')) {
    ctx.diagnostics.push({ severity: 'error', summary: 'Apply failed', detail: `Failed: ${failed.join(', ')}.` });
  }
}

async function applyNode(ctx: ApplyContext, node: string): Promise<boolean> {
  const type = batchedType(node);
  if (type !== undefined)
    return writeBatch(
      ctx,
      ctx.kindOf(type)!,
      membersOf(ctx, node).map((a) => ctx.changes.get(a)!),
    );
  const change = ctx.changes.get(node);
  // A group node succeeds with its instances; any other node without a change is a data source read only now.
  if (!change) return isGroupNode(ctx.configuration, node) || readDataNow(ctx, node);
  return APPLY[change.action](ctx, change);
}

function membersOf(ctx: ApplyContext, node: string): string[] {
  const type = batchedType(node);
  if (type === undefined) return isGroupNode(ctx.configuration, node) ? [] : [node];
  return batchMembers(ctx.changes, type);
}

/** Output values that are known now, recorded as Terraform records them (also after a partial apply). */
async function recordOutputs(opts: ApplyOptions, values: ReadonlyMap<string, State>): Promise<void> {
  if (opts.plan.destroy) {
    opts.state.setOutputs({});
    await opts.state.save();
    return;
  }
  const { values: outputs } = evaluateOutputs(opts.configuration, values);
  const known = recordedOutputs(outputs);
  // An output not known now keeps its recorded value until it can be evaluated.
  const previous = opts.state.outputs();
  const kept = Object.fromEntries([...outputs.keys()].filter((n) => !(n in known) && n in previous).map((n) => [n, previous[n]]));
  opts.state.setOutputs({ ...kept, ...known });
  await opts.state.save();
}
