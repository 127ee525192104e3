import { at, type AttributePath, type Diagnostic } from '../diagnostics';
import { attributeList, type Attribute } from './attributes';
import type { ResourceKind, State } from './declaration';
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
 * provider's PlanResourceChange, so that both always agree.
 */
export function planResource(req: PlanRequest): PlanResponse {
  const { kind, address, prior } = req;
  const diagnostics: Diagnostic[] = [];
  if (!req.config) {
    if (!prior) return { action: 'no-op', planned: null, requiresReplace: [], changed: [], diagnostics };
    if (kind.deleteOnlyForgets) {
      diagnostics.push({ severity: 'warning', summary: 'The platform cannot delete this object', detail: kind.deleteOnlyForgets, address });
    }
    const goesWithIt = kind.deleteWarning?.(prior);
    if (goesWithIt) diagnostics.push({ severity: 'warning', summary: 'Deleting this object deletes more', detail: goesWithIt, address });
    return { action: 'delete', planned: null, requiresReplace: [], changed: [], diagnostics };
  }
  const config = withIgnoredChanges(kind, normalize(kind.attributes, req.config), prior, req.ignoreChanges);
  if (!prior) {
    return { action: 'create', planned: plannedForCreate(kind, config), requiresReplace: [], changed: [], diagnostics };
  }

  const planned: State = {};
  const changed: string[] = [];
  const attributes = attributeList(kind.attributes);
  // By index, as in normalize (values.ts): once per planned object.
  for (let i = 0; i < attributes.length; i++) {
    const { name, attribute: a } = attributes[i];
    const configured = config[name];
    const settable = a.mode !== 'computed' && !(a.mode === 'optional_computed' && configured === null);
    if (!settable) {
      planned[name] = prior[name] ?? null;
      continue;
    }
    const priorObject = prior[name];
    const value = withComputedMembers(a, configured, (member) => (priorObject !== null && typeof priorObject === 'object' ? ((priorObject as State)[member] ?? null) : null));
    planned[name] = value;
    if (value === Unknown || !valueEqual(a, value, prior[name])) changed.push(name);
  }
  if (changed.length === 0) return { action: 'no-op', planned, requiresReplace: [], changed, diagnostics };
  diagnostics.push(...at(address, kind.planProblems?.(prior, planned) ?? []));

  const requiresReplace: AttributePath[] = changed.filter((n) => kind.attributes[n].forceNew).map((n) => [n]);
  for (const path of kind.replaceReasons?.(prior, planned) ?? []) {
    if (!requiresReplace.some((p) => p.join('.') === path.join('.'))) requiresReplace.push(path);
  }
  if (requiresReplace.length > 0) {
    return { action: 'replace', planned: plannedForCreate(kind, config), requiresReplace, changed, diagnostics };
  }
  for (const { name, attribute: a } of attributeList(kind.attributes)) {
    if (a.mode === 'computed' && (a.version || a.changesOnUpdate)) planned[name] = Unknown;
  }
  return { action: 'update', planned, requiresReplace, changed, diagnostics };
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
function withIgnoredChanges(
  kind: ResourceKind,
  config: State,
  prior: State | null,
  ignore: readonly string[] | 'all' | undefined,
): State {
  if (!prior || !ignore) return config;
  const names = ignore === 'all' ? Object.keys(kind.attributes) : ignore;
  const out = { ...config };
  for (const name of names) {
    const a = kind.attributes[name];
    if (a && a.mode !== 'computed') out[name] = prior[name] ?? null;
  }
  return out;
}
