/**
 * Drift detection: what changed on the platform since the last apply. Reads only: nothing is
 * sent to the platform but reads, and the state is never written.
 */
import type { ProviderClients } from '../engine/clients';
import { hasErrors, type Diagnostic } from '../diagnostics';
import type { Configuration } from '../config/config';
import type { AttributeDrift, DriftedResource } from '../plans/model';
import { buildPlan } from '../engine/planner';
import { refresh, type Refreshed } from '../engine/refresh';
import type { StateStore } from '../state/state';
import { isNamedByTarget } from '../state/addresses';
import { sensitiveNames, versionAttribute, type ResourceKind, type State } from '../resources/declaration';
import type { ConfigurationDifference, DriftReport, DriftStatus, ResourceDriftReport } from './model';

export interface DetectOptions {
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly clients: ProviderClients;
  /** `-parallelism` when given (a cap); undefined: the data centers' request budgets decide (see `ProviderClients.atOnce`). */
  readonly parallelism?: number;
  readonly kindOf: (type: string) => ResourceKind | undefined;
  /** Called as each recorded object has been read. */
  readonly onRead?: (address: string) => void;
  /** `-target`: only these addresses are reported (a block's address names its instances, a module's everything in it). */
  readonly targets?: readonly string[];
}

export async function detectDrift(opts: DetectOptions): Promise<DriftReport> {
  const targets = opts.targets ?? [];
  const common = { configuration: opts.configuration, state: opts.state, clients: opts.clients, kindOf: opts.kindOf, targets };
  const refreshed = await refresh({ ...common, parallelism: opts.parallelism, refresh: true, onRead: opts.onRead });
  const { plan } = await buildPlan({ ...common, refreshed });
  const diagnostics = distinct(plan.diagnostics);
  const failed = hasErrors(diagnostics);
  // The same planner against the recorded state instead of the live objects: what the configuration
  // would change compared with the last apply, apart from any drift. Unreliable when reads failed.
  const sinceApply = failed ? undefined : (await buildPlan({ ...common, refreshed: asRecorded(refreshed, opts.state) })).plan;
  const unread = new Set(diagnostics.filter((d) => d.severity === 'error' && d.address).map((d) => d.address));

  const drifted = new Map(plan.drift.map((d) => [d.address, d]));
  const planned = new Map(plan.changes.map((c) => [c.address, c]));
  const resources = opts.state
    .objects()
    .filter((o) => o.mode === 'managed' && (targets.length === 0 || targets.some((t) => isNamedByTarget(o.address, t))))
    .map((o) => {
      const kind = opts.kindOf(o.type);
      // What the configuration marks sensitive now, and what the state marked when it was applied.
      const sensitive = kind ? [...sensitiveNames(kind, [...(planned.get(o.address)?.sensitive ?? []), ...o.sensitive])] : [];
      const version = kind ? versionAttribute(kind) : undefined;
      if (!kind || unread.has(o.address)) return { address: o.address, type: o.type, status: 'unknown' as const, changes: [], ignored: [], sensitive };
      return judge(o.address, o.type, withoutVersion(drifted.get(o.address), version), opts.configuration.objects.get(o.address)?.ignoreChanges, sensitive);
    });
  const configurationDiffers = (sinceApply?.changes ?? [])
    .filter((c) => c.mode === 'managed' && c.action !== 'no-op')
    .map((c) => ({ address: c.address, action: c.action as ConfigurationDifference['action'] }));
  return {
    stack: opts.configuration.stack,
    checkedAt: new Date().toISOString(),
    resources,
    configurationDiffers,
    diagnostics,
    tenantIds: tenantIdsOf([...opts.state.objects().map((o) => o.attributes), ...plan.changes.flatMap((c) => [c.before, c.after])]),
  };
}

/** A resource's status, honouring `lifecycle.ignore_changes` attribute by attribute. */
function judge(
  address: string,
  type: string,
  drift: DriftedResource | undefined,
  ignoreChanges: readonly string[] | 'all' | undefined,
  sensitive: string[],
): ResourceDriftReport {
  const base = { address, type, sensitive };
  if (!drift) return { ...base, status: 'in_sync', changes: [], ignored: [] };
  if (drift.action === 'delete') return { ...base, status: 'deleted', changes: [], ignored: [] };
  const isIgnored = (c: AttributeDrift) => ignoreChanges === 'all' || (ignoreChanges?.includes(String(c.path[0])) ?? false);
  const changes = drift.changes.filter((c) => !isIgnored(c));
  const ignored = [...new Set(drift.changes.filter(isIgnored).map((c) => String(c.path[0])))];
  return { ...base, status: changes.length > 0 ? 'drifted' : 'in_sync', changes, ignored };
}

/** A moved version only says that something moved; what moved is the drift. */
function withoutVersion(drift: DriftedResource | undefined, version: string | undefined): DriftedResource | undefined {
  return drift && version ? { ...drift, changes: drift.changes.filter((c) => c.path[0] !== version) } : drift;
}

/** Diagnostics without repeats (a data source failing in refresh fails again while planning). */
function distinct(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify([d.severity, d.address, d.summary, d.detail]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The refreshed data with every recorded object taken as it was recorded. */
function asRecorded(refreshed: Refreshed, state: StateStore): Refreshed {
  const live = new Map<string, State | null>();
  for (const address of refreshed.live.keys()) live.set(address, state.get(address)?.attributes ?? null);
  return { ...refreshed, live, diagnostics: [] };
}

const TENANT_ATTRIBUTES = new Set(['tenant_id', 'owner_tenant_id']);

/** Every tenant id found in the objects' attributes, at any depth (a report's `parameters.tenant_id`). */
export function tenantIdsOf(objects: ReadonlyArray<State | null>): string[] {
  const found = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (TENANT_ATTRIBUTES.has(k) && typeof x === 'string') found.add(x);
        else visit(x);
      }
    }
  };
  objects.forEach(visit);
  return [...found].sort();
}

export function isDrifted(report: DriftReport): boolean {
  return report.resources.some((r) => r.status === 'drifted' || r.status === 'deleted');
}

export interface DriftSummary {
  readonly total: number;
  readonly in_sync: number;
  readonly drifted: number;
  readonly deleted: number;
  /** Objects that could not be read. */
  readonly unknown: number;
}

export function summarizeDrift(report: DriftReport): DriftSummary {
  const count = (s: DriftStatus) => report.resources.filter((r) => r.status === s).length;
  return { total: report.resources.length, in_sync: count('in_sync'), drifted: count('drifted'), deleted: count('deleted'), unknown: count('unknown') };
}
