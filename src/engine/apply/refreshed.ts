import type { State } from '../../resources/declaration';
import type { Plan } from '../../plans/model';
import { dependenciesOf, sensitiveArguments, type ApplyInput } from './context';

/**
 * Records what the plan saw, before anything is sent, as Terraform does: refreshed objects,
 * objects import blocks adopt, interrupted creates found on the platform, data sources; and
 * forgets objects deleted outside tenantform. Answers how many objects were imported.
 */
export async function recordRefreshed(input: ApplyInput, plan: Plan, data: Readonly<Record<string, State>>): Promise<number> {
  const { state, configuration, changes } = input;
  let imported = 0;
  for (const c of changes.values()) {
    const kind = input.kindOf(c.type)!;
    // A create that cannot be adopted keeps its trace until its create discards what it made.
    if (!(kind.discardLost && c.action === 'create')) state.removePending(c.address);
    if (c.before) state.put(c.address, kind, c.before, dependenciesOf(input, c.address), undefined, sensitiveArguments(input, c.address));
    else state.remove(c.address);
    if (c.importing && c.before) imported++;
    const declared = configuration.objects.get(c.address);
    if (declared) state.setProtected(c.address, declared.preventDestroy);
  }
  for (const d of plan.drift) if (d.action === 'delete' && !changes.get(d.address)?.before) state.remove(d.address);
  // An interrupted create no longer declared, and not found on the platform: nothing is left to track.
  for (const p of state.pending()) if (!configuration.objects.has(p.address)) state.removePending(p.address);
  for (const [address, value] of Object.entries(data)) {
    state.put(address, configuration.objects.get(address)!.kind, value, dependenciesOf(input, address), input.clients.providerOf(address));
  }
  for (const o of state.objects()) if (o.mode === 'data' && !configuration.objects.has(o.address)) state.remove(o.address);
  await state.save();
  return imported;
}
