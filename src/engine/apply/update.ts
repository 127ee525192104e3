import { updateResource } from '../../resources/operations';
import type { PlannedChange } from '../../plans/model';
import { fail, recordApplied, type ApplyContext } from './context';
import { finalPlanned, postconditions } from './final-plan';

/** Updates the object in place; one found unchanged once every value is known sends nothing. */
export async function updateObject(ctx: ApplyContext, change: PlannedChange): Promise<boolean> {
  const kind = ctx.kindOf(change.type)!;
  const step = ctx.progress.start(change.address, 'update', change.before);
  const final = await finalPlanned(ctx, change, change.before);
  if (Array.isArray(final)) return fail(ctx, step, final);
  if (final.unchanged) {
    step.done(change.before);
    return true;
  }
  // The prior object is the one the plan saw: its version is what the update sends.
  const r = await updateResource({
    kind,
    address: change.address,
    ctx: ctx.clients.ctx(change.address),
    prior: change.before!,
    planned: final.planned,
  });
  if (!r.value) return fail(ctx, step, r.diagnostics);
  await recordApplied(ctx, change.address, kind, r.value);
  const post = postconditions(ctx, change.address, r.value);
  if (post.length > 0) return fail(ctx, step, post);
  ctx.counts.changed++;
  step.done(r.value);
  return true;
}
