import { isConflict, isNotFound, PlatformError, ResponseShapeError } from '../api/errors';
import { observeWrites } from '../api/write-outcome';
import type { Diagnostic } from '../diagnostics';
import { networkErrors, TenantformError } from '../errors';
import { faultErrors, resourceErrors } from './errors';
import type { DataSourceKind, OperationContext, ResourceKind, State } from './declaration';
import { holdsPlanned, settledBy } from './holds-planned';
import { recheckUnversioned } from './unversioned';
import { normalize, preserveJsonText } from './values';

/**
 * The generic layer between callers (reconciler, provider) and a kind's operations:
 * each operation takes a request and returns a value and diagnostics, never throws,
 * and every result is normalized the same way.
 */
export interface OperationResult<T> {
  readonly value?: T;
  readonly diagnostics: Diagnostic[];
}

export async function runOperation<T>(address: string, doing: string, fn: () => Promise<T>): Promise<OperationResult<T>> {
  try {
    return { value: await fn(), diagnostics: [] };
  } catch (err) {
    return { diagnostics: [toDiagnostic(err, address, doing)] };
  }
}

export function toDiagnostic(err: unknown, address: string | undefined, doing: string): Diagnostic {
  if (err instanceof TenantformError) {
    const d = err.toDiagnostic();
    return d.address ? d : { ...d, address };
  }
  if (err instanceof PlatformError && err.network) return { ...networkErrors.of(err.network).toDiagnostic(), address };
  if (err instanceof PlatformError) {
    return {
      severity: 'error',
      summary: `${platformFailure(err)} while ${doing}`,
      detail: `${err.message}${err.retryable ? '\nThis is usually temporary: running again may succeed.' : ''}`,
      address,
      code: err.code,
      retryable: err.retryable,
    };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { severity: 'error', summary: `Unexpected failure while ${doing}`, detail: message, address, retryable: false };
}

/** What went wrong, in a user's words: an answer, or no answer at all (nothing reached the platform, or nothing came back). */
function platformFailure(err: PlatformError): string {
  if (err.status !== 0) return 'The platform answered an error';
  return err.code === 'answer_too_large' ? 'The platform answered too much' : 'The platform could not be reached';
}

function withAddress(req: { ctx: OperationContext; address: string }): OperationContext {
  return { ...req.ctx, address: req.address };
}

/**
 * A recorded object as a kind's operations take it: every attribute present, defaults filled (a
 * record written by hand, or by an older version, may leave members out).
 */
function recorded(kind: ResourceKind, s: State): State {
  return normalize(kind.attributes, s);
}

interface Base {
  readonly kind: ResourceKind;
  readonly address: string;
  readonly ctx: OperationContext;
}

/** Reads the live object; value null when it is gone. Keeps recorded JSON text when equal. */
export function readResource(req: Base & { state: State }): Promise<OperationResult<State | null>> {
  return runOperation(req.address, 'reading the object', async () => {
    const live = await req.kind.read(withAddress(req), recorded(req.kind, req.state));
    return live ? preserveJsonText(req.kind.attributes, req.state, normalize(req.kind.attributes, live)) : null;
  });
}

/**
 * Reads several objects of one kind in one request when the kind can. Undefined when it
 * cannot, or when the platform refused the request for what it asked (a gone object makes
 * some batch reads answer 404 as a whole): the caller then reads each alone, which reports
 * each object's own error. A failure that is not about the objects (no connection, no
 * token, the platform unavailable) would meet each single read too: it is reported for
 * every object of the batch at once.
 */
export async function readResourcesInBatch(req: {
  kind: ResourceKind;
  ctx: OperationContext;
  items: ReadonlyArray<{ address: string; state: State }>;
}): Promise<Array<OperationResult<State | null>> | undefined> {
  const { kind, items } = req;
  if (!kind.readMany || items.length === 0) return undefined;
  try {
    const lives = await kind.readMany(
      req.ctx,
      items.map((i) => recorded(kind, i.state)),
    );
    return lives.map((live, n) => ({
      value: live ? preserveJsonText(kind.attributes, items[n].state, normalize(kind.attributes, live)) : null,
      diagnostics: [],
    }));
  } catch (err) {
    if (!(err instanceof PlatformError) || err instanceof ResponseShapeError || aboutTheRequest(err)) return undefined;
    return items.map((i) => ({ diagnostics: [toDiagnostic(err, i.address, 'reading the object')] }));
  }
}

/** An answer refusing what was asked (4xx other than authorisation and throttling), not the platform failing. */
function aboutTheRequest(err: PlatformError): boolean {
  return err.status >= 400 && err.status < 500 && ![401, 403, 429].includes(err.status);
}

export function createResource(req: Base & { planned: State }): Promise<OperationResult<State>> {
  return runOperation(req.address, 'creating the object', async () => {
    const ctx = withAddress(req);
    const created = await confirmingLostWrites(req.kind, ctx, req.planned, nonIdempotent(req.kind) ? undefined : settledBy(req.planned, {}), () =>
      req.kind.create(ctx, req.planned),
    );
    return preserveJsonText(req.kind.attributes, req.planned, normalize(req.kind.attributes, created));
  });
}

export function updateResource(req: Base & { prior: State; planned: State }): Promise<OperationResult<State>> {
  return runOperation(req.address, 'updating the object', async () => {
    const ctx = withAddress(req);
    const prior = recorded(req.kind, req.prior);
    const planned = await recheckUnversioned(req.kind, ctx, req.address, prior, req.planned);
    if (!planned) throw resourceErrors.goneDuringApply(req.address);
    const updated = await confirmingLostWrites(req.kind, ctx, planned, prior, () => req.kind.update(ctx, prior, planned));
    return preserveJsonText(req.kind.attributes, req.planned, normalize(req.kind.attributes, updated));
  });
}

/** A create that cannot be repeated is found again by its natural key instead (create-pending). */
function nonIdempotent(kind: ResourceKind): boolean {
  return kind.nonIdempotentCreate === true;
}

/**
 * Runs a write. When it fails with a conflict after one of its requests lost its answer and was
 * repeated, the repetition may have met the first one's effect (a version already moved on): the
 * object is read, and when it holds what was planned the write succeeded. Otherwise the conflict
 * is real and reported as it came. `known` is what reads the object (undefined: it cannot be read
 * without the lost answer).
 */
async function confirmingLostWrites(
  kind: ResourceKind,
  ctx: OperationContext,
  planned: State,
  known: State | undefined,
  write: () => Promise<State>,
): Promise<State> {
  const outcome = await observeWrites(write);
  if (outcome.ok) return outcome.value;
  if (!outcome.uncertain || !isConflictError(outcome.error)) throw outcome.error;
  if (known === undefined) throw faultErrors.createOutcomeUnknown(ctx.address ?? kind.type, errorText(outcome.error));
  const live = await kind.read(ctx, recorded(kind, known));
  if (live && holdsPlanned(kind, planned, normalize(kind.attributes, live))) return live;
  throw outcome.error;
}

function errorText(err: unknown): string {
  return err instanceof TenantformError ? err.summary : err instanceof Error ? err.message : String(err);
}

/** A 409 from the platform, or the version conflict a kind made of one. */
function isConflictError(err: unknown): boolean {
  return isConflict(err) || (err instanceof TenantformError && err.code === 'version_conflict');
}

export function deleteResource(req: Base & { prior: State }): Promise<OperationResult<void>> {
  return runOperation(req.address, 'deleting the object', async () => {
    const prior = recorded(req.kind, req.prior);
    // Already gone is what a delete wants.
    if (await recheckUnversioned(req.kind, withAddress(req), req.address, prior, prior)) await req.kind.delete(withAddress(req), prior);
  });
}

/**
 * Finds the object an interrupted create made; value null when there is none. Objects whose
 * identity is in `held` (recorded for other addresses) are never candidates.
 */
export function adoptResource(req: Base & { pending: State; held: ReadonlySet<string> }): Promise<OperationResult<State | null>> {
  return runOperation(req.address, 'looking for the object of an interrupted create', async () => {
    let all: State[] = [];
    try {
      all = req.kind.adoptionCandidates ? await req.kind.adoptionCandidates(withAddress(req), recorded(req.kind, req.pending)) : [];
    } catch (err) {
      // Where it was to be made is gone (its tenant deleted, say): so is anything the create made there.
      if (!isNotFound(err)) throw err;
    }
    const free = all.filter((c) => !req.held.has(req.kind.identity(c)));
    if (free.length > 1)
      throw faultErrors.adoptionAmbiguous(
        req.address,
        free.map((c) => req.kind.identity(c)),
        all.length - free.length,
      );
    return free[0] ? preserveJsonText(req.kind.attributes, req.pending, normalize(req.kind.attributes, free[0])) : null;
  });
}

/**
 * Deletes what an interrupted create made, for a kind that cannot adopt it (`discardLost`); the
 * value lists the identities deleted, empty when the kind has nothing to discard.
 */
export function discardLostResource(req: Base & { pending: State }): Promise<OperationResult<string[]>> {
  return runOperation(req.address, 'deleting the object of an interrupted create', async () =>
    req.kind.discardLost ? await req.kind.discardLost(withAddress(req), recorded(req.kind, req.pending)) : [],
  );
}

/** Reads an existing object by its import id; an error diagnostic when it does not exist. */
export function importResource(req: Base & { id: string }): Promise<OperationResult<State>> {
  return runOperation(req.address, `importing "${req.id}"`, async () => {
    const parsed = req.kind.importId.parse(req.id);
    if (!parsed) throw resourceErrors.invalidImportId(req.kind.type, req.id, req.kind.importId.format);
    const live = await req.kind.read(withAddress(req), normalize(req.kind.attributes, parsed));
    if (!live) throw resourceErrors.notFoundForImport(req.kind.type, req.id);
    // No recorded text yet: JSON values are written as jsonencode writes them.
    return preserveJsonText(req.kind.attributes, null, normalize(req.kind.attributes, live));
  });
}

export function readDataSource(req: { kind: DataSourceKind; address: string; ctx: OperationContext; config: State }): Promise<OperationResult<State>> {
  return runOperation(req.address, 'reading the data source', async () =>
    normalize(req.kind.attributes, await req.kind.read(withAddress(req), normalize(req.kind.attributes, req.config))),
  );
}
