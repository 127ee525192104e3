import { hasErrors, type Diagnostic } from '../diagnostics';
import type { ProviderClients } from './clients';
import { TenantformError } from '../errors';
import type { ResourceKind, State } from '../resources/declaration';
import { importResource } from '../resources/operations';
import { containsUnknown, normalize } from '../resources/values';
import { dependencies, type Configuration } from '../config/config';
import { evaluateArguments, lookupIn } from '../config/evaluate';
import { refresh } from './refresh';
import type { StateStore } from '../state/state';

export interface ImportOptions {
  readonly configuration: Configuration;
  readonly state: StateStore;
  readonly clients: ProviderClients;
  readonly address: string;
  /** The import id, in the kind's `importId.format`. */
  readonly id: string;
  readonly parallelism: number;
  readonly kindOf: (type: string) => ResourceKind | undefined;
}

export interface ImportResult {
  /** The object as recorded; absent when nothing was imported. */
  readonly value?: State;
  readonly diagnostics: Diagnostic[];
}

/**
 * Adopts an existing platform object into the state, for a resource declared in the
 * configuration. The state is written once, atomically, and only when everything succeeded;
 * the caller holds the state lock.
 */
export async function importObject(opts: ImportOptions): Promise<ImportResult> {
  const { address, id, state } = opts;
  const declared = opts.configuration.objects.get(address);
  if (!declared || declared.mode !== 'managed') return failed(notDeclared(address, id, opts.configuration.file));
  const kind = declared.kind as ResourceKind;
  const recorded = state.get(address);
  if (recorded) return failed(alreadyManaged(address, kind.identity(recorded.attributes), id));

  // Data sources and recorded objects, to know the declared arguments the platform cannot give back.
  const refreshed = await refresh({ ...opts, refresh: true });
  if (hasErrors(refreshed.diagnostics)) return { diagnostics: refreshed.diagnostics };
  const read = await importResource({ kind, address, ctx: opts.clients.ctx(address), id });
  if (!read.value) return { diagnostics: read.diagnostics.map((d) => ({ ...d, detail: `${d.detail}\nNothing was imported; the state is unchanged.` })) };

  const identity = kind.identity(read.value);
  const twin = state.objects().find((o) => o.mode === 'managed' && o.type === declared.type && kind.identity(o.attributes) === identity);
  if (twin) return failed(alreadyManagedElsewhere(address, twin.address, identity));

  const values = new Map<string, State>([...refreshed.data, ...[...refreshed.live].flatMap(([a, v]): Array<[string, State]> => (v ? [[a, v]] : []))]);
  const config = normalize(kind.attributes, evaluateArguments(declared, lookupIn(opts.configuration, values)).config);
  const { value, fromConfiguration } = withUnreadableArguments(kind, read.value, config);
  const diagnostics: Diagnostic[] = [...refreshed.diagnostics];
  if (fromConfiguration.length > 0) {
    diagnostics.push({
      severity: 'warning',
      summary: 'Arguments taken from the configuration',
      detail:
        `The platform cannot give back the arguments of ${declared.type} (${fromConfiguration.join(', ')}); they are recorded as declared ` +
        `for ${address}. Make sure the declaration matches the object: only its existence can be checked.`,
      address,
    });
  }
  const notImported = kind.importWarning?.(value, address);
  if (notImported) diagnostics.push({ ...notImported, address });
  state.put(address, kind, value, [...(dependencies(opts.configuration).get(address) ?? [])], declared.provider);
  state.setProtected(address, declared.preventDestroy);
  await state.save();
  return { value, diagnostics };
}

/**
 * A required argument missing from what the platform answered means the platform cannot read
 * the kind's arguments back (event subscriptions): they come from the configuration, where known.
 */
export function withUnreadableArguments(kind: ResourceKind, imported: State, config: State): { value: State; fromConfiguration: string[] } {
  const readable = Object.entries(kind.attributes).every(([name, a]) => a.mode !== 'required' || (imported[name] ?? null) !== null);
  if (readable) return { value: imported, fromConfiguration: [] };
  const value: State = { ...imported };
  const fromConfiguration: string[] = [];
  for (const [name, a] of Object.entries(kind.attributes)) {
    const declared = config[name] ?? null;
    if (a.mode === 'computed' || (imported[name] ?? null) !== null || declared === null || containsUnknown(declared)) continue;
    value[name] = declared;
    fromConfiguration.push(name);
  }
  return { value, fromConfiguration };
}

function failed(err: TenantformError): ImportResult {
  return { diagnostics: [err.toDiagnostic()] };
}

function notDeclared(address: string, id: string, file: string): TenantformError {
  const [type, name] = address.replace(/^data\./, '').split('.');
  const detail = address.startsWith('data.')
    ? `${address} is a data source: data sources are read, never imported. Import a resource address such as tenantform_infra_component.primary.`
    : `${address} is not declared in ${file}. Import adopts an object for a declared resource: add resource "${type}" "${name ?? '<name>'}" ` +
      `to the configuration (in the cdktf app, then run \`cdktf synth\`), then run \`tenantform import ${address} ${id}\` again.`;
  return new TenantformError('import_not_declared', 'Resource not in the configuration', detail, false, address);
}

function alreadyManaged(address: string, recordedIdentity: string, id: string): TenantformError {
  return new TenantformError(
    'import_already_managed',
    'Resource already managed',
    `${address} is already managed by tenantform (recorded in the state as ${recordedIdentity}); nothing was imported. ` +
      `To manage "${id}" instead, declare it under another address and import it there, or remove ${address} from the state first ` +
      `(\`terraform state rm -state=STATEFILE ${address}\` with tenantform's provider).`,
    false,
    address,
  );
}

function alreadyManagedElsewhere(address: string, other: string, identity: string): TenantformError {
  return new TenantformError(
    'import_already_managed',
    'Object already managed',
    `${identity} is already managed by tenantform as ${other}; nothing was imported. One object is managed at one address only: ` +
      `remove ${address} from the configuration, or ${other} from the state.`,
    false,
    address,
  );
}
