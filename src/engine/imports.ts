import type { Diagnostic } from '../diagnostics';
import { engineErrors } from './errors';
import type { ResourceKind } from '../resources/declaration';
import { importResource } from '../resources/operations';
import type { Configuration } from '../config/config';
import { lookupIn } from '../config/evaluate';
import type { ProviderClients } from './clients';
import { importedValue } from './import';
import { knownValues, type Refreshed } from './refresh';
import type { StateStore } from '../state/state';
import { mapLimited } from '../graph/graph';
import { resourceKind } from '../resources/registry';

export interface ImportsOptions {
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly clients: ProviderClients;
  readonly refreshed: Refreshed;
  /** `-parallelism` when given (a cap); undefined: the data centers' request budgets decide (see `ProviderClients.atOnce`). */
  readonly parallelism?: number;
}

/** What the plan imports: the objects read, as `refreshed.live` holds recorded ones, and the id of each. */
export interface Imported {
  readonly refreshed: Refreshed;
  /** Import id by address, for the plan's `importing`. */
  readonly importing: ReadonlyMap<string, string>;
}

/**
 * Reads the object of each `import` block whose address the state does not hold yet, as
 * Terraform's plan does: the plan then compares the configuration with it (no create), and
 * apply records it. An id the platform does not know is an error naming the block. An address
 * the state holds already is left as it is: the block has done its work.
 */
export async function readImports(opts: ImportsOptions): Promise<Imported> {
  const { configuration, state, refreshed } = opts;
  const pending = configuration.imports.filter((t) => state.get(t.to) === undefined);
  if (pending.length === 0) return { refreshed, importing: new Map() };
  const live = new Map(refreshed.live);
  const importing = new Map<string, string>();
  const diagnostics: Diagnostic[] = [...refreshed.diagnostics];
  const lookup = lookupIn(configuration, knownValues(refreshed));
  const managedAt = new Map<string, string>();
  for (const o of state.objects())
    if (o.mode === 'managed') managedAt.set(`${o.type} ${resourceKind(o.type)?.identity(o.attributes) ?? String(o.attributes.id)}`, o.address);

  const reads = await mapLimited(pending, opts.clients.atOnce(opts.parallelism), async (target) => {
    const declared = configuration.objects.get(target.to)!;
    const kind = declared.kind as ResourceKind;
    return { target, kind, declared, read: await importResource({ kind, address: target.to, ctx: opts.clients.ctx(target.to), id: target.id }) };
  });
  for (const { target, kind, declared, read } of reads) {
    if (!read.value) {
      diagnostics.push(...read.diagnostics.map((d) => ({ ...d, detail: `${d.detail}\n${target.at} imports "${target.id}" into ${target.to}.` })));
      continue;
    }
    const twin = managedAt.get(`${declared.type} ${kind.identity(read.value)}`);
    if (twin !== undefined) {
      const remedy = `remove the import block ${target.at}, or ${twin} from the state`;
      diagnostics.push(engineErrors.importedElsewhere(target.to, twin, kind.identity(read.value), remedy).toDiagnostic());
      continue;
    }
    const imported = importedValue(declared, read.value, lookup);
    diagnostics.push(...imported.diagnostics);
    live.set(target.to, imported.value);
    importing.set(target.to, target.id);
  }
  return { refreshed: { ...refreshed, live, diagnostics }, importing };
}
