import type { ResourceKind, State } from '../../resources/declaration';
import { runOperation } from '../../resources/operations';
import { recheckUnversioned } from '../../resources/unversioned';
import { resourceErrors } from '../../resources/errors';
import { normalize, preserveJsonText } from '../../resources/values';
import type { PlannedChange } from '../../plans/model';
import { failAll, recordApplied, type ApplyContext } from './context';
import { finalPlanned } from './final-plan';

/** Creates and updates of a kind that writes in batches: one request per data center. */
export async function writeBatch(ctx: ApplyContext, kind: ResourceKind, changes: readonly PlannedChange[]): Promise<boolean> {
  const byProvider = new Map<string, PlannedChange[]>();
  for (const c of changes) {
    const provider = ctx.clients.providerOf(c.address);
    byProvider.set(provider, [...(byProvider.get(provider) ?? []), c]);
  }
  const results = await Promise.all([...byProvider.values()].map((group) => writeOneBatch(ctx, kind, group)));
  return results.every(Boolean);
}

async function writeOneBatch(ctx: ApplyContext, kind: ResourceKind, changes: PlannedChange[]): Promise<boolean> {
  const batch = kind.writeBatch!;
  const steps = changes.map((c) => ctx.progress.start(c.address, c.action === 'create' ? 'create' : 'update', c.before));
  const finals = await Promise.all(changes.map((c) => finalPlanned(ctx, c, c.before)));
  const problems = finals.flatMap((f) => (Array.isArray(f) ? f : []));
  if (problems.length > 0) return failAll(ctx, steps, problems);
  const rechecked = await Promise.all(
    changes.map((c, i) => {
      const planned = (finals[i] as { planned: State }).planned;
      return c.before ? recheck(ctx, kind, c.address, c.before, planned) : { value: planned, diagnostics: [] };
    }),
  );
  const refused = rechecked.flatMap((r) => r.diagnostics);
  if (refused.length > 0) return failAll(ctx, steps, refused);
  const planned = rechecked.map((r) => r.value!);
  const r = await runOperation(changes.map((c) => c.address).join(', '), batch.doing, () => batch.write(ctx.clients.ctx(changes[0].address), planned));
  if (!r.value) return failAll(ctx, steps, r.diagnostics);
  for (const [i, c] of changes.entries()) {
    const value = preserveJsonText(kind.attributes, planned[i], normalize(kind.attributes, r.value[i]));
    await recordApplied(ctx, c.address, kind, value);
    if (c.action === 'create') ctx.counts.added++;
    else ctx.counts.changed++;
    steps[i].done(value);
  }
  return true;
}

/** What a batched update sends, once the object is read again and found as the plan saw it. */
function recheck(ctx: ApplyContext, kind: ResourceKind, address: string, seen: State, planned: State) {
  return runOperation(address, 'reading the object again before writing it', async () => {
    const fresh = await recheckUnversioned(kind, { ...ctx.clients.ctx(address), address }, address, seen, planned);
    if (!fresh) throw resourceErrors.goneDuringApply(address);
    return fresh;
  });
}
