import type { Diagnostic } from '../diagnostics';
import type { ProviderClients } from './clients';
import { type TenantformError } from '../errors';
import { engineErrors } from './errors';
import type { DataSourceKind, OperationContext, ResourceKind, State } from '../resources/declaration';
import { readDataSource } from '../resources/operations';
import { planResource } from '../resources/plan';
import { containsUnknown } from '../resources/values';
import { dependencies, objectDependencies, type Configuration, type DeclaredObject } from '../config/config';
import { dependencyOrder } from '../graph/graph';
import type { DriftedResource, Plan, PlannedChange, PlanResult } from '../plans/model';
import { blockOf, isDataAddress, parseInstanceAddress } from '../state/addresses';
import { evaluateArguments, lookupIn, withSensitiveMarks, type Known } from '../config/evaluate';
import { evaluateOutputs, localsDiagnostics, outputChanges } from './outputs';
import type { Refreshed } from './refresh';
import type { StateStore } from '../state/state';
import { movesCarriedOut, movesSkipped } from './moves';
import { checkWarnings, conditionErrors } from '../config/checks';
import { contextFor, withSelf } from '../config/expression-scope';
import { acceptedLive, plannedChange, unknownObject, withMarks } from './planner/changes';
import { driftOf } from './planner/drift';
import { selectTargets } from './planner/targets';

export { seenOf } from './planner/changes';

export interface PlanOptions {
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly refreshed: Refreshed;
  readonly clients: ProviderClients;
  /** `--target`: only these addresses and what they depend on. */
  readonly targets: readonly string[];
  readonly kindOf: (type: string) => ResourceKind | undefined;
  /** `--refresh-only`: no actions; applying the plan records the live objects in the state. */
  readonly refreshOnly?: boolean;
  /** `destroy` / `plan -destroy`: every recorded object (within the targets and what depends on them) is deleted. */
  readonly destroy?: boolean;
  /** `-replace`: these objects are replaced although nothing forces it. */
  readonly replace?: readonly string[];
  /** Objects the `import` blocks adopt (read into `refreshed.live`), by address: their import ids. */
  readonly importing?: ReadonlyMap<string, string>;
  /**
   * Whether the kinds may ask the platform what only it knows (a name a sibling has, the items a
   * tenant is offered). Not with `-refresh=false`: a state and a configuration alone plan offline.
   */
  readonly asksPlatform?: boolean;
}

/** A recorded managed object, as the plan reads it. */
interface RecordedManaged {
  readonly address: string;
  readonly type: string;
  readonly name: string;
  readonly attributes: State;
  readonly tainted?: boolean;
  readonly sensitive?: readonly string[];
}

/** What the phases of a plan share: what each reads, and what each adds to. */
interface Planning {
  readonly opts: PlanOptions;
  readonly recorded: ReadonlyMap<string, RecordedManaged>;
  /** The addresses the plan covers (`--target` and what it reaches; every address without it). */
  readonly selected: Pick<ReadonlySet<string>, 'has'>;
  readonly diagnostics: Diagnostic[];
  /** What expressions see: data sources, objects outside the targets, then each object as planned. */
  readonly values: Map<string, State>;
  readonly lookup: Known;
  /** Each planned object's action: a data source depending on an object that changes is read only after apply. */
  readonly actions: Map<string, string>;
  readonly changes: PlannedChange[];
  /** Data source values known at plan time, as the plan keeps them for apply. */
  readonly data: Record<string, State>;
  /** `-replace`. */
  readonly requestedReplacements: ReadonlySet<string>;
  /** Where the kinds ask the platform their plan-time questions (answers shared); undefined when planning offline. */
  readonly ctxOf: (address: string) => OperationContext | undefined;
}

/** Makes a plan, one phase after another; the diagnostics keep the order in which the phases find them. */
export async function buildPlan(opts: PlanOptions): Promise<PlanResult> {
  const diagnostics: Diagnostic[] = [...opts.refreshed.diagnostics];
  const recorded = recordedObjects(opts.state, opts.refreshed);
  const selected = selectTargets(opts, opts.configuration, recorded, diagnostics);
  const planning = startPlanning(opts, recorded, selected, diagnostics);
  checkReplaceRequests(planning);
  await planDeclared(planning);
  await planUndeclared(planning);
  planRefreshOnly(planning);
  const drift = driftOfRecorded(planning);
  const outputs = evaluateOutputsAndChecks(planning);
  const changes = withPreviousAddresses(planning.changes, opts.state, diagnostics);
  warnForgotten(changes, diagnostics);
  return { plan: planOf(opts, changes, drift, outputs.values, diagnostics), data: planning.data };
}

