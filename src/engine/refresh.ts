import { isDataAddress, parseInstanceAddress } from '../state/addresses';
import type { ProviderClients } from './clients';
import type { Diagnostic } from '../diagnostics';
import { engineErrors } from './errors';
import type { DataSourceKind, OperationContext, ResourceKind, State } from '../resources/declaration';
import { withReadCache } from '../api/read-cache';
import { Limiter } from '../resources/limiter';
import { adoptResource, readDataSource } from '../resources/operations';
import { readInBatches, type ReadRequest } from '../resources/read-batches';
import { containsUnknown } from '../resources/values';
import { dependencies, type Configuration } from '../config/config';
import { runInOrder } from '../graph/graph';
import { evaluateArguments, lookupIn } from '../config/evaluate';
import { heldIdentities } from './adoption';
import type { StateStore } from '../state/state';
import type { RecordedObject } from '../state/model';

/** What the platform has now, for every recorded object and every data source that could be read. */
export interface Refreshed {
  /** Data source values by address (those whose arguments depend on managed objects are absent). */
  readonly data: Map<string, State>;
  /** Managed objects by address: the live object, or null when it is gone. */
  readonly live: Map<string, State | null>;
  /** Addresses whose interrupted create was found on the platform (now in `live`). */
  readonly adopted: Set<string>;
  /** Data sources whose read failed (reported in `diagnostics`): planning does not send it again. */
  readonly unreadable?: ReadonlySet<string>;
  readonly diagnostics: Diagnostic[];
}

export interface RefreshOptions {
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly clients: ProviderClients;
  /** `-parallelism` when given (a cap); undefined: the data centers' request budgets decide (see `ProviderClients.atOnce`). */
  readonly parallelism?: number;
  /** false: take the recorded state as live (`--refresh=false`). */
  readonly refresh: boolean;
  readonly kindOf: (type: string) => ResourceKind | undefined;
  /** Called as each recorded object has been read (for progress on the terminal). */
  readonly onRead?: (address: string) => void;
}

/**
 * Reads everything the plan needs, in as few requests as the platform allows: batch reads
 * where a kind has them, data sources and managed objects of every kind overlapping under one
 * parallelism bound, and no request sent twice (the reads of one refresh share their answers).
 */
export async function refresh(opts: RefreshOptions): Promise<Refreshed> {
  const limiter = new Limiter(opts.clients.atOnce(opts.parallelism));
  // Refresh writes nothing, so every read describes the same moment and can be shared (per data center).
  const contexts = new Map(
    opts.clients.names().map((name) => [name, { client: opts.refresh ? withReadCache(opts.clients.named(name)) : opts.clients.named(name) }]),
  );
  const ctxOf = (address: string): OperationContext => contexts.get(opts.clients.providerOf(address)) ?? opts.clients.ctx(address);
  const [fromData, fromManaged] = await Promise.all([readDataSources(opts, ctxOf, limiter), readManaged(opts, ctxOf, limiter)]);
  const diagnostics = [...fromData.diagnostics, ...fromManaged.diagnostics];
  const adopted = await adoptPending(opts, fromManaged.live, diagnostics);
  return { data: fromData.values, live: fromManaged.live, adopted, unreadable: fromData.unreadable, diagnostics };
}

/** The live object of every recorded managed object (the recorded one with `--refresh=false`). */
async function readManaged(
  opts: RefreshOptions,
  ctxOf: (address: string) => OperationContext,
  limiter: Limiter,
): Promise<{ live: Map<string, State | null>; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const live = new Map<string, State | null>();
  const requests: ReadRequest[] = [];
  for (const o of opts.state.objects()) {
    if (o.mode !== 'managed') continue;
    const kind = opts.kindOf(o.type);
    if (!kind) diagnostics.push(unknownRecordedType(o));
    else requests.push({ kind, address: o.address, state: upgraded(kind, o) });
  }
  if (!opts.refresh) {
    for (const r of requests) live.set(r.address, r.state);
    return { live, diagnostics };
  }
  // One set of batches per data center.
  const byProvider = new Map<string, ReadRequest[]>();
  for (const r of requests) {
    const provider = opts.clients.providerOf(r.address);
    const group = byProvider.get(provider);
    if (group) group.push(r);
    else byProvider.set(provider, [r]);
  }
  await Promise.all(
    [...byProvider.values()].map(async (group) => {
      const results = await readInBatches(group, ctxOf(group[0].address), limiter, opts.onRead);
      results.forEach((r, n) => {
        diagnostics.push(...r.diagnostics);
        // When the read failed the plan goes on with the recorded state; the error stops apply.
        live.set(group[n].address, r.value === undefined ? group[n].state : r.value);
        const ignored = r.value ? group[n].kind.notInEffect?.(r.value) : undefined;
        if (ignored) diagnostics.push({ ...ignored, address: group[n].address });
      });
    }),
  );
  return { live, diagnostics };
}

