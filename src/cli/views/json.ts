import { hasErrors, type AttributePath, type Severity } from '../../diagnostics';
import type { State } from '../../resources/declaration';
import type { Action } from '../../resources/plan';
import { hasChanges, summarize, type Mode, type Plan, type PlanSummary } from '../../plans/model';
import { TENANTFORM_VERSION } from '../../package-root';
import { parseInstanceAddress } from '../../config/config';
import { TERRAFORM_VERSION } from '../../state/model';
import { scrubSecrets, secretTexts, sensitiveByAddress } from './diff';
import {
  configurationJson,
  outputChanges,
  plannedValues,
  priorState,
  PROVIDER_NAME,
  relevantAttributes,
  type JsonConfiguration,
  type JsonOutputChange,
  type JsonRelevantAttribute,
  type JsonValues,
  type PlanJsonContext,
} from './json-document';
import { knownValues, sensitiveMirror, unknownMirror, withoutUnknowns, type JsonValue } from './json-values';

/**
 * The plan in the shape of `terraform show -json`, so that tools which read Terraform
 * plans read ours. Sensitive values are left out (their keys marked in the
 * `*_sensitive` mirrors) rather than written in clear as Terraform does.
 */

export { PROVIDER_NAME };
export type { JsonValue };
export const FORMAT_VERSION = '1.2';

/** Terraform's plan actions; `forget` removes an object from the state only (a removed block with destroy = false). */
export type JsonAction = 'create' | 'update' | 'delete' | 'no-op' | 'forget';

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
  /** The object is adopted by an import block with this id. */
  readonly importing?: { readonly id: string };
}

export interface JsonResourceChange {
  readonly address: string;
  /** The module instance the object is in (`module.customer["acme"]`); absent in the root module. */
  readonly module_address?: string;
  readonly mode: Mode;
  readonly type: string;
  readonly name: string;
  readonly provider_name: string;
  readonly change: JsonChange;
  readonly action_reason?: string;
  /** Where a `moved` block moved the object from. */
  readonly previous_address?: string;
}

export interface JsonDiagnostic {
  readonly severity: Severity;
  readonly summary: string;
  readonly detail: string;
  readonly address?: string;
  /** In a folder of Terraform files: the file that declares it, and the line where the file's text tells it. */
  readonly file?: string;
  readonly line?: number;
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
  /** The tenantform that made the plan (terraform_version holds a Terraform version, as readers expect). */
  readonly version: string;
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
  readonly terraform_version: string;
  readonly planned_values: JsonValues;
  readonly resource_drift?: JsonResourceChange[];
  readonly resource_changes: JsonResourceChange[];
  readonly output_changes?: Record<string, JsonOutputChange>;
  readonly prior_state?: { format_version: string; terraform_version: string; values: JsonValues };
  readonly configuration?: JsonConfiguration;
  readonly relevant_attributes?: JsonRelevantAttribute[];
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

function changeOf(actions: JsonAction[], before: State | null, after: State | null, sensitive: ReadonlySet<string>): JsonChange {
  return {
    actions,
    before: knownValues(before, sensitive),
    after: knownValues(after, sensitive),
    after_unknown: unknownMirror(after),
    before_sensitive: sensitiveMirror(before, sensitive),
    after_sensitive: sensitiveMirror(after, sensitive),
  };
}

/**
 * The plan as `terraform show -json` writes it. Without a context (configuration, data source
 * values, recorded dependencies), configuration and the data sources of prior_state are left out.
 */
export function renderJson(plan: Plan, context: PlanJsonContext = { version: TENANTFORM_VERSION }): PlanJson {
  const sensitive = sensitiveByAddress(plan);
  const secrets = secretTexts(plan);
  const sensitiveOf = (address: string) => sensitive.get(address) ?? new Set<string>();
  // The provider address the configuration names, as terraform shows it (a private registry's host included).
  const providerName = context.configuration?.providerAddress ?? PROVIDER_NAME;

  // Terraform plans the deletion of an object no longer configured from the state as recorded.
  const recorded = new Map(plan.drift.map((d) => [d.address, d.before]));
  const resourceChanges: JsonResourceChange[] = [...plan.changes].sort(byAddress).map((c) => {
    const before = c.actionReason === 'delete_because_no_resource_config' && recorded.has(c.address) ? recorded.get(c.address)! : c.before;
    const change = changeOf(c.forget ? ['forget'] : ACTIONS[c.action], before, c.after, sensitiveOf(c.address));
    return {
      address: c.address,
      ...moduleAddressOf(c.address),
      mode: c.mode,
      type: c.type,
      name: c.name,
      provider_name: providerName,
      change: {
        ...change,
        ...(c.requiresReplace.length > 0 ? { replace_paths: c.requiresReplace } : {}),
        ...(c.importing ? { importing: { id: c.importing.id } } : {}),
      },
      ...(c.actionReason ? { action_reason: c.actionReason } : {}),
      ...(c.previousAddress !== undefined ? { previous_address: c.previousAddress } : {}),
    };
  });

  const resourceDrift: JsonResourceChange[] = [...plan.drift].sort(byAddress).map((d) => ({
    address: d.address,
    ...moduleAddressOf(d.address),
    mode: d.mode,
    type: d.type,
    name: d.name,
    provider_name: providerName,
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

  const prior = priorState(plan, context);
  const outputs = outputChanges(plan);
  const relevant = context.configuration ? relevantAttributes(plan, context.configuration) : [];
  return {
    format_version: FORMAT_VERSION,
    // A Terraform version, as tools that read plan JSON expect; tenantform's own is under `tenantform`.
    terraform_version: TERRAFORM_VERSION,
    planned_values: plannedValues(plan),
    ...(resourceDrift.length > 0 ? { resource_drift: resourceDrift } : {}),
    resource_changes: resourceChanges,
    ...(outputs ? { output_changes: outputs } : {}),
    ...(prior ? { prior_state: prior } : {}),
    ...(context.configuration ? { configuration: configurationJson(context.configuration) } : {}),
    ...(relevant.length > 0 ? { relevant_attributes: relevant } : {}),
    // A refresh-only plan with drift is applied to record the drift in the state.
    applyable: (hasChanges(plan) || (plan.refreshOnly && plan.drift.length > 0)) && !errored,
    complete: true,
    errored,
    timestamp: plan.createdAt,
    tenantform: {
      version: context.version,
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

const byAddress = <T extends { address: string }>(a: T, b: T) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);

export function serializePlanJson(plan: Plan, context?: PlanJsonContext): string {
  return `${JSON.stringify(renderJson(plan, context), null, 2)}\n`;
}

/** Terraform's `module_address` of an object inside a module; nothing for the root module's. */
function moduleAddressOf(address: string): { module_address?: string } {
  const module = parseInstanceAddress(address)?.module;
  return module ? { module_address: module } : {};
}