/** The state's managed objects, with the interrupted creates the refresh adopted. */
function recordedObjects(state: StateStore, refreshed: Refreshed): Map<string, RecordedManaged> {
  const recorded = new Map<string, RecordedManaged>(
    state
      .objects()
      .filter((o) => o.mode === 'managed')
      .map((o) => [o.address, o]),
  );
  // An adopted interrupted create is recorded from now on: removed from the configuration, it is deleted.
  for (const address of refreshed.adopted) {
    const { type, name } = parseInstanceAddress(address) ?? { type: address, name: address };
    if (!recorded.has(address)) recorded.set(address, { address, type, name, attributes: refreshed.live.get(address)! });
  }
  return recorded;
}

function startPlanning(
  opts: PlanOptions,
  recorded: ReadonlyMap<string, RecordedManaged>,
  selected: Pick<ReadonlySet<string>, 'has'>,
  diagnostics: Diagnostic[],
): Planning {
  const { configuration, refreshed } = opts;
  // The kinds' plan-time questions (many creates under one parent) share their answers.
  const asking = opts.asksPlatform === false ? undefined : opts.clients.withSharedReads();
  const values = new Map<string, State>(refreshed.data);
  // A targeted plan leaves the other objects as they are: expressions (outputs) see them so, as in Terraform.
  if (opts.targets.length > 0) {
    for (const [address, o] of recorded) {
      if (!selected.has(address) && configuration.objects.has(address)) values.set(address, refreshed.live.get(address) ?? o.attributes);
    }
  }
  return {
    opts,
    recorded,
    selected,
    diagnostics,
    values,
    lookup: lookupIn(configuration, values),
    actions: new Map(),
    changes: [],
    data: Object.fromEntries(refreshed.data),
    requestedReplacements: new Set(opts.replace ?? []),
    ctxOf: (address) => asking?.ctx(address),
  };
}

/** `-replace` names a managed instance both declared and recorded. */
function checkReplaceRequests({ opts, recorded, requestedReplacements, diagnostics }: Planning): void {
  for (const address of requestedReplacements) {
    const parsed = parseInstanceAddress(address);
    if (!parsed || parsed.mode !== 'managed') diagnostics.push(engineErrors.invalidReplaceAddress(address).toDiagnostic());
    else if (!opts.configuration.objects.has(address) || !recorded.has(address)) diagnostics.push(engineErrors.nothingToReplace(address));
  }
}

/** Each declared object in dependency order: a data source read when it can be now, a resource diffed against the live object. */
async function planDeclared(planning: Planning): Promise<void> {
  const { opts, diagnostics } = planning;
  let order: string[] = [];
  try {
    order = dependencyOrder(dependencies(opts.configuration));
  } catch (err) {
    diagnostics.push((err as TenantformError).toDiagnostic());
  }
  for (const address of order) {
    const o = opts.configuration.objects.get(address);
    if (!o || !planning.selected.has(address) || opts.refreshOnly || opts.destroy) continue; // a group node plans nothing
    if (o.mode === 'data') await planDataSource(planning, o);
    else await planResourceChange(planning, o);
  }
}

/** A data source the refresh could not read (its arguments reference managed objects): read now, or known only after apply. */
async function planDataSource(planning: Planning, o: DeclaredObject): Promise<void> {
  const { opts, values } = planning;
  const address = o.address;
  if (values.has(address)) return;
  const value = opts.refreshed.unreadable?.has(address)
    ? undefined
    : await readLateDataSource(o, opts.configuration, planning.actions, planning.lookup, opts.clients, planning.diagnostics);
  values.set(address, value ?? unknownObject(o.kind.attributes));
  if (value) planning.data[address] = value;
}

