import type { AttributePath, Diagnostic } from '../diagnostics';
import type { ProviderClients } from './clients';
import { type TenantformError } from '../errors';
import { engineErrors } from './errors';
import { attributeList, type Attributes } from '../resources/attributes';
import { attributeNames, sensitiveNames, versionAttribute, type AnyKind, type DataSourceKind, type ResourceKind, type State } from '../resources/declaration';
import { readDataSource } from '../resources/operations';
import { planResource, type PlanResponse } from '../resources/plan';
import { containsUnknown, fingerprint, Unknown, valueEqual } from '../resources/values';
import { dependencies, isGroupNode, objectDependencies, type Configuration, type DeclaredObject } from '../config/config';
import { dependencyOrder, withDependencies } from '../graph/graph';
import type { AttributeDrift, DriftedResource, Plan, PlannedChange, PlanResult } from '../plans/model';
import { blockOf, isDataAddress, isNamedByTarget, parseInstanceAddress } from '../state/addresses';
import { evaluateArguments, lookupIn, withSensitiveMarks, type Known } from '../config/evaluate';
import { evaluateOutputs, localsDiagnostics, outputChanges } from './outputs';
import type { Refreshed } from './refresh';
import type { StateStore } from '../state/state';
import { movesCarriedOut, movesSkipped } from './moves';
import { checkWarnings, conditionErrors } from '../config/checks';
import { contextFor, withSelf } from '../config/expression-scope';

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