/** Data sources whose arguments are known without any managed object, in dependency order. */
async function readDataSources(
  opts: RefreshOptions,
  ctxOf: (address: string) => OperationContext,
  limiter: Limiter,
): Promise<{ values: Map<string, State>; unreadable: Set<string>; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const values = new Map<string, State>();
  const unreadable = new Set<string>();
  const all = dependencies(opts.configuration);
  const dataOnly = new Map([...all].filter(([a]) => isDataAddress(a)));
  await runInOrder(dataOnly, opts.clients.atOnce(opts.parallelism), async (address) => {
    const declared = opts.configuration.objects.get(address);
    if (!declared) return true; // a group node: all its instances were read
    const { config, diagnostics: invalid } = evaluateArguments(declared, lookupIn(opts.configuration, values));
    diagnostics.push(...invalid);
    if (invalid.length > 0) return false;
    if (containsUnknown(config)) return false; // read during planning, once the managed objects it needs are known
    const r = await limiter.run(() => readDataSource({ kind: declared.kind as DataSourceKind, address, ctx: ctxOf(address), config }));
    diagnostics.push(...r.diagnostics);
    if (r.value) values.set(address, r.value);
    else unreadable.add(address);
    return r.value !== undefined;
  });
  return { values, unreadable, diagnostics };
}

/**
 * Creates interrupted before their answer was recorded: the object is looked for on the
 * platform and adopted, so that the create is never sent twice. One at a time, so that two
 * pending creates of the same configuration never adopt the same object; objects recorded for
 * other addresses are never candidates.
 */
async function adoptPending(opts: RefreshOptions, live: Map<string, State | null>, diagnostics: Diagnostic[]): Promise<Set<string>> {
  const adopted = new Set<string>();
  for (const p of opts.state.pending()) {
    const parsed = parseInstanceAddress(p.address);
    const kind = parsed?.mode === 'managed' ? opts.kindOf(parsed.type) : undefined;
    if (kind?.discardLost) {
      diagnostics.push({
        severity: 'warning',
        summary: 'An interrupted create is made again',
        detail: `An earlier run was interrupted while creating ${p.address}. What it made cannot be adopted (what only the lost answer carried is gone): apply deletes it and creates ${p.address} again.`,
        address: p.address,
      });
      continue;
    }
    if (!kind?.adoptionCandidates) {
      const detail =
        'This kind cannot look for it. Check on the platform whether it exists; import it if it does, then remove it from tenantform_pending in the state.';
      diagnostics.push(engineErrors.pendingCreateUnresolved(p.address, detail).toDiagnostic());
      continue;
    }
    const held = heldIdentities(kind, live, p.address);
    const r = await adoptResource({ kind, address: p.address, ctx: opts.clients.ctx(p.address), pending: p.attributes, held });
    if (r.value === undefined) {
      diagnostics.push(...r.diagnostics.map((d) => ({ ...d, detail: `${d.detail}\nAn earlier run was interrupted while creating ${p.address}.` })));
      continue;
    }
    if (r.value) {
      live.set(p.address, r.value);
      adopted.add(p.address);
      diagnostics.push({
        severity: 'warning',
        summary: 'Found the object of an interrupted create',
        detail: `An earlier run was interrupted while creating ${p.address}; the platform has it (${kind.identity(r.value)}). It is adopted, not created again.`,
        address: p.address,
      });
    }
  }
  return adopted;
}

function upgraded(kind: ResourceKind, o: RecordedObject): State {
  return kind.upgradeState && o.schemaVersion < kind.schemaVersion ? kind.upgradeState(o.schemaVersion, o.attributes) : o.attributes;
}

function unknownRecordedType(o: RecordedObject): Diagnostic {
  return {
    severity: 'error',
    summary: 'Unknown resource type in the state',
    detail: `${o.address} is recorded with type ${o.type}, which this version of tenantform does not know. Use the tenantform version that wrote the state.`,
    address: o.address,
  };
}

/** The values a refresh knows: data sources, and managed objects that still exist. */
export function knownValues(refreshed: Pick<Refreshed, 'data' | 'live'>): Map<string, State> {
  const values = new Map<string, State>(refreshed.data);
  for (const [address, value] of refreshed.live) if (value) values.set(address, value);
  return values;
}
