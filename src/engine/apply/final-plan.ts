import type { Diagnostic } from '../../diagnostics';
import type { State } from '../../resources/declaration';
import { planResource } from '../../resources/plan';
import { containsUnknown } from '../../resources/values';
import type { PlannedChange } from '../../plans/model';
import { evaluateArguments } from '../../config/evaluate';
import { conditionErrors } from '../../config/checks';
import { contextFor, withSelf } from '../../config/expression-scope';
import type { ApplyContext } from './context';

/** The planned object with every reference now known; diagnostics instead when it cannot be. */
export async function finalPlanned(
  ctx: ApplyContext,
  change: PlannedChange,
  prior: State | null,
): Promise<{ planned: State; unchanged: boolean } | Diagnostic[]> {
  const kind = ctx.kindOf(change.type)!;
  const declared = ctx.configuration.objects.get(change.address)!;
  const { config, diagnostics: invalid } = evaluateArguments(declared, ctx.lookup);
  // Values known only now are checked before the request that would carry them.
  if (invalid.length > 0) return [...invalid];
  // So are preconditions that needed them: a false one sends nothing.
  if (declared.conditions.pre.length > 0) {
    const failed = conditionErrors('precondition', declared.conditions.pre, contextFor(ctx.configuration, ctx.values, declared), change.address);
    if (failed.length > 0) return failed;
  }
  const r = await planResource({ kind, address: change.address, config, prior, ignoreChanges: declared.ignoreChanges });
  const expected = prior ? 'update' : 'create';
  if (!r.planned || containsUnknown(config) || (r.action !== expected && r.action !== 'no-op')) {
    return [
      {
        severity: 'error',
        summary: 'The plan changed during apply',
        detail: `Once the values it depends on were known, ${change.address} needed a ${r.action} instead of ${change.action}. Run \`tenantform plan\` again.`,
        address: change.address,
      },
    ];
  }
  return { planned: r.planned, unchanged: r.action === 'no-op' };
}

/**
 * Postconditions on the object as applied (recorded already, as Terraform records it): a false
 * one fails the object, and what depends on it is not applied.
 */
export function postconditions(ctx: ApplyContext, address: string, value: State): Diagnostic[] {
  const declared = ctx.configuration.objects.get(address);
  if (!declared || declared.conditions.post.length === 0) return [];
  return conditionErrors(
    'postcondition',
    declared.conditions.post,
    withSelf(contextFor(ctx.configuration, ctx.values, declared), declared.kind, value),
    address,
  );
}