export async function buildPlan(opts: PlanOptions): Promise<PlanResult> {
  const { configuration, refreshed } = opts;
  const diagnostics: Diagnostic[] = [...refreshed.diagnostics];
  // The kinds' plan-time questions (many creates under one parent) share their answers.
  const asking = opts.asksPlatform === false ? undefined : opts.clients.withSharedReads();
  const ctxOf = (address: string) => asking?.ctx(address);
  const deps = dependencies(configuration);
  const recorded = new Map<string, { address: string; type: string; name: string; attributes: State; tainted?: boolean; sensitive?: readonly string[] }>(
    opts.state
      .objects()
      .filter((o) => o.mode === 'managed')
      .map((o) => [o.address, o]),
  );
  // An adopted interrupted create is recorded from now on: removed from the configuration, it is deleted.
  for (const address of refreshed.adopted) {
    const { type, name } = parseInstanceAddress(address) ?? { type: address, name: address };
    if (!recorded.has(address)) recorded.set(address, { address, type, name, attributes: refreshed.live.get(address)! });
  }
  const selected = selectTargets(opts, configuration, recorded, diagnostics);
  const values = new Map<string, State>(refreshed.data);
  // A targeted plan leaves the other objects as they are: expressions (outputs) see them so, as in Terraform.
  if (opts.targets.length > 0) {
    for (const [address, o] of recorded) {
      if (!selected.has(address) && configuration.objects.has(address)) values.set(address, refreshed.live.get(address) ?? o.attributes);
    }
  }
  const lookup = lookupIn(configuration, values);
  const actions = new Map<string, string>();
  const changes: PlannedChange[] = [];
  const data: Record<string, State> = Object.fromEntries(refreshed.data);

  const requestedReplacements = new Set(opts.replace ?? []);
  for (const address of requestedReplacements) {
    const parsed = parseInstanceAddress(address);
    if (!parsed || parsed.mode !== 'managed') diagnostics.push(engineErrors.invalidReplaceAddress(address).toDiagnostic());
    else if (!configuration.objects.has(address) || !recorded.has(address)) diagnostics.push(engineErrors.nothingToReplace(address));
  }
  let order: string[] = [];
  try {
    order = dependencyOrder(deps);
  } catch (err) {
    diagnostics.push((err as TenantformError).toDiagnostic());
  }
  for (const address of order) {
    const o = configuration.objects.get(address);
    if (!o || !selected.has(address) || opts.refreshOnly || opts.destroy) continue; // a group node plans nothing
    if (o.mode === 'data') {
      if (values.has(address)) continue;
      const value = refreshed.unreadable?.has(address) ? undefined : await readLateDataSource(o, configuration, actions, lookup, opts.clients, diagnostics);
      values.set(address, value ?? unknownObject(o.kind.attributes));
      if (value) data[address] = value;
      continue;
    }
    const kind = o.kind as ResourceKind;
    const prior = refreshed.live.get(address) ?? null;
    const evaluated = evaluateArguments(o, lookup);
    if (evaluated.diagnostics.length > 0) {
      diagnostics.push(...evaluated.diagnostics);
      values.set(address, unknownObject(o.kind.attributes));
      continue;
    }
    const config = evaluated.config;
    // Preconditions hold before the object is planned; a false one stops its plan, as in Terraform.
    const preconditions = o.conditions.pre.length === 0 ? [] : conditionErrors('precondition', o.conditions.pre, contextFor(configuration, values, o), address);
    if (preconditions.length > 0) {
      diagnostics.push(...preconditions);
      values.set(address, unknownObject(o.kind.attributes));
      continue;
    }
    // A tainted object is replaced, as Terraform replaces it, whatever its arguments say; so is one named by -replace.
    const tainted = prior !== null && recorded.get(address)?.tainted === true;
    const requested = prior !== null && !tainted && requestedReplacements.has(address);
    const r = await planResource({
      kind,
      address,
      config,
      prior,
      ignoreChanges: o.ignoreChanges,
      replace: tainted || requested,
      ctx: ctxOf(address),
    });
    diagnostics.push(...r.diagnostics);
    if (r.action === 'replace' && o.preventDestroy) diagnostics.push(engineErrors.preventDestroy(address, 'replace').toDiagnostic());
    actions.set(address, r.action);
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
    changes.push(withMarks(change, kind, [...evaluated.sensitive, ...(recorded.get(address)?.sensitive ?? [])]));
  }
  const forgotten = new Set(configuration.removals.filter((r) => !r.destroy).map((r) => r.from));
  for (const [address, o] of recorded) {
    const declared = configuration.objects.get(address);
    if ((declared && !opts.destroy) || !selected.has(address) || opts.refreshOnly) continue;
    const kind = opts.kindOf(o.type);
    const prior = refreshed.live.get(address) ?? null;
    if (kind && !declared && !opts.destroy && forgotten.has(blockOf(address))) {
      // A removed block with destroy = false: the object leaves the state and stays on the platform.
      const r = { action: 'delete' as const, planned: null, requiresReplace: [], changed: [], diagnostics: [] };
      changes.push({
        ...withMarks(plannedChange({ address, type: o.type, name: o.name }, kind, prior ?? o.attributes, r), kind, o.sensitive ?? []),
        forget: true,
      });
      continue;
    }
    if (!kind || !prior) continue; // already gone: apply only forgets it
    const r = await planResource({ kind, address, config: null, prior, ctx: ctxOf(address) });
    diagnostics.push(...r.diagnostics);
    if (opts.state.isProtected(address) || declared?.preventDestroy) diagnostics.push(engineErrors.preventDestroy(address, 'destroy').toDiagnostic());
    const change = withMarks(plannedChange({ address, type: o.type, name: o.name }, kind, prior, r), kind, o.sensitive ?? []);
    changes.push(declared ? change : { ...change, actionReason: 'delete_because_no_resource_config' });
  }
  if (opts.refreshOnly)
    changes.push(
      ...acceptedLive(
        [...recorded.values()].filter((o) => selected.has(o.address)),
        refreshed,
        opts.kindOf,
      ),
    );
  const drift = [...recorded.values()]
    .filter((o) => selected.has(o.address) && refreshed.live.has(o.address) && opts.kindOf(o.type))
    .flatMap((o) => driftOf(o.address, o.type, o.name, opts.kindOf(o.type)!, o.attributes, refreshed.live.get(o.address) ?? null));
  // Destroying removes every output, as in Terraform.
  const outputs = opts.destroy
    ? { values: new Map<string, { value: unknown; sensitive: boolean }>(), diagnostics: [] }
    : evaluateOutputs(configuration, values);
  if (!opts.destroy) diagnostics.push(...localsDiagnostics(configuration, values));
  diagnostics.push(...outputs.diagnostics);
  // Check blocks, as Terraform evaluates them with the planned values: a failed assertion warns, never stops.
  if (!opts.destroy) diagnostics.push(...checkWarnings(configuration.checks, contextFor(configuration, values)));
  // Objects a `moved` block gave a new address in this run: the plan says where each was.
  const movedFrom = new Map([...movesCarriedOut(opts.state)].map(([from, to]) => [to, from]));
  const movedChanges =
    movedFrom.size === 0
      ? changes
      : changes.map((c) => (movedFrom.has(c.address) && c.action !== 'create' ? { ...c, previousAddress: movedFrom.get(c.address)! } : c));
  const unresolved = movesSkipped(opts.state);
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
  const forgets = movedChanges.filter((c) => c.forget).map((c) => c.address);
  if (forgets.length > 0) {
    diagnostics.push({
      severity: 'warning',
      summary: 'Some objects will no longer be managed by tenantform',
      detail: `Applying this plan removes these objects from the state and leaves them on the platform (removed blocks with destroy = false): ${forgets.join(', ')}. To manage them again, import them.`,
    });
  }
  const plan: Plan = {
    stack: configuration.stack,
    // Read when the plan is saved or shown as JSON: worked out then (see Configuration.hash).
    get configHash() {
      return configuration.hash;
    },
    priorState: opts.state.existed ? { lineage: opts.state.lineage, serial: opts.state.serial } : null,
    changes: movedChanges,
    drift,
    outputChanges: outputChanges(outputs.values, opts.state.outputs()),
    diagnostics,
    refreshOnly: opts.refreshOnly ?? false,
    ...(opts.destroy ? { destroy: true } : {}),
    createdAt: new Date().toISOString(),
  };
  return { plan, data };
}

