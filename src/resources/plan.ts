import { at, type AttributePath, type Diagnostic } from '../diagnostics';
import { attributeList, type Attribute } from './attributes';
import type { ModifyPlanRequest, OperationContext, ResourceKind, State } from './declaration';
import { runOperation } from './operations';
import { normalize, Unknown, valueEqual } from './values';

export type Action = 'create' | 'update' | 'replace' | 'delete' | 'no-op';

export interface PlanRequest {
  readonly kind: ResourceKind;
  readonly address: string;
  /** The configuration (may hold Unknown); null when the resource is no longer declared. */
  readonly config: State | null;
  /** The current object (refreshed live, or recorded); null when there is none. */
  readonly prior: State | null;
  /** `lifecycle.ignore_changes`: attribute names, or "all". */
  readonly ignoreChanges?: readonly string[] | 'all';
  /** Replace the object whatever its arguments say (a tainted object). */
  readonly replace?: boolean;
  /** Reads the platform for the kind's plan rules; absent where the plan cannot reach it. */
  readonly ctx?: OperationContext;
}

export interface PlanResponse {
  readonly action: Action;
  /** The object after apply; Unknown marks values the platform will decide. */
  readonly planned: State | null;
  /** Attributes whose change forces replacement. */
  readonly requiresReplace: AttributePath[];
  /** Top-level attributes whose configured value differs from the prior object. */
  readonly changed: string[];
  readonly diagnostics: Diagnostic[];
}

/**
 * Plans one resource: the single rule set shared by `tenantform plan` and the Terraform
 * provider's PlanResourceChange, so that both always agree. The attributes' data make the plan;
 * the kind's `modifyPlan` then adds what they cannot say.
 */
export async function planResource(req: PlanRequest): Promise<PlanResponse> {
  const { kind, address, prior } = req;
  if (!req.config) {
    if (!prior) return { action: 'no-op', planned: null, requiresReplace: [], changed: [], diagnostics: [] };
    const diagnostics: Diagnostic[] = [];
    if (kind.deleteOnlyForgets) {
      diagnostics.push({
        severity: 'warning',
        code: 'delete_only_forgets',
        summary: 'The platform cannot delete this object',
        detail: kind.deleteOnlyForgets,
        address,
      });
    }
    const modified = await modifyPlan(req, { prior, config: null, planned: null });
    return { action: 'delete', planned: null, requiresReplace: [], changed: [], diagnostics: [...diagnostics, ...modified.diagnostics] };
  }
  const config = withIgnoredChanges(kind, normalize(kind.attributes, req.config), prior, req.ignoreChanges);
  if (!prior) {
    const modified = await modifyPlan(req, { prior: null, config, planned: plannedForCreate(kind, config) });
    return { action: 'create', planned: modified.planned, requiresReplace: [], changed: [], diagnostics: modified.diagnostics };
  }

  const proposed: State = {};
  const changed: string[] = [];
  const attributes = attributeList(kind.attributes);
  // By index, as in normalize (values.ts): once per planned object.
  for (let i = 0; i < attributes.length; i++) {
    const { name, attribute: a } = attributes[i];
    const configured = config[name];
    const settable = a.mode !== 'computed' && !(a.mode === 'optional_computed' && configured === null);
    if (!settable) {
      proposed[name] = prior[name] ?? null;
      continue;
    }
    const priorObject = prior[name];
    const value = withComputedMembers(a, configured, (member) =>
      priorObject !== null && typeof priorObject === 'object' ? ((priorObject as State)[member] ?? null) : null,
    );
    proposed[name] = value;
    if (value === Unknown || !valueEqual(a, value, prior[name])) changed.push(name);
  }
  if (changed.length === 0 && !req.replace) return { action: 'no-op', planned: proposed, requiresReplace: [], changed, diagnostics: [] };

  const modified = await modifyPlan(req, { prior, config, planned: proposed });
  const requiresReplace: AttributePath[] = changed.filter((n) => kind.attributes[n].forceNew).map((n) => [n]);
  for (const path of modified.requiresReplace) {
    if (!requiresReplace.some((p) => p.join('.') === path.join('.'))) requiresReplace.push(path);
  }
  const { diagnostics } = modified;
  if (requiresReplace.length > 0 || req.replace) {
    return { action: 'replace', planned: plannedForCreate(kind, config), requiresReplace, changed, diagnostics };
  }
  const planned = { ...modified.planned };
  for (const { name, attribute: a } of attributes) {
    if (a.mode === 'computed' && (a.version || a.changesOnUpdate || a.changesWith?.some((n) => changed.includes(n)))) planned[name] = Unknown;
  }
  return { action: 'update', planned, requiresReplace, changed, diagnostics };
}

/** The kind's `modifyPlan` answer, with the request's planned value where it keeps it and the address on every diagnostic. */
async function modifyPlan<P extends State | null>(
  req: PlanRequest,
  asked: ModifyPlanRequest & { planned: P },
): Promise<{ planned: P; requiresReplace: readonly AttributePath[]; diagnostics: Diagnostic[] }> {
  const hook = req.kind.modifyPlan;
  if (!hook) return { planned: asked.planned, requiresReplace: [], diagnostics: [] };
  const ctx = req.ctx && { ...req.ctx, address: req.address };
  // The prior object as recorded may leave members out (see `recorded` in operations.ts): the kind sees each attribute.
  const prior = asked.prior && normalize(req.kind.attributes, asked.prior);
  const r = await runOperation(req.address, 'checking the plan against the platform', async () => hook(ctx, { ...asked, prior }));
  const answer = r.value ?? {};
  return {
    planned: asked.planned === null ? asked.planned : ((answer.planned ?? asked.planned) as P),
    requiresReplace: answer.requiresReplace ?? [],
    diagnostics: [...r.diagnostics, ...at(req.address, answer.diagnostics ?? [])],
  };
}

function plannedForCreate(kind: ResourceKind, config: State): State {
  const planned: State = {};
  for (const { name, attribute: a } of attributeList(kind.attributes)) {
    const computedHere = a.mode === 'computed' || (a.mode === 'optional_computed' && config[name] === null);
    planned[name] = computedHere ? Unknown : withComputedMembers(a, config[name], () => Unknown);
  }
  return planned;
}

/**
 * An object's members that are optional and computed, left out of the configuration, take what
 * the platform decided: the prior value on an update, unknown on a create.
 */
function withComputedMembers(a: Attribute, configured: unknown, decided: (member: string) => unknown): unknown {
  if (a.type !== 'object' || configured === null || configured === Unknown || typeof configured !== 'object') return configured;
  let out = configured as State;
  for (const { name, attribute: m } of attributeList(a.attributes)) {
    if (m.mode === 'optional_computed' && out[name] === null) out = { ...out, [name]: decided(name) };
  }
  return out;
}
function withIgnoredChanges(kind: ResourceKind, config: State, prior: State | null, ignore: readonly string[] | 'all' | undefined): State {
  if (!prior || !ignore) return config;
  const names = ignore === 'all' ? Object.keys(kind.attributes) : ignore;
  const out = { ...config };
  for (const name of names) {
    const a = kind.attributes[name];
    if (a && a.mode !== 'computed') out[name] = prior[name] ?? null;
  }
  return out;
}
