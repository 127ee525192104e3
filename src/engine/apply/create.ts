import type { ResourceKind, State } from '../../resources/declaration';
import { createResource, discardLostResource } from '../../resources/operations';
import { CreateGate, heldIdentities } from '../adoption';
import { createOrAdopt, type PendingCreateResult } from '../create-pending';
import type { PlannedChange } from '../../plans/model';
import { fail, recordApplied, type ApplyContext } from './context';
import { finalPlanned, postconditions } from './final-plan';

/**
 * Creates the object. A kind whose create cannot be repeated blindly records it as pending
 * before the request, so that an interrupted create is adopted, not made twice, by the next run.
 */
export async function createObject(ctx: ApplyContext, change: PlannedChange): Promise<boolean> {
  const kind = ctx.kindOf(change.type)!;
  const step = ctx.progress.start(change.address, 'create');
  const final = await finalPlanned(ctx, change, null);
  if (Array.isArray(final)) return fail(ctx, step, final);
  const { state } = ctx;
  const planned = kind.prepareCreate ? kind.prepareCreate(final.planned) : final.planned;
  if (kind.nonIdempotentCreate) {
    const interrupted = state.pending().find((p) => p.address === change.address);
    if (interrupted && kind.discardLost) {
      // An earlier run's create that cannot be adopted: what it made goes before it is made again.
      const discarded = await discardLostResource({
        kind,
        address: change.address,
        ctx: ctx.clients.ctx(change.address),
        pending: interrupted.attributes,
      });
      if (discarded.value === undefined) return fail(ctx, step, discarded.diagnostics);
    }
    // Recorded before the request: a crash in between leaves a trace the next run adopts.
    state.addPending(change.address, stripUnknown(planned));
    await ctx.journal.durablePending();
  }
  const r = kind.nonIdempotentCreate ? await createPending(ctx, kind, change.address, planned) : await createPlain(ctx, kind, change.address, planned);
  if (!r.value) {
    // A refusal (not retryable) means nothing was created; anything else may have been.
    if (kind.nonIdempotentCreate && r.diagnostics.every((d) => d.retryable === false)) {
      state.removePending(change.address);
      await ctx.journal.durable();
    }
    return fail(ctx, step, r.diagnostics);
  }
  const post = postconditions(ctx, change.address, r.value);
  if (post.length > 0) return fail(ctx, step, post);
  ctx.counts.added++;
  step.done(r.value, r.adopted ? 'its answer was lost; found on the platform and adopted' : undefined);
  return true;
}

async function createPlain(ctx: ApplyContext, kind: ResourceKind, address: string, planned: State): Promise<PendingCreateResult> {
  const r = await createResource({ kind, address, ctx: ctx.clients.ctx(address), planned });
  if (r.value) await recordApplied(ctx, address, kind, r.value);
  return r;
}

function createPending(ctx: ApplyContext, kind: ResourceKind, address: string, planned: State): Promise<PendingCreateResult> {
  // One gate per kind and data center.
  const gateKey = `${kind.type} ${ctx.clients.providerOf(address)}`;
  let gate = ctx.gates.get(gateKey);
  if (!gate) ctx.gates.set(gateKey, (gate = new CreateGate()));
  const recorded = () =>
    new Map(
      ctx.state
        .objects()
        .filter((o) => o.mode === 'managed')
        .map((o) => [o.address, o.attributes] as const),
    );
  return createOrAdopt({
    kind,
    address,
    ctx: ctx.clients.ctx(address),
    planned,
    pending: stripUnknown(planned),
    gate,
    held: () => heldIdentities(kind, recorded(), address),
    record: (value) => recordApplied(ctx, address, kind, value),
  });
}

function stripUnknown(s: State): State {
  return JSON.parse(JSON.stringify(s, (_k, v: unknown) => (typeof v === 'symbol' ? null : v))) as State;
}