/** Every address: a plan without `--target` (no set of every address made). */
const EVERYTHING: Pick<ReadonlySet<string>, 'has'> = { has: () => true };

function selectTargets(
  opts: PlanOptions,
  configuration: Configuration,
  recorded: ReadonlyMap<string, unknown>,
  diagnostics: Diagnostic[],
): Pick<ReadonlySet<string>, 'has'> {
  if (opts.targets.length === 0) return EVERYTHING;
  const deps = dependencies(configuration);
  const everything = new Set([...[...deps.keys()].filter((a) => !isGroupNode(configuration, a)), ...recorded.keys()]);
  // A block's address targets all its instances, and a module's everything inside it, as in Terraform.
  const within = (a: string, t: string) => a !== t && isNamedByTarget(a, t);
  const targets = opts.targets.flatMap((t) => (everything.has(t) ? [t] : [...everything].filter((a) => within(a, t))));
  for (const t of opts.targets) {
    if (!everything.has(t) && !targets.some((a) => within(a, t))) {
      diagnostics.push({
        severity: 'error',
        summary: 'No such resource',
        detail: `--target ${t} is neither declared in the configuration nor recorded in the state. Targets are addresses such as tenantform_infra_component.primary.`,
        address: t,
      });
    }
  }
  // Destroying an object destroys what depends on it; creating or updating one needs what it depends on.
  return opts.destroy ? withDependents(targets, deps) : withDependencies(targets, deps);
}

