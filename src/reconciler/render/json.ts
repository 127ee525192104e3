import { hasErrors, type AttributePath, type Severity } from '../../diagnostics';
import type { State } from '../../resources/declaration';
import type { Action } from '../../resources/plan';
import { containsUnknown, isUnknown } from '../../resources/values';
import { hasChanges, summarize, type Mode, type Plan, type PlanSummary } from '../model';
import { scrubSecrets, secretTexts, sensitiveByAddress } from './diff';

/**
 * The plan in the shape of `terraform show -json`, so that tools which read Terraform
 * plans read ours. Sensitive values are left out (their keys marked in the
 * `*_sensitive` mirrors) rather than written in clear as Terraform does.
 */

export const PROVIDER_NAME = 'registry.terraform.io/tenantform/tenantform';
export const FORMAT_VERSION = '1.2';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonAction = 'create' | 'update' | 'delete' | 'no-op';

export interface JsonChange {
  readonly actions: JsonAction[];
  readonly before: JsonValue;
  readonly after: JsonValue;
  /** `true` where a value is known only after apply; `{}` when everything is known. */
  readonly after_unknown: JsonValue;
  /** `true` where a value is sensitive; `false` when there is no object. */
  readonly before_sensitive: JsonValue;
  readonly after_sensitive: JsonValue;
  /** Paths that force replacement (Terraform's name for them). */
  readonly replace_paths?: AttributePath[];
}

export interface JsonResourceChange {
  readonly address: string;
  readonly mode: Mode;
  readonly type: string;
  readonly name: string;
  readonly provider_name: string;
  readonly change: JsonChange;
  readonly action_reason?: string;
}

export interface JsonDiagnostic {
  readonly severity: Severity;
  readonly summary: string;
  readonly detail: string;
  readonly address?: string;
  readonly path?: AttributePath;
  readonly code?: string;
  readonly retryable?: boolean;
}

export interface JsonDriftedAttribute {
  readonly path: AttributePath;
  /** Left out when the attribute is sensitive. */
  readonly state?: JsonValue;
  readonly live?: JsonValue;
  readonly sensitive?: true;
}

/** What tenantform adds to Terraform's format, all under one key. */
export interface TenantformPlanData {
  readonly stack: string;
  readonly config_hash: string;
  readonly prior_state: { readonly lineage: string; readonly serial: number } | null;
  readonly refresh_only: boolean;
  readonly created_at: string;
  readonly has_changes: boolean;
  readonly summary: PlanSummary;
  /** What the plan saw of each object, re-checked by apply. */
  readonly seen: Record<string, { version?: number | null; fingerprint?: string | null }>;
  readonly requires_replace: Record<string, AttributePath[]>;
  /** Attribute-level drift per address: recorded value and live value. */
  readonly drift: Record<string, JsonDriftedAttribute[]>;
  readonly diagnostics: JsonDiagnostic[];
}

export interface PlanJson {
  readonly format_version: string;
  readonly resource_changes: JsonResourceChange[];
  readonly resource_drift: JsonResourceChange[];
  readonly applyable: boolean;
  readonly complete: boolean;
  readonly errored: boolean;
  readonly timestamp: string;
  readonly tenantform: TenantformPlanData;
}

const ACTIONS: Record<Action, JsonAction[]> = {
  create: ['create'],
  update: ['update'],
  delete: ['delete'],
  'no-op': ['no-op'],
  // Terraform's default order: destroy the old object, then create the new one.
  replace: ['delete', 'create'],
};

/** A value with unknowns left out: object keys dropped, list elements as null (to keep indexes). */
function withoutUnknowns(value: unknown): JsonValue {
  if (isUnknown(value) || value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(withoutUnknowns);
  if (typeof value === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) {
      if (!isUnknown(v)) out[k] = withoutUnknowns(v);
    }
    return out;
  }
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  return String(value);
}

/** Terraform's after_unknown: `true` where unknown; objects keep only keys that hold unknowns. */
function unknownMirror(value: unknown): JsonValue {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.map(unknownMirror);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(value)) {
      const mirrored = unknownMirror(v);
      if (mirrored !== false) out[k] = mirrored;
    }
    return out;
  }
  return false;
}

