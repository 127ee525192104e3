import type { TenantformError } from '../../errors';
import type { EvalContext } from '../../expressions';
import type { BlockInstances } from '../configuration';
import { parseImports, type ImportTarget } from '../imports';
import type { ConfigurationDocument } from '../model';
import { isWithinModule, parseMoves, parseRemovals, type Move, type Removal } from '../moves';
import type { Instance } from '../repetition';

/**
 * The `moved`, `removed` and `import` blocks: what becomes of recorded objects, and which live
 * objects are adopted, before anything is planned. Each names declared blocks and their instances.
 */
export function relocations(
  doc: Pick<ConfigurationDocument, 'moved' | 'removed' | 'imports'>,
  blocks: ReadonlyMap<string, BlockInstances>,
  contextFor: (instance?: Instance) => EvalContext,
  report: (err: unknown) => void,
): { moves: Move[]; removals: Removal[]; imports: ImportTarget[] } {
  const problems: TenantformError[] = [];
  const declared = {
    has: (b: string) => blocks.has(b),
    instances: (b: string) => blocks.get(b)?.instances,
    within: (module: string) => [...blocks.keys()].some((b) => isWithinModule(b, module)),
  };
  const moves = parseMoves(doc.moved, declared, problems);
  const removals = parseRemovals(doc.removed, declared, problems);
  const imports = parseImports(doc.imports, declared, contextFor, problems);
  problems.forEach(report);
  return { moves, removals, imports };
}
