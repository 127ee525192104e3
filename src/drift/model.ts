/** The drift check's findings, shared by the check, the ignore rules and the search for unmanaged objects. */
import type { Diagnostic } from '../diagnostics';
import type { AttributeDrift } from '../plans/model';
import type { Action } from '../resources/plan';

/** `unknown`: the object could not be read (an error says why). */
export type DriftStatus = 'in_sync' | 'drifted' | 'deleted' | 'unknown';

export interface ResourceDriftReport {
  readonly address: string;
  readonly type: string;
  readonly status: DriftStatus;
  /** For `drifted`: each attribute that moved, with its value in the state and on the platform. */
  readonly changes: AttributeDrift[];
  /** Top-level attributes that moved but are listed in `lifecycle.ignore_changes`. */
  readonly ignored: string[];
  /** Sensitive top-level attributes: their values are never shown. */
  readonly sensitive: string[];
}

/** An object whose configuration differs from what was last applied (not drift: `tenantform plan` shows it). */
export interface ConfigurationDifference {
  readonly address: string;
  readonly action: Exclude<Action, 'no-op'>;
}

export interface DriftReport {
  readonly stack: string;
  /** Every object recorded in the state, in state order. */
  readonly resources: ResourceDriftReport[];
  readonly configurationDiffers: ConfigurationDifference[];
  readonly diagnostics: Diagnostic[];
  /** Tenant ids the recorded and declared objects belong to (for the alert's tenant). */
  readonly tenantIds: string[];
  /** When the check ran (ISO 8601). */
  readonly checkedAt?: string;
  /** Objects of the managed tenants that no configuration declares (absent with --ignore-unmanaged). */
  readonly unmanaged?: UnmanagedObject[];
  readonly coverage?: Coverage;
}

export interface UnmanagedObject {
  readonly type: string;
  /** The id `tenantform import` takes. */
  readonly id: string;
  readonly tenantId: string;
  readonly tenantName: string;
  /** Words naming it within its tenant, e.g. `backup retention_days`. */
  readonly label: string;
}

export interface Coverage {
  /** Objects of the managed tenants that the stack manages. */
  readonly managed: number;
  readonly unmanaged: number;
  /** managed / (managed + unmanaged), in percent, one decimal; null when there is nothing to compare (no share to claim). */
  readonly percent: number | null;
}
