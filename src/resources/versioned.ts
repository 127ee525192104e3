import { isConflict, isNotFound, type PlatformError } from '../api/errors';
import { TenantformError } from '../errors';
import { resourceErrors } from './errors';
import type { OperationContext, State } from './declaration';

/**
 * Optimistic concurrency for objects with a platform `version` (infrastructure components,
 * usage reports): updates and deletes carry the version the plan saw, and a platform that
 * has moved on is a conflict naming both versions, never a blind retry.
 */
export interface VersionedObject<T extends { version: number }> {
  /** The live object; null when the platform no longer has it. */
  fetch(ctx: OperationContext, id: string): Promise<T | null>;
  /** e.g. `usage report <id>`, for messages. */
  describe(s: State): string;
}

export async function updateVersioned<T extends { version: number }>(
  ctx: OperationContext,
  prior: State,
  object: VersionedObject<T>,
  send: (expected: number) => Promise<T>,
  /** The members the update sends: a 409 after them is no conflict when the object now holds them all. */
  sent?: Readonly<Record<string, unknown>>,
): Promise<T> {
  const id = String(prior.id);
  const expected = Number(prior.version);
  const live = await object.fetch(ctx, id);
  if (!live) throw resourceErrors.goneDuringApply(object.describe(prior));
  if (live.version !== expected) throw conflict(object, prior, expected, live.version);
  try {
    return await send(expected);
  } catch (err) {
    if (!isConflict(err)) throw err;
    // The update's answer lost and the update sent again: the first one moved the version. Nothing
    // is lost by taking the object as it is when it holds everything this update wrote.
    const now = await object.fetch(ctx, id);
    if (now && sent !== undefined && now.version > expected && holds(now, sent)) return now;
    throw conflict(object, prior, expected, now?.version ?? 'unknown');
  }
}

/** Whether `live` holds every member of `sent` (objects member by member: the platform merges them). */
function holds(live: unknown, sent: unknown): boolean {
  if (sent === undefined) return true;
  if (sent !== null && typeof sent === 'object' && !Array.isArray(sent)) {
    if (live === null || typeof live !== 'object' || Array.isArray(live)) return false;
    return Object.entries(sent).every(([k, v]) => holds((live as Record<string, unknown>)[k], v));
  }
  return JSON.stringify(live) === JSON.stringify(sent);
}

/** Deletes with the version the plan saw; an object already gone is fine. */
export async function deleteVersioned<T extends { version: number }>(
  ctx: OperationContext,
  prior: State,
  object: VersionedObject<T>,
  remove: (expected: number) => Promise<void>,
): Promise<void> {
  const expected = Number(prior.version);
  try {
    await remove(expected);
  } catch (err) {
    if (isNotFound(err)) return;
    if (!isConflict(err)) throw err;
    // A 409 at the version the plan saw is a refusal for another reason (in use), not a stale version.
    const live = await object.fetch(ctx, String(prior.id));
    if (live && live.version === expected) throw refused(object, prior, (err as PlatformError).platformMessage);
    throw conflict(object, prior, expected, live?.version ?? 'unknown');
  }
}

/** Carries no address: the operations layer adds the resource address. */
function conflict<T extends { version: number }>(object: VersionedObject<T>, prior: State, expected: number, live: unknown): TenantformError {
  const e = resourceErrors.versionConflict(object.describe(prior), expected, live);
  return new TenantformError(e.code, e.summary, e.detail, e.retryable);
}

/** The platform refused the delete of an object at the planned version: its reason, as it gave it. */
function refused<T extends { version: number }>(object: VersionedObject<T>, prior: State, reason: string): TenantformError {
  const e = resourceErrors.deleteRefused(object.describe(prior), reason);
  return new TenantformError(e.code, e.summary, e.detail, e.retryable, undefined, e.path);
}