/** A declared resource's change: its arguments evaluated, its conditions checked, the diff against the live object. */
async function planResourceChange(planning: Planning, o: DeclaredObject): Promise<void> {
  const { opts, values, diagnostics, recorded } = planning;
  const { configuration, refreshed } = opts;
  const address = o.address;
  const kind = o.kind as ResourceKind;
  const prior = refreshed.live.get(address) ?? null;
  const evaluated = evaluateArguments(o, planning.lookup);
  if (evaluated.diagnostics.length > 0) {
    diagnostics.push(...evaluated.diagnostics);
    values.set(address, unknownObject(o.kind.attributes));
    return;
  }
  const config = evaluated.config;
  // Preconditions hold before the object is planned; a false one stops its plan, as in Terraform.
  const preconditions = o.conditions.pre.length === 0 ? [] : conditionErrors('precondition', o.conditions.pre, contextFor(configuration, values, o), address);
  if (preconditions.length > 0) {
    diagnostics.push(...preconditions);
    values.set(address, unknownObject(o.kind.attributes));
    return;
  }
  // A tainted object is replaced, as Terraform replaces it, whatever its arguments say; so is one named by -replace.
  const tainted = prior !== null && recorded.get(address)?.tainted === true;
  const requested = prior !== null && !tainted && planning.requestedReplacements.has(address);
  const r = await planResource({
    kind,
    address,
    config,
    prior,
    ignoreChanges: o.ignoreChanges,
    replace: tainted || requested,
    ctx: planning.ctxOf(address),
  });
  diagnostics.push(...r.diagnostics);
  if (r.action === 'replace' && o.preventDestroy) diagnostics.push(engineErrors.preventDestroy(address, 'replace').toDiagnostic());
  planning.actions.set(address, r.action);
  values.set(address, withSensitiveMarks(r.planned ?? {}, evaluated.sensitive));
  // Postconditions see the planned object as self; one that needs a value known only after apply waits for it.
  if (r.planned && o.conditions.post.length > 0)
    diagnostics.push(...conditionErrors('postcondition', o.conditions.post, withSelf(contextFor(configuration, values, o), kind, r.planned), address));
  const reason = tainted ? ('replace_because_tainted' as const) : requested && r.action === 'replace' ? ('replace_by_request' as const) : undefined;
  const importId = opts.importing?.get(address);
  const planned = plannedChange(o, kind, prior, r);
  const change =
    reason === undefined && importId === undefined
      ? planned
      : { ...planned, ...(reason ? { actionReason: reason } : {}), ...(importId !== undefined ? { importing: { id: importId } } : {}) };
  // Arguments given a sensitive value (a sensitive variable, a value derived from a secret) are never shown either.
  planning.changes.push(withMarks(change, kind, [...evaluated.sensitive, ...(recorded.get(address)?.sensitive ?? [])]));
}

/** Recorded objects no longer declared (every one, when destroying): deleted, or forgotten by a removed block. */
async function planUndeclared(planning: Planning): Promise<void> {
  const { opts, diagnostics } = planning;
  const { configuration, refreshed } = opts;
  const forgotten = new Set(configuration.removals.filter((r) => !r.destroy).map((r) => r.from));
  for (const [address, o] of planning.recorded) {
    const declared = configuration.objects.get(address);
    if ((declared && !opts.destroy) || !planning.selected.has(address) || opts.refreshOnly) continue;
    const kind = opts.kindOf(o.type);
    const prior = refreshed.live.get(address) ?? null;
    if (kind && !declared && !opts.destroy && forgotten.has(blockOf(address))) {
      // A removed block with destroy = false: the object leaves the state and stays on the platform.
      const r = { action: 'delete' as const, planned: null, requiresReplace: [], changed: [], diagnostics: [] };
      planning.changes.push({
        ...withMarks(plannedChange({ address, type: o.type, name: o.name }, kind, prior ?? o.attributes, r), kind, o.sensitive ?? []),
        forget: true,
      });
      continue;
    }
    if (!kind || !prior) continue; // already gone: apply only forgets it
    const r = await planResource({ kind, address, config: null, prior, ctx: planning.ctxOf(address) });
    diagnostics.push(...r.diagnostics);
    if (opts.state.isProtected(address) || declared?.preventDestroy) diagnostics.push(engineErrors.preventDestroy(address, 'destroy').toDiagnostic());
    const change = withMarks(plannedChange({ address, type: o.type, name: o.name }, kind, prior, r), kind, o.sensitive ?? []);
    planning.changes.push(declared ? change : { ...change, actionReason: 'delete_because_no_resource_config' });
  }
}

/** A refresh-only plan (which plans no action above): every recorded object still on the platform, taken as it is now. */
function planRefreshOnly({ opts, recorded, selected, changes }: Planning): void {
  if (!opts.refreshOnly) return;
  changes.push(
    ...acceptedLive(
      [...recorded.values()].filter((o) => selected.has(o.address)),
      opts.refreshed,
      opts.kindOf,
    ),
  );
}

/** What moved outside tenantform since the last apply, for the objects the plan covers. */
function driftOfRecorded({ opts, recorded, selected }: Planning): DriftedResource[] {
  const { refreshed, kindOf } = opts;
  return [...recorded.values()]
    .filter((o) => selected.has(o.address) && refreshed.live.has(o.address) && kindOf(o.type))
    .flatMap((o) => driftOf(o.address, o.type, o.name, kindOf(o.type)!, o.attributes, refreshed.live.get(o.address) ?? null));
}

