/**
 * Drift raised as an alert in the platform's own alert manager, so that whoever watches the
 * platform's alerts sees that the configuration and the platform disagree.
 */
import { randomUUID } from 'node:crypto';
import type { PlatformClient } from '../api';
import { isNotFound, PlatformError } from '../api/errors';
import { TenantformError } from '../errors';

/** The custom alert type tenantform registers on first use. */
export const DRIFT_ALERT_TYPE = 'tenantform.drift';
const SEVERITY = 'warning';
/** Addresses listed in one alert; the count says how many there were in all. */
const MAX_LISTED = 100;

export interface DriftAlert {
  /** The tenant the alert is raised for (usually the stack's top tenant). */
  readonly tenantId: string;
  readonly stack: string;
  /** Addresses of the resources that drifted. */
  readonly addresses: readonly string[];
  /** One sentence, e.g. `2 resources changed outside tenantform`. */
  readonly summary: string;
}

export interface RaisedAlert {
  readonly alertId: string;
  /** True when this call registered the alert type. */
  readonly typeRegistered: boolean;
}

/**
 * Raises ONE drift alert. The alert type is registered first when the platform does not know
 * it yet. Creating an alert is not idempotent, so it is never repeated: when the answer is
 * lost, the alerts are searched for this run's id to tell whether it was raised.
 */
export async function raiseDriftAlert(client: PlatformClient, drift: DriftAlert): Promise<RaisedAlert> {
  const typeRegistered = await ensureAlertType(client);
  const runId = randomUUID();
  const listed = drift.addresses.slice(0, MAX_LISTED);
  const details = {
    source: 'tenantform',
    run_id: runId,
    stack: drift.stack,
    summary: drift.summary,
    drifted: listed,
    drifted_count: drift.addresses.length,
    ...(listed.length < drift.addresses.length ? { drifted_truncated: true } : {}),
    detected_at: new Date().toISOString(),
  };
  try {
    // GAPS "Custom alert": POST /alerts {type, tenantID, severity, details} -> {id}.
    const alertId = await client.createAlert({ type: DRIFT_ALERT_TYPE, tenantID: drift.tenantId, severity: SEVERITY, details });
    return { alertId, typeRegistered };
  } catch (err) {
    // No answer at all: the alert may exist. Look for it rather than send it again.
    if (err instanceof PlatformError && err.status === 0) {
      const found = await findByRun(client, drift.tenantId, runId);
      if (found) return { alertId: found, typeRegistered };
    }
    throw alertFailed(drift, err);
  }
}

/** Registers the drift alert type unless the platform has it; true when it was registered now. */
export async function ensureAlertType(client: PlatformClient): Promise<boolean> {
  try {
    await client.getAlertType(DRIFT_ALERT_TYPE);
    return false;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  // GAPS "Registering a custom alert type": POST /types {items: [...]} -> 204. The id is ours,
  // so registering again (two runs at once) only stores the same type twice.
  // The reference requires the context keys, searchable details and operating systems too: the
  // drift alert has no context keys, is found by its stack, and is about no operating system.
  await client.registerAlertTypes([
    { id: DRIFT_ALERT_TYPE, severity: SEVERITY, enabled: true, category: 'custom', contextKeys: [], searchableDetails: ['stack', 'source'], supportedOS: [] },
  ]);
  return true;
}

async function findByRun(client: PlatformClient, tenantId: string, runId: string): Promise<string | undefined> {
  try {
    const alerts = await client.listAlerts({ type: DRIFT_ALERT_TYPE, tenant: tenantId });
    return alerts.find((a) => a.details?.run_id === runId)?.id;
  } catch {
    return undefined;
  }
}

function alertFailed(drift: DriftAlert, err: unknown): TenantformError {
  const reason = err instanceof Error ? err.message : String(err);
  const unknownOutcome = err instanceof PlatformError && err.status === 0;
  return new TenantformError(
    'drift_alert_failed',
    'The drift alert could not be raised',
    `Raising the drift alert for stack ${JSON.stringify(drift.stack)} on tenant ${drift.tenantId} failed: ${reason}. ` +
      (unknownOutcome
        ? `The platform did not answer, so the alert may exist anyway: check the alerts of type ${DRIFT_ALERT_TYPE} before raising it again.`
        : 'The drift report itself is complete; only the alert is missing.'),
    false,
  );
}

/** What the drift check did with the stack's alert. */
export type AlertOutcome =
  | { readonly action: 'raised'; readonly alertId: string }
  | { readonly action: 'still-active'; readonly alertId: string }
  | { readonly action: 'dismissed'; readonly alertIds: string[] }
  | { readonly action: 'none' };

/** The stack's active drift alerts on the tenant (dismissed ones are not listed). */
async function activeStackAlerts(client: PlatformClient, tenantId: string, stack: string): Promise<string[]> {
  const alerts = await client.listAlerts({ type: DRIFT_ALERT_TYPE, tenant: tenantId });
  return alerts.filter((a) => a.details?.source === 'tenantform' && a.details?.stack === stack).map((a) => a.id);
}

/**
 * One alert per stack while drift lasts: raised when drift is found and none is active, left as
 * it is while it stays, dismissed (DELETE /alerts filtered to its id) once a check finds the
 * stack in sync.
 */
export async function syncDriftAlert(client: PlatformClient, drift: DriftAlert, drifted: boolean): Promise<AlertOutcome> {
  const active = await activeStackAlerts(client, drift.tenantId, drift.stack).catch((err: unknown) => {
    // Without the alert type registered there is no alert to find.
    if (isNotFound(err)) return [];
    throw err;
  });
  if (drifted) {
    if (active.length > 0) return { action: 'still-active', alertId: active[0] };
    return { action: 'raised', alertId: (await raiseDriftAlert(client, drift)).alertId };
  }
  if (active.length === 0) return { action: 'none' };
  // The reference's DELETE /alerts has no `tenant` filter: the ids select the stack's alerts.
  await client.dismissAlerts({ type: DRIFT_ALERT_TYPE, id: active });
  return { action: 'dismissed', alertIds: active };
}
