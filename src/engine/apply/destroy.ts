import { deleteResource } from '../../resources/operations';
import type { PlannedChange } from '../../plans/model';
import { fail, type ApplyContext } from './context';

/** Deletes the object, or only forgets it (a removed block with destroy = false); either way it leaves the state. */
export async function destroyObject(ctx: ApplyContext, change: PlannedChange): Promise<boolean> {
  const kind = ctx.kindOf(change.type)!;
  if (change.forget) {
    // Nothing is sent: the object stays on the platform.
    ctx.state.remove(change.address);
    ctx.state.setProtected(change.address, false);
    await ctx.journal.durable();
    return true;
  }
  const step = ctx.progress.start(change.address, 'delete', change.before);
  const r = await deleteResource({ kind, address: change.address, ctx: ctx.clients.ctx(change.address), prior: change.before! });
  if (r.diagnostics.length > 0) return fail(ctx, step, r.diagnostics);
  ctx.state.remove(change.address);
  ctx.state.setProtected(change.address, false);
  await ctx.journal.durable();
  ctx.counts.destroyed++;
  step.done(null, kind.deleteOnlyForgets ? 'removed from the state only: the platform cannot delete it' : undefined);
  return true;
}
