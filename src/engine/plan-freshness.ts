import type { ProviderClients } from './clients';
import { engineErrors } from './errors';
import type { ResourceKind } from '../resources/declaration';
import { readResource } from '../resources/operations';
import { Unknown, valueEqual } from '../resources/values';
import type { Configuration } from '../config/config';
import { mapLimited } from '../graph/graph';
import type { PlannedChange, PlanResult } from '../plans/model';
import { seenOf } from './planner';
import type { StateStore } from '../state/state';

/**
 * Whether a saved plan still applies: the state and configuration it was made against, actions
 * no plan makes (a plan file edited by hand), and every object it touches as the plan saw it.
 */
export interface FreshnessCheck {
  readonly saved: PlanResult;
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly clients: ProviderClients;
  /** `-parallelism` when given (a cap); undefined: the data centers' request budgets decide (see `ProviderClients.atOnce`). */
  readonly parallelism?: number;
  readonly kindOf: (type: string) => ResourceKind | undefined;
}

/** Throws `stale_plan` with every reason the saved plan no longer applies. */
export async function assertPlanFresh(check: FreshnessCheck): Promise<void> {
  const reasons = [...stateAndConfigReasons(check), ...actionReasons(check), ...(await liveReasons(check))];
  if (reasons.length > 0) throw engineErrors.stalePlan(reasons.join(' '));
}

function stateAndConfigReasons({ saved, configuration, state }: FreshnessCheck): string[] {
  const reasons: string[] = [];
  const prior = saved.plan.priorState;
  if (!prior && state.existed) reasons.push(`The state ${state.path} was created after the plan was made.`);
  if (prior && !state.existed) reasons.push(`The state ${state.path} the plan was made against no longer exists.`);
  if (prior && state.existed && prior.lineage !== state.lineage) {
    reasons.push(`The state has lineage ${state.lineage}, but the plan was made against lineage ${prior.lineage} (a different state).`);
  } else if (prior && state.existed && prior.serial !== state.serial) {
    reasons.push(`The state changed since the plan was made (serial ${state.serial}, the plan saw ${prior.serial}): another run applied changes.`);
  }
  if (saved.plan.configHash !== configuration.hash) reasons.push('The configuration changed since the plan was made.');
  if (saved.plan.stack !== configuration.stack) reasons.push(`The plan is for stack ${saved.plan.stack}, not ${configuration.stack}.`);
  return reasons;
}

/**
 * Actions no plan makes, found before anything is sent: a replacement without a changed argument
 * that forces one (or a taint in the state), a create of a recorded object, a delete of a declared
 * one outside a destroy. A plan file edited by hand must not replace, duplicate or delete at will.
 */
function actionReasons({ saved, configuration, state, kindOf }: FreshnessCheck): string[] {
  const reasons: string[] = [];
  const edited = (c: PlannedChange, why: string) =>
    reasons.push(`The plan's ${c.action} of ${c.address} is not one a plan makes (${why}): the plan file was changed after it was made.`);
  for (const c of saved.plan.changes) {
    if (c.mode !== 'managed') continue;
    const recorded = state.get(c.address);
    // A recorded object the plan's refresh found deleted outside tenantform is created again, as by terraform.
    if (c.action === 'create' && recorded && !seenDeleted(saved, c.address)) edited(c, 'the object is recorded in the state');
    if (c.importing !== undefined && (recorded || !configuration.imports.some((t) => t.to === c.address && t.id === c.importing!.id)))
      edited(c, recorded ? 'the object is recorded in the state' : `no import block imports "${c.importing.id}" into it`);
    if (c.action === 'delete' && !saved.plan.destroy && configuration.objects.has(c.address)) edited(c, 'the object is in the configuration');
    if (c.action !== 'replace') continue;
    if (c.actionReason === 'replace_because_tainted') {
      if (recorded?.tainted !== true) edited(c, 'the object is not tainted');
      continue;
    }
    // Asked for with -replace when the plan was made.
    if (c.actionReason === 'replace_by_request') continue;
    const kind = kindOf(c.type);
    const at = (v: unknown, path: readonly (string | number)[]): unknown =>
      path.reduce<unknown>((x, k) => (x !== null && typeof x === 'object' ? (x as Record<string | number, unknown>)[k] : undefined), v);
    // A path forces the replacement only where its value changes (or is not known yet).
    const forcing = (path: readonly (string | number)[]): boolean => {
      const after = at(c.after, path);
      if (after === Unknown || at(c.after, path.slice(0, 1)) === Unknown) return true;
      const before = at(c.before, path);
      const attribute = path.length === 1 ? kind?.attributes[String(path[0])] : undefined;
      return attribute ? !valueEqual(attribute, before, after) : JSON.stringify(before ?? null) !== JSON.stringify(after ?? null);
    };
    if (c.requiresReplace.length === 0 || !c.requiresReplace.some(forcing)) edited(c, 'no argument that forces a replacement changes');
  }
  return reasons;
}

/** Whether the plan's refresh found the object recorded at `address` deleted outside tenantform. */
function seenDeleted(saved: PlanResult, address: string): boolean {
  return saved.plan.drift.some((d) => d.address === address && d.action === 'delete');
}

/**
 * Re-reads every object the plan touches and compares it with what the plan saw; an object the
 * plan saw deleted and creates again must still be gone, or the create would make a second one.
 */
async function liveReasons({ saved, state, clients, parallelism, kindOf }: FreshnessCheck): Promise<string[]> {
  const recreated = saved.plan.changes.filter((c) => c.mode === 'managed' && c.action === 'create' && seenDeleted(saved, c.address));
  const back = await mapLimited(recreated, clients.atOnce(parallelism), async (c) => {
    const kind = kindOf(c.type);
    const recorded = state.get(c.address);
    if (!kind || !recorded) return undefined;
    const r = await readResource({ kind, address: c.address, ctx: clients.ctx(c.address), state: recorded.attributes });
    if (r.value === undefined) return `${c.address} could not be read to check it (${r.diagnostics.map((d) => d.summary).join('; ')}).`;
    return r.value === null
      ? undefined
      : `${c.address} was deleted outside tenantform when the plan was made, but it exists again: creating it would make a second one.`;
  });
  const touched = saved.plan.changes.filter((c) => c.mode === 'managed' && c.action !== 'no-op' && c.before && c.seen);
  const reasons = await mapLimited(touched, clients.atOnce(parallelism), async (c) => {
    const kind = kindOf(c.type);
    if (!kind) return `${c.address} has type ${c.type}, which this version of tenantform does not know.`;
    const r = await readResource({ kind, address: c.address, ctx: clients.ctx(c.address), state: c.before! });
    if (r.value === undefined) return `${c.address} could not be read to check it (${r.diagnostics.map((d) => d.summary).join('; ')}).`;
    return differenceFromSeen(c, r.value === null ? null : seenOf(kind, r.value));
  });
  return [...back, ...reasons].filter((r): r is string => r !== undefined);
}

function differenceFromSeen(c: PlannedChange, now: PlannedChange['seen'] | null): string | undefined {
  if (!now) return `${c.address} was deleted on the platform after the plan was made.`;
  if (c.seen?.version !== undefined && now.version !== c.seen.version) {
    return `${c.address} is at version ${String(now.version)} on the platform, but the plan saw version ${String(c.seen.version)}: someone changed it since.`;
  }
  if (c.seen?.fingerprint !== undefined && now.fingerprint !== c.seen.fingerprint) {
    return `${c.address} changed on the platform after the plan was made (fingerprint ${String(now.fingerprint)}, the plan saw ${String(c.seen.fingerprint)}).`;
  }
  return undefined;
}
