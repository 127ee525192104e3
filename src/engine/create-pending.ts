import type { Diagnostic } from '../diagnostics';
import type { OperationContext, ResourceKind, State } from '../resources/declaration';
import { holdsPlanned, settledBy } from '../resources/holds-planned';
import { adoptResource, createResource, discardLostResource, updateResource } from '../resources/operations';
import type { CreateGate } from './adoption';

export interface PendingCreateRequest {
  readonly kind: ResourceKind;
  readonly address: string;
  readonly ctx: OperationContext;
  readonly planned: State;
  /** The planned object as recorded in the state's pending creates (nothing unknown). */
  readonly pending: State;
  readonly gate: CreateGate;
  /** Identities recorded for other addresses now. */
  readonly held: () => ReadonlySet<string>;
  /** Records the object made (inside the gate, so the next search sees it as held). */
  readonly record: (value: State) => Promise<void>;
}

export interface PendingCreateResult {
  readonly value?: State;
  readonly diagnostics: Diagnostic[];
  /** The create's answer was lost and the object it made was found. */
  readonly adopted?: boolean;
}

/** Rounds of create-then-search before the error is reported (each request has its own time budget). */
const MAX_ROUNDS = 5;

/**
 * A create that cannot be repeated blindly. When its answer is lost (the connection dropped,
 * or an answer that does not say the platform did nothing), the platform may have made the
 * object: it is looked for and adopted; only when it is not there is the create sent again. A
 * kind that cannot adopt (`discardLost`) has what the create made deleted, then creates again.
 */
export async function createOrAdopt(req: PendingCreateRequest): Promise<PendingCreateResult> {
  for (let round = 1; ; round++) {
    const sent = await req.gate.withShared(async () => {
      const r = await createResource(req);
      if (r.value) await req.record(r.value);
      return r;
    });
    if (sent.value || !answerLost(sent.diagnostics) || round >= MAX_ROUNDS) return sent;
    if (req.kind.discardLost) {
      // Not adoptable (what only the answer carried is gone): what the create made is deleted, then made again.
      const discarded = await req.gate.withExclusive(() => discardLostResource({ ...req, pending: req.pending }));
      if (discarded.value === undefined) return { diagnostics: [...sent.diagnostics, ...discarded.diagnostics] };
      continue;
    }
    const found = await req.gate.withExclusive(async () => {
      const r = await adoptResource({ ...req, pending: req.pending, held: req.held() });
      if (r.value) await req.record(r.value);
      return r;
    });
    if (found.value) return { ...(await finishAdopted(req, found.value)), adopted: true };
    if (found.value === undefined) return { diagnostics: [...sent.diagnostics, ...found.diagnostics] };
  }
}

/**
 * A lost create may have stopped half-way (a tenant made, its pricing not yet switched): what the
 * adopted object lacks of the plan is written now, so that one apply converges.
 */
async function finishAdopted(req: PendingCreateRequest, found: State): Promise<PendingCreateResult> {
  if (holdsPlanned(req.kind, req.planned, found)) return { value: found, diagnostics: [] };
  // What the platform decides comes from the object found, not from the plan.
  const planned = settledBy(req.planned, found);
  const updated = await req.gate.withShared(async () => {
    const r = await updateResource({ kind: req.kind, address: req.address, ctx: req.ctx, prior: found, planned });
    if (r.value) await req.record(r.value);
    return r;
  });
  // Adopted and recorded as found; the plan not reached is the create's failure, not a success to hide.
  return updated.value ? { value: updated.value, diagnostics: updated.diagnostics } : { diagnostics: updated.diagnostics };
}

/** A failure after which the platform may have acted: the retry policy gave up on a request it could not repeat. */
function answerLost(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.length > 0 && diagnostics.every((d) => d.retryable === true);
}