/** Outputs, locals and check blocks, evaluated with the planned values. */
function evaluateOutputsAndChecks({ opts, values, diagnostics }: Planning): ReturnType<typeof evaluateOutputs> {
  const { configuration } = opts;
  // Destroying removes every output, as in Terraform.
  const outputs = opts.destroy
    ? { values: new Map<string, { value: unknown; sensitive: boolean }>(), diagnostics: [] }
    : evaluateOutputs(configuration, values);
  if (!opts.destroy) diagnostics.push(...localsDiagnostics(configuration, values));
  diagnostics.push(...outputs.diagnostics);
  // Check blocks, as Terraform evaluates them with the planned values: a failed assertion warns, never stops.
  if (!opts.destroy) diagnostics.push(...checkWarnings(configuration.checks, contextFor(configuration, values)));
  return outputs;
}

/** Objects a `moved` block gave a new address in this run: the plan says where each was. Moves that could not be carried out are warned of. */
function withPreviousAddresses(changes: PlannedChange[], state: StateStore, diagnostics: Diagnostic[]): PlannedChange[] {
  const movedFrom = new Map([...movesCarriedOut(state)].map(([from, to]) => [to, from]));
  const moved =
    movedFrom.size === 0
      ? changes
      : changes.map((c) => (movedFrom.has(c.address) && c.action !== 'create' ? { ...c, previousAddress: movedFrom.get(c.address)! } : c));
  const unresolved = movesSkipped(state);
  if (unresolved.length > 0) {
    diagnostics.push({
      severity: 'warning',
      summary: 'Unresolved resource instance address changes',
      detail:
        'Some moved blocks could not be carried out, so the plan takes the state as it is: each address below keeps the object recorded at it.\n' +
        unresolved
          .map(
            (m) =>
              `  - Cannot move ${m.from} to ${m.to}: the state already records ${m.taken}. Remove the object that is not wanted from the state, or the moved block.`,
          )
          .join('\n'),
    });
  }
  return moved;
}

/** Objects removed blocks leave on the platform are said so before the plan is applied. */
function warnForgotten(changes: readonly PlannedChange[], diagnostics: Diagnostic[]): void {
  const forgets = changes.filter((c) => c.forget).map((c) => c.address);
  if (forgets.length > 0) {
    diagnostics.push({
      severity: 'warning',
      summary: 'Some objects will no longer be managed by tenantform',
      detail: `Applying this plan removes these objects from the state and leaves them on the platform (removed blocks with destroy = false): ${forgets.join(', ')}. To manage them again, import them.`,
    });
  }
}

function planOf(
  opts: PlanOptions,
  changes: PlannedChange[],
  drift: DriftedResource[],
  outputs: ReturnType<typeof evaluateOutputs>['values'],
  diagnostics: Diagnostic[],
): Plan {
  const { configuration, state } = opts;
  return {
    stack: configuration.stack,
    // Read when the plan is saved or shown as JSON: worked out then (see Configuration.hash).
    get configHash() {
      return configuration.hash;
    },
    priorState: state.existed ? { lineage: state.lineage, serial: state.serial } : null,
    changes,
    drift,
    outputChanges: outputChanges(outputs, state.outputs()),
    diagnostics,
    refreshOnly: opts.refreshOnly ?? false,
    ...(opts.destroy ? { destroy: true } : {}),
    createdAt: new Date().toISOString(),
  };
}

/**
 * A data source whose arguments reference managed objects: read now when those are known
 * and unchanged, otherwise its values are known only after apply.
 */
async function readLateDataSource(
  o: DeclaredObject,
  configuration: Configuration,
  actions: ReadonlyMap<string, string>,
  lookup: Known,
  clients: ProviderClients,
  diagnostics: Diagnostic[],
): Promise<State | undefined> {
  const { config, diagnostics: invalid } = evaluateArguments(o, lookup);
  diagnostics.push(...invalid);
  if (invalid.length > 0) return undefined;
  const managedChanging = objectDependencies(configuration, o.address).some((d) => !isDataAddress(d) && actions.get(d) !== 'no-op');
  if (containsUnknown(config) || managedChanging) return undefined;
  const r = await readDataSource({ kind: o.kind as DataSourceKind, address: o.address, ctx: clients.ctx(o.address), config });
  diagnostics.push(...r.diagnostics);
  return r.value;
}