function masked(state: State | null, sensitive: ReadonlySet<string>): State | null {
  if (!state) return null;
  return Object.fromEntries(Object.entries(state).filter(([k]) => !sensitive.has(k)));
}

function sensitiveMirror(state: State | null, sensitive: ReadonlySet<string>): JsonValue {
  if (!state) return false;
  return Object.fromEntries(Object.keys(state).filter((k) => sensitive.has(k)).map((k) => [k, true]));
}

function changeOf(
  actions: JsonAction[],
  before: State | null,
  after: State | null,
  sensitive: ReadonlySet<string>,
): JsonChange {
  return {
    actions,
    before: withoutUnknowns(masked(before, sensitive)),
    after: withoutUnknowns(masked(after, sensitive)),
    after_unknown: after && containsUnknown(after) ? unknownMirror(after) : {},
    before_sensitive: sensitiveMirror(before, sensitive),
    after_sensitive: sensitiveMirror(after, sensitive),
  };
}

export function renderJson(plan: Plan): PlanJson {
  const sensitive = sensitiveByAddress(plan);
  const secrets = secretTexts(plan);
  const sensitiveOf = (address: string) => sensitive.get(address) ?? new Set<string>();

  const resourceChanges: JsonResourceChange[] = plan.changes.map((c) => {
    const change = changeOf(ACTIONS[c.action], c.before, c.after, sensitiveOf(c.address));
    return {
      address: c.address,
      mode: c.mode,
      type: c.type,
      name: c.name,
      provider_name: PROVIDER_NAME,
      change: c.requiresReplace.length > 0 ? { ...change, replace_paths: c.requiresReplace } : change,
      ...(c.actionReason ? { action_reason: c.actionReason } : {}),
    };
  });

  const resourceDrift: JsonResourceChange[] = plan.drift.map((d) => ({
    address: d.address,
    mode: d.mode,
    type: d.type,
    name: d.name,
    provider_name: PROVIDER_NAME,
    change: changeOf(ACTIONS[d.action], d.before, d.after, sensitiveOf(d.address)),
  }));

  const seen: TenantformPlanData['seen'] = {};
  const requiresReplace: TenantformPlanData['requires_replace'] = {};
  for (const c of plan.changes) {
    if (c.seen) seen[c.address] = { ...c.seen };
    if (c.requiresReplace.length > 0) requiresReplace[c.address] = c.requiresReplace;
  }

  const drift: TenantformPlanData['drift'] = {};
  for (const d of plan.drift) {
    if (d.changes.length === 0) continue;
    const names = sensitiveOf(d.address);
    drift[d.address] = d.changes.map((a) =>
      typeof a.path[0] === 'string' && names.has(a.path[0])
        ? { path: a.path, sensitive: true }
        : { path: a.path, state: withoutUnknowns(a.state), live: withoutUnknowns(a.live) },
    );
  }

  const diagnostics: JsonDiagnostic[] = plan.diagnostics.map((d) => ({
    ...d,
    summary: scrubSecrets(d.summary, secrets),
    detail: scrubSecrets(d.detail, secrets),
  }));
  const errored = hasErrors(plan.diagnostics);

  return {
    format_version: FORMAT_VERSION,
    resource_changes: resourceChanges,
    resource_drift: resourceDrift,
    // A refresh-only plan with drift is applied to record the drift in the state.
    applyable: (hasChanges(plan) || (plan.refreshOnly && plan.drift.length > 0)) && !errored,
    complete: true,
    errored,
    timestamp: plan.createdAt,
    tenantform: {
      stack: plan.stack,
      config_hash: plan.configHash,
      prior_state: plan.priorState ? { lineage: plan.priorState.lineage, serial: plan.priorState.serial } : null,
      refresh_only: plan.refreshOnly,
      created_at: plan.createdAt,
      has_changes: hasChanges(plan),
      summary: summarize(plan.changes),
      seen,
      requires_replace: requiresReplace,
      drift,
      diagnostics,
    },
  };
}

export function serializePlanJson(plan: Plan): string {
  return `${JSON.stringify(renderJson(plan), null, 2)}\n`;
}
