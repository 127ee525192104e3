import type { AttributePath, Diagnostic } from '../diagnostics';
import type { Action } from '../resources/plan';
import type { State } from '../resources/declaration';

/**
 * The plan as data: built by the planner, rendered by text/markdown/JSON renderers,
 * saved as a plan file and re-checked by apply.
 */

export type Mode = 'managed' | 'data';

export interface PlannedChange {
  /** `tenantform_infra_component.primary` */
  readonly address: string;
  readonly mode: Mode;
  readonly type: string;
  readonly name: string;
  /** The count index or for_each key of the instance. */
  readonly index?: number | string;
  readonly action: Action;
  /** The object as it is now (refreshed live; the recorded state when it could not be read). */
  readonly before: State | null;
  /** The object after apply; `Unknown` (src/resources/values.ts) marks values known only after apply. */
  readonly after: State | null;
  /** For `replace`: the attribute paths that force it. */
  readonly requiresReplace: AttributePath[];
  /** Top-level attributes whose value changes. */
  readonly changed: string[];
  /** Top-level attributes that are sensitive (never shown). */
  readonly sensitive: readonly string[];
  /** Attributes that identify the object, shown even when unchanged. */
  readonly identifying: readonly string[];
  /**
   * Terraform's action_reason: `replace_because_cannot_update` for replacement,
   * `delete_because_no_resource_config` for removal from configuration.
   */
  readonly actionReason?: 'replace_because_cannot_update' | 'replace_because_tainted' | 'replace_by_request' | 'delete_because_no_resource_config';
  /** What the plan saw, re-checked by apply: the version field, or a fingerprint. */
  readonly seen?: { readonly version?: number | null; readonly fingerprint?: string | null };
  /** The address the object had before a `moved` block gave it this one (Terraform's previous_address). */
  readonly previousAddress?: string;
  /** A delete that only removes the object from the state (a `removed` block with `destroy = false`): Terraform's "forget". */
  readonly forget?: true;
  /** The object is adopted by an `import` block with this id (`before` is what was read): Terraform's `importing`. */
  readonly importing?: { readonly id: string };
}

/** One attribute that moved outside tenantform since the last apply. */
export interface AttributeDrift {
  readonly path: AttributePath;
  /** Value recorded in the state. */
  readonly state: unknown;
  /** Value on the platform now. */
  readonly live: unknown;
}

export interface DriftedResource {
  readonly address: string;
  readonly mode: Mode;
  readonly type: string;
  readonly name: string;
  /** `update`: changed outside tenantform; `delete`: deleted outside tenantform. */
  readonly action: 'update' | 'delete';
  readonly before: State | null;
  readonly after: State | null;
  readonly changes: AttributeDrift[];
}

/** How an output of the root module changes (Terraform's output_changes). */
export interface OutputChange {
  readonly name: string;
  readonly action: 'create' | 'update' | 'delete' | 'no-op';
  readonly before?: unknown;
  readonly after?: unknown;
  /** The value is known only after apply. */
  readonly afterUnknown?: boolean;
  readonly sensitive: boolean;
}

export interface Plan {
  readonly stack: string;
  /** sha256 of the canonical configuration the plan was made from. */
  readonly configHash: string;
  /** The state the plan was made against (null when there was none). */
  readonly priorState: { readonly lineage: string; readonly serial: number } | null;
  readonly changes: PlannedChange[];
  readonly drift: DriftedResource[];
  readonly outputChanges: OutputChange[];
  readonly diagnostics: Diagnostic[];
  readonly refreshOnly: boolean;
  /** A destroy plan (`tenantform destroy`, `plan -destroy`): every recorded object is deleted. */
  readonly destroy?: boolean;
  readonly createdAt: string;
}

export interface PlanSummary {
  /** Objects adopted by import blocks (each also counted as a change when its arguments differ). */
  readonly import: number;
  readonly add: number;
  readonly change: number;
  readonly destroy: number;
}

/** Counts as Terraform does: a replacement is one add and one destroy. */
export function summarize(changes: ReadonlyArray<PlannedChange>): PlanSummary {
  let imported = 0;
  let add = 0;
  let change = 0;
  let destroy = 0;
  for (const c of changes) {
    if (c.mode !== 'managed') continue;
    if (c.importing) imported++;
    if (c.action === 'create') add++;
    else if (c.action === 'update') change++;
    else if (c.action === 'delete' && !c.forget) destroy++;
    else if (c.action === 'replace') {
      add++;
      destroy++;
    }
  }
  return { import: imported, add, change, destroy };
}

/** Terraform's summary: `1 to import, 0 to add, 1 to change, 0 to destroy.` (imports only when there are some). */
export function summaryText(s: PlanSummary): string {
  return `${s.import > 0 ? `${s.import} to import, ` : ''}${s.add} to add, ${s.change} to change, ${s.destroy} to destroy.`;
}

/** Outputs whose value changes (applying records them in the state even without resource changes). */
export function changedOutputs(plan: Plan): OutputChange[] {
  // Plans saved before outputs were planned have none.
  return (plan.outputChanges ?? []).filter((o) => o.action !== 'no-op');
}

export function hasChanges(plan: Plan): boolean {
  return (
    plan.changes.some((c) => c.mode === 'managed' && (c.action !== 'no-op' || c.previousAddress !== undefined || c.importing !== undefined)) ||
    hasOutputChanges(plan)
  );
}

/** Whether applying would record new output values (plans saved before outputs existed have none). */
export function hasOutputChanges(plan: Plan): boolean {
  return (plan.outputChanges ?? []).some((o) => o.action !== 'no-op');
}

/** A plan, and the data source values it was made with (apply resolves references with them). */
export interface PlanResult {
  readonly plan: Plan;
  readonly data: Record<string, State>;
}