/** The addresses and everything that depends on them, transitively (one pass over the edges). */
function withDependents(addresses: readonly string[], deps: ReturnType<typeof dependencies>): Set<string> {
  const dependents = new Map<string, string[]>();
  for (const [address, needs] of deps) for (const d of needs) (dependents.get(d) ?? dependents.set(d, []).get(d)!).push(address);
  const out = new Set(addresses);
  const stack = [...addresses];
  while (stack.length > 0) {
    for (const dependent of dependents.get(stack.pop()!) ?? []) {
      if (out.has(dependent)) continue;
      out.add(dependent);
      stack.push(dependent);
    }
  }
  return out;
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

function unknownObject(attributes: Attributes): State {
  return Object.fromEntries(Object.keys(attributes).map((k) => [k, Unknown]));
}

function plannedChange(o: Pick<DeclaredObject, 'address' | 'type' | 'name'>, kind: ResourceKind, prior: State | null, r: PlanResponse): PlannedChange {
  // Only an instance of count or for_each has a key, at the end of its address.
  const index = o.address.endsWith(']') ? parseInstanceAddress(o.address)?.key : undefined;
  const change: PlannedChange = {
    address: o.address,
    mode: 'managed',
    type: o.type,
    name: o.name,
    action: r.action,
    before: prior,
    after: r.planned,
    requiresReplace: r.requiresReplace,
    changed: r.changed,
    sensitive: attributeNames(kind, 'sensitive'),
    identifying: attributeNames(kind, 'identifying'),
  };
  // Most changes are no-ops of objects without an index: no optional member, nothing else made.
  if (index === undefined && r.action === 'no-op') return change;
  return {
    ...change,
    ...(index === undefined ? {} : { index }),
    ...(r.action === 'replace' ? { actionReason: 'replace_because_cannot_update' as const } : {}),
    // Re-checked before a saved plan is applied, for the objects it changes.
    ...(prior && r.action !== 'no-op' ? { seen: seenOf(kind, prior) } : {}),
  };
}

/** The change with the attributes its marks make sensitive (see sensitiveNames). */
function withMarks(change: PlannedChange, kind: AnyKind, marked: readonly string[]): PlannedChange {
  return marked.length > 0 ? { ...change, sensitive: sensitiveNames(kind, marked) } : change;
}

/** A refresh-only plan's changes: every recorded object still on the platform, as it is now, without action. */
function acceptedLive(
  recorded: ReadonlyArray<{ address: string; type: string; name: string; sensitive?: readonly string[] }>,
  refreshed: Refreshed,
  kindOf: PlanOptions['kindOf'],
): PlannedChange[] {
  return recorded.flatMap((o) => {
    const kind = kindOf(o.type);
    const live = refreshed.live.get(o.address);
    if (!kind || !live) return [];
    return [
      withMarks(plannedChange(o, kind, live, { action: 'no-op', planned: live, requiresReplace: [], changed: [], diagnostics: [] }), kind, o.sensitive ?? []),
    ];
  });
}

/** What a plan saw of an object, re-checked before a saved plan is applied. */
export function seenOf(kind: AnyKind, live: State): { version?: number | null; fingerprint?: string | null } {
  const v = versionAttribute(kind);
  return v ? { version: typeof live[v] === 'number' ? live[v] : null } : { fingerprint: fingerprint(kind.attributes, live) };
}

/** How a recorded object differs from the live one: changed attributes, or deleted outside tenantform. */
function driftOf(address: string, type: string, name: string, kind: ResourceKind, recorded: State, live: State | null): DriftedResource[] {
  const base = { address, mode: 'managed' as const, type, name, before: recorded, after: live };
  if (!live) return [{ ...base, action: 'delete', changes: [] }];
  // Without a refresh the live object is the recorded one.
  if (live === recorded) return [];
  // The platform bumps the version on every change: an unmoved version proves nothing moved.
  const version = versionAttribute(kind);
  if (version && typeof recorded[version] === 'number' && recorded[version] === live[version]) return [];
  const changes = attributeDrift(kind.attributes, recorded, live, []);
  return changes.length > 0 ? [{ ...base, action: 'update', changes }] : [];
}

function attributeDrift(attributes: Attributes, recorded: State, live: State, at: AttributePath): AttributeDrift[] {
  return attributeList(attributes).flatMap(({ name, attribute: a }): AttributeDrift[] => {
    // Values the platform derives (effective settings) are shown, never judged as drift.
    if (a.mode === 'computed' && a.changesOnUpdate) return [];
    const before = recorded[name] ?? null;
    const after = live[name] ?? null;
    if (a.type === 'object' && before && after && typeof before === 'object' && typeof after === 'object') {
      return attributeDrift(a.attributes, before as State, after as State, [...at, name]);
    }
    return valueEqual(a, before, after) ? [] : [{ path: [...at, name], state: before, live: after }];
  });
}
