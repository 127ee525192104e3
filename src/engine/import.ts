import { instanceAddress, parseInstanceAddress } from '../state/addresses';
import { closestName } from '../suggest';
import { resourceErrors } from '../resources/errors';
import { hasErrors, type Diagnostic } from '../diagnostics';
import type { ProviderClients } from './clients';
import { TenantformError } from '../errors';
import { engineErrors } from './errors';
import type { ResourceKind, State } from '../resources/declaration';
import { importResource } from '../resources/operations';
import { containsUnknown, normalize } from '../resources/values';
import { dependencies, type Configuration, type DeclaredObject } from '../config/config';
import { evaluateArguments, lookupIn, type Known } from '../config/evaluate';
import { knownValues, refresh } from './refresh';
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
  const malformed = importIdProblem(address, id, opts.kindOf);
  if (malformed) return { diagnostics: [malformed] };
  const declared = opts.configuration.objects.get(address);
  if (!declared || declared.mode !== 'managed') return failed(notAnInstance(opts.configuration, address) ?? notDeclared(address, id, opts.configuration.file));
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
  if (twin)
    return failed(
      engineErrors.importedElsewhere(address, twin.address, identity, `remove ${address} from the configuration, or ${twin.address} from the state`),
    );

  const { value, diagnostics: warnings } = importedValue(declared, read.value, lookupIn(opts.configuration, knownValues(refreshed)));
  const diagnostics: Diagnostic[] = [...refreshed.diagnostics, ...warnings];
  state.put(address, kind, value, [...(dependencies(opts.configuration).get(address) ?? [])], declared.provider);
  state.setProtected(address, declared.preventDestroy);
  await state.save();
  return { value, diagnostics };
}

/**
 * A refusal of an id that is not of the form the address's kind takes; checked first, before the
 * configuration, the state or the platform, as terraform does, so that a typo in it is said as such.
 */
export function importIdProblem(address: string, id: string, kindOf: (type: string) => ResourceKind | undefined): Diagnostic | undefined {
  const kind = kindOf(parseInstanceAddress(address)?.type ?? '');
  if (!kind || !('importId' in kind) || kind.importId.parse(id)) return undefined;
  return { ...resourceErrors.invalidImportId(kind.type, id, kind.importId.format).toDiagnostic(), address };
}

/**
 * What an import records (the `import` command, an import block): the object read, with the
 * arguments the platform cannot give back taken from the configuration, each said in a warning,
 * and what the kind says cannot be imported (an API client's secret).
 */
export function importedValue(declared: DeclaredObject, read: State, lookup: Known): { value: State; diagnostics: Diagnostic[] } {
  const kind = declared.kind as ResourceKind;
  const address = declared.address;
  const config = normalize(kind.attributes, evaluateArguments(declared, lookup).config);
  const { value, fromConfiguration } = withUnreadableArguments(kind, read, config);
  const diagnostics: Diagnostic[] = [];
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
  return { value, diagnostics };
}

/**
 * A required argument missing from what the platform answered means the platform cannot read
 * the kind's arguments back (event subscriptions): they come from the configuration, where known.
 */
function withUnreadableArguments(kind: ResourceKind, imported: State, config: State): { value: State; fromConfiguration: string[] } {
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
  const parsed = parseInstanceAddress(address);
  const [type, name] = [parsed?.type ?? address, parsed?.name];
  const where = parsed?.module ? `in the module that ${parsed.module} calls` : 'to the configuration';
  const detail =
    parsed?.mode === 'data'
      ? `${address} is a data source: data sources are read, never imported. Import a resource address such as tenantform_infra_component.primary.`
      : `${address} is not declared in ${file}. Import adopts an object for a declared resource: add resource "${type}" "${name ?? '<name>'}" ` +
        `${where} (in the cdktf app, then run \`cdktf synth\`), then run \`tenantform import ${address} ${id}\` again.`;
  return new TenantformError('import_not_declared', 'Resource not in the configuration', detail, false, address);
}

/** The block of the address is declared, but repeated otherwise than the address says: which instances there are. */
function notAnInstance(configuration: Configuration, address: string): TenantformError | undefined {
  const parsed = parseInstanceAddress(address);
  const block = parsed && configuration.blocks.get(parsed.block);
  if (!parsed || !block || block.mode !== 'managed') return undefined;
  const keys = block.instances.flatMap((instance) => {
    const key = parseInstanceAddress(instance)?.key;
    return key === undefined ? [] : [key];
  });
  const repetition = block.each === 'map' ? 'for_each' : block.each === 'list' ? 'count' : undefined;
  if (parsed.key === undefined) return repetition ? engineErrors.importNeedsInstance(parsed.block, repetition, block.instances) : undefined;
  if (!repetition) return engineErrors.importOfUnrepeated(address, parsed.block);
  const closest = typeof parsed.key === 'string' ? closestName(parsed.key, keys.map(String)) : undefined;
  return engineErrors.importKeyMissing(parsed.block, parsed.key, repetition, keys, closest === undefined ? undefined : instanceAddress(parsed.block, closest));
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
