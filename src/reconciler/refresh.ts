import type { ProviderClients } from './clients';
import type { Diagnostic } from '../diagnostics';
import { reconcilerErrors } from '../errors';
import type { DataSourceKind, ResourceKind, State } from '../resources/declaration';
import { adoptResource, readDataSource, readResource, readResourcesInBatch, type OperationResult } from '../resources/operations';
import { containsUnknown } from '../resources/values';
import { dependencies, type Configuration } from './config';
import { mapLimited, runInOrder } from './graph';
import { evaluateArguments, lookupIn } from './evaluate';
import type { RecordedObject, StateStore } from './state';

/** What the platform has now, for every recorded object and every data source that could be read. */
export interface Refreshed {
  /** Data source values by address (those whose arguments depend on managed objects are absent). */
  readonly data: Map<string, State>;
  /** Managed objects by address: the live object, or null when it is gone. */
  readonly live: Map<string, State | null>;
  /** Addresses whose interrupted create was found on the platform (now in `live`). */
  readonly adopted: Set<string>;
  readonly diagnostics: Diagnostic[];
}

export interface RefreshOptions {
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly clients: ProviderClients;
  readonly parallelism: number;
  /** false: take the recorded state as live (`--refresh=false`). */
  readonly refresh: boolean;
  readonly kindOf: (type: string) => ResourceKind | undefined;
}

export async function refresh(opts: RefreshOptions): Promise<Refreshed> {
  const diagnostics: Diagnostic[] = [];
  const data = await readDataSources(opts, diagnostics);
  const recorded = opts.state.objects().filter((o) => o.mode === 'managed');
  const live = new Map<string, State | null>();
  const batched = opts.refresh ? await readInBatches(opts, recorded) : new Map<string, OperationResult<State | null>>();
  await mapLimited(recorded, opts.parallelism, async (o) => {
    const kind = opts.kindOf(o.type);
    if (!kind) {
      diagnostics.push(unknownRecordedType(o));
      return;
    }
    const state = upgraded(kind, o);
    if (!opts.refresh) {
      live.set(o.address, state);
      return;
    }
    const r = batched.get(o.address) ?? (await readResource({ kind, address: o.address, ctx: opts.clients.ctx(o.address), state }));
    diagnostics.push(...r.diagnostics);
    // When the read failed the plan goes on with the recorded state; the error stops apply.
    live.set(o.address, r.value === undefined ? state : r.value);
  });
  const adopted = await adoptPending(opts, live, diagnostics);
  return { data, live, adopted, diagnostics };
}

/** Data sources whose arguments are known without any managed object, in dependency order. */
async function readDataSources(opts: RefreshOptions, diagnostics: Diagnostic[]): Promise<Map<string, State>> {
  const values = new Map<string, State>();
  const all = dependencies(opts.configuration);
  const dataOnly = new Map([...all].filter(([a]) => a.startsWith('data.')));
  await runInOrder(dataOnly, opts.parallelism, async (address) => {
    const declared = opts.configuration.objects.get(address)!;
    const { config, diagnostics: invalid } = evaluateArguments(declared, lookupIn(opts.configuration, values));
    diagnostics.push(...invalid);
    if (invalid.length > 0) return false;
    if (containsUnknown(config)) return false; // read during planning, once the managed objects it needs are known
    const r = await readDataSource({ kind: declared.kind as DataSourceKind, address, ctx: opts.clients.ctx(address), config });
    diagnostics.push(...r.diagnostics);
    if (r.value) values.set(address, r.value);
    return r.value !== undefined;
  });
  return values;
}

/**
 * Creates interrupted before their answer was recorded: the object is looked for on the
 * platform and adopted, so that the create is never sent twice.
 */
async function adoptPending(opts: RefreshOptions, live: Map<string, State | null>, diagnostics: Diagnostic[]): Promise<Set<string>> {
  const adopted = new Set<string>();
  await mapLimited(opts.state.pending(), opts.parallelism, async (p) => {
    const kind = opts.kindOf(p.address.split('.')[0]);
    if (!kind?.adopt) {
      const detail = 'This kind cannot look for it. Check on the platform whether it exists; import it if it does, then remove it from tenantform_pending in the state.';
      diagnostics.push(reconcilerErrors.pendingCreateUnresolved(p.address, detail).toDiagnostic());
      return;
    }
    const r = await adoptResource({ kind, address: p.address, ctx: opts.clients.ctx(p.address), pending: p.attributes });
    if (r.value === undefined) {
      diagnostics.push(...r.diagnostics.map((d) => ({ ...d, detail: `${d.detail}\nAn earlier run was interrupted while creating ${p.address}.` })));
      return;
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
  });
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

/** Objects of kinds that can be read in one request (e.g. `GET /infra?uuids=`), read so. */
async function readInBatches(opts: RefreshOptions, recorded: RecordedObject[]): Promise<Map<string, OperationResult<State | null>>> {
  // One batch per type and data center.
  const groups = new Map<string, RecordedObject[]>();
  for (const o of recorded) {
    const key = `${o.type} ${opts.clients.providerOf(o.address)}`;
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  const out = new Map<string, OperationResult<State | null>>();
  for (const objects of groups.values()) {
    const kind = opts.kindOf(objects[0].type);
    if (!kind) continue;
    const items = objects.map((o) => ({ address: o.address, state: upgraded(kind, o) }));
    const results = await readResourcesInBatch({ kind, ctx: opts.clients.ctx(objects[0].address), items });
    results?.forEach((r, n) => out.set(items[n].address, r));
  }
  return out;
}
