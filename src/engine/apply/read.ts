import type { DataSourceKind } from '../../resources/declaration';
import { readDataSource } from '../../resources/operations';
import { evaluateArguments } from '../../config/evaluate';
import { dependenciesOf, fail, type ApplyContext } from './context';

/** Reads a data source whose arguments were known only once what it depends on was applied. */
export async function readDataNow(ctx: ApplyContext, address: string): Promise<boolean> {
  const declared = ctx.configuration.objects.get(address)!;
  const step = ctx.progress.start(address, 'read');
  const { config, diagnostics: invalid } = evaluateArguments(declared, ctx.lookup);
  if (invalid.length > 0) return fail(ctx, step, invalid);
  const r = await readDataSource({ kind: declared.kind as DataSourceKind, address, ctx: ctx.clients.ctx(address), config });
  if (!r.value) return fail(ctx, step, r.diagnostics);
  ctx.values.set(address, r.value);
  ctx.state.put(address, declared.kind, r.value, dependenciesOf(ctx, address), declared.provider);
  await ctx.journal.durable();
  step.done(r.value);
  return true;
}
