import { randomUUID } from 'node:crypto';
import { stateErrors } from './errors';
import { attributeList } from '../resources/attributes';
import type { AnyKind, State } from '../resources/declaration';
import { PROVIDER_ADDRESS, PROVIDER_TYPE } from '../resources/provider-config';
import { resourceKind } from '../resources/registry';
import { containsUnknown, hashSecret } from '../resources/values';
import { blockOf, instanceAddress, parseInstanceAddress, type InstanceAddress } from './addresses';
import { parsePlainJson } from '../plain-json';
import { stateProblem } from './state-schema';
import { replayJournal } from './journal';
import {
  addressOf,
  TERRAFORM_VERSION,
  type JournaledState,
  type JournalStore,
  type PendingCreate,
  type RecordedObject,
  type StateBlock,
  type StateChange,
  type StateDocument,
  type StateInstance,
  type StateResource,
  type StateStorage,
} from './model';
import { localStateFile } from './state-file';
import { findInstance, InstanceRecorder } from './instances';

/**
 * The state file, in Terraform's format version 4, so that `terraform` with tenantform's
 * provider can take a stack over (and back). Attributes are what the provider stores:
 * normalized, every schema attribute present.
 */

/**
 * Terraform's provider configuration address in the state, for the provider `source` (in full) and
 * the configuration `name`: `provider["registry.terraform.io/tenantform/tenantform"].us`.
 */
function providerConfigAddress(source: string, name: string | undefined): string {
  const alias = name?.split('.')[1];
  return alias ? `provider["${source}"].${alias}` : `provider["${source}"]`;
}

/** The provider source a state's provider configuration address names (`provider["<source>"]...`). */
function sourceOf(address: string): string | undefined {
  return /^provider\["([^"]+)"\]/.exec(address)?.[1];
}

/** `tenantform` or `tenantform.<alias>` from Terraform's provider address (a state names few: each is worked out once). */
function providerName(address: string): string {
  let name = providerNames.get(address);
  if (name === undefined) {
    const alias = /\]\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(address)?.[1];
    providerNames.set(address, (name = alias ? `${PROVIDER_TYPE}.${alias}` : PROVIDER_TYPE));
  }
  return name;
}
const providerNames = new Map<string, string>();

function recordedObject(r: StateResource, i: StateInstance): RecordedObject {
  const { schemaVersion, attributes } = upgradedAttributes(r, i);
  return {
    address: instanceAddress(addressOf(r), i.index_key),
    mode: r.mode,
    type: r.type,
    name: r.name,
    schemaVersion,
    attributes,
    dependencies: i.dependencies ?? [],
    provider: providerName(r.provider),
    tainted: i.status === 'tainted',
    sensitive: markedNames(i.sensitive_attributes),
  };
}

/**
 * The attributes in the shape of this version's declaration: an object written by an earlier
 * schema version (by tenantform, or by `terraform` through the provider) is upgraded as it is
 * read, so every command sees one shape. The state keeps the old shape until it is written.
 */
function upgradedAttributes(r: StateResource, i: StateInstance): { schemaVersion: number; attributes: State } {
  const kind = r.mode === 'managed' ? resourceKind(r.type) : undefined;
  if (!kind?.upgradeState || i.schema_version >= kind.schemaVersion) return { schemaVersion: i.schema_version, attributes: i.attributes };
  return { schemaVersion: kind.schemaVersion, attributes: kind.upgradeState(i.schema_version, i.attributes) };
}

const NO_NAMES: readonly string[] = Object.freeze([]);

/** The attribute names that Terraform's sensitive_attributes paths start with. */
function markedNames(paths: readonly unknown[] | undefined): readonly string[] {
  if (!paths || paths.length === 0) return NO_NAMES;
  const names = new Set<string>();
  for (const path of paths) {
    const first: unknown = Array.isArray(path) ? path[0] : undefined;
    if (first && typeof first === 'object' && 'type' in first && first.type === 'get_attr' && 'value' in first && typeof first.value === 'string')
      names.add(first.value);
  }
  return [...names];
}

/** The block of the configuration an address names: no instance key, of the resource or of its modules. */
function configurationBlockOf(address: string): string {
  return blockOf(address).replace(/(module\.[A-Za-z_][A-Za-z0-9_-]*)\[(?:\d+|"(?:[^"\\]|\\.)*")\]/g, '$1');
}

function splitAddress(address: string): InstanceAddress {
  const parsed = parseInstanceAddress(address);
  if (!parsed) throw new Error(`${address} is not a resource instance address`);
  return parsed;
}

/**
 * The state of one stack, in memory, written back atomically after every change
 * (temporary file, fsync, rename; the previous file kept as `<file>.backup`).
 */
export class StateStore implements JournaledState {
  private writes: Promise<void> = Promise.resolve();
  private lastWriteFailed = false;
  /** Position of each resource by address, rebuilt after a removal (keeps a large apply linear). */
  private positions: Map<string, number> | undefined;
  /** The recorded objects, listed once until the next change (a plan asks for them several times). */
  private recorded: readonly RecordedObject[] | undefined;
  /** Changes the document's lists of instances (each copied once, then changed in place). */
  private readonly instances = new InstanceRecorder();
  /** Told of every change as it is made (the apply journal listens). */
  observer: ((change: StateChange) => void) | undefined;
  /**
   * The provider address the configuration names (`required_providers.tenantform.source`, in
   * full): what objects are recorded with. Left unset, an object keeps the address recorded for
   * it, and a new one takes the state's (a stack made by OpenTofu keeps OpenTofu's registry).
   */
  providerSource: string | undefined;

  private constructor(
    private readonly storage: StateStorage,
    private doc: StateDocument,
    /** Whether a state file existed when the store was opened. */
    readonly existed: boolean,
  ) {}

  /** The state of a local file (no lock taken: see src/backends for locked access). */
  static open(path: string): Promise<StateStore> {
    return StateStore.load(localStateFile(path));
  }

  /** Reads the state from where it is kept; a missing (or empty) state is a new, empty one. */
  static async load(storage: StateStorage): Promise<StateStore> {
    const text = await storage.read();
    if (text === undefined) return new StateStore(storage, emptyState(), false);
    const doc = parseState(storage.location, text);
    // Changes journaled by an apply that never finished are part of the state.
    return new StateStore(storage, storage.journal ? await replayJournal(storage.journal, doc) : doc, true);
  }

  /** Where the state is kept, for messages. */
  get path(): string {
    return this.storage.location;
  }

  /** Where the apply journal of this state is kept; undefined where the backend has no place for one. */
  get journal(): JournalStore | undefined {
    return this.storage.journal;
  }

  get lineage(): string {
    return this.doc.lineage;
  }

  get serial(): number {
    return this.doc.serial;
  }

  /** How many objects (managed and data) are recorded. */
  /** Objects recorded: every instance of every resource block (a `for_each` of 1,000 is 1,000). */
  get size(): number {
    let n = 0;
    for (const r of this.doc.resources) n += r.instances.length;
    return n;
  }

  /** A deep copy of the document as it is now. */
  snapshot(): StateDocument {
    return structuredClone(this.doc);
  }

  objects(): readonly RecordedObject[] {
    if (this.recorded === undefined) {
      const recorded: RecordedObject[] = [];
      for (const r of this.doc.resources) for (const i of r.instances) if (!('deposed' in i)) recorded.push(recordedObject(r, i));
      this.recorded = Object.freeze(recorded);
    }
    return this.recorded;
  }

  /** One recorded instance, found through the index of blocks (a drift of thousands of objects asks for each). */
  get(address: string): RecordedObject | undefined {
    const parsed = parseInstanceAddress(address);
    if (!parsed) return undefined;
    const at = this.indexOfBlock(parsed.block);
    if (at === undefined) return undefined;
    const r = this.doc.resources[at];
    const instance = findInstance(r.instances, parsed.key);
    return instance && recordedObject(r, instance);
  }

  private indexOfBlock(block: string): number | undefined {
    this.positions ??= new Map(this.doc.resources.map((r, n) => [addressOf(r), n]));
    return this.positions.get(block);
  }

  /**
   * Records an object (sensitive attributes only as a hash) with the provider configuration it
   * was made with (`tenantform.us`); left out, the one recorded before, else the default.
   */
  put(address: string, kind: AnyKind, attributes: State, dependencies: readonly string[], provider?: string, sensitiveArguments: readonly string[] = []): void {
    if (containsUnknown(attributes)) throw new Error(`${address}: refusing to record a value that is not known yet`);
    const { module, mode, type, name, block, key } = splitAddress(address);
    const stored: State = { ...attributes };
    for (const { name: attr, attribute: a } of attributeList(kind.attributes)) {
      if (a.sensitive && !a.keptInState && typeof stored[attr] === 'string' && !String(stored[attr]).startsWith('sha256:'))
        stored[attr] = hashSecret(String(stored[attr]));
    }
    const instance: StateInstance = {
      ...(key === undefined ? {} : { index_key: key }),
      schema_version: kind.kind === 'resource' ? kind.schemaVersion : 0,
      attributes: stored,
      // Terraform's marks (paths of get_attr steps): sensitive values kept as they are, and arguments given a sensitive value.
      sensitive_attributes: [
        ...new Set([
          ...attributeList(kind.attributes)
            .filter(({ attribute: a }) => a.sensitive && a.keptInState)
            .map(({ name }) => name),
          ...sensitiveArguments,
        ]),
      ]
        .sort()
        .map((attr) => [{ type: 'get_attr', value: attr }]),
      // Terraform records the blocks an instance depends on, without instance keys (of modules either).
      dependencies: [...new Set(dependencies.map(configurationBlockOf))].sort(),
    };
    const each = key === undefined ? undefined : typeof key === 'number' ? ('list' as const) : ('map' as const);
    const at = this.indexOfBlock(block);
    const existing = at === undefined ? undefined : this.doc.resources[at];
    const header: StateBlock = {
      ...(module ? { module } : {}),
      mode,
      type,
      name,
      ...(each ? { each } : {}),
      provider: providerConfigAddress(
        this.providerSource ?? (existing && sourceOf(existing.provider)) ?? this.recordedSource(),
        provider ?? (existing ? providerName(existing.provider) : undefined),
      ),
    };
    const resource = this.instances.withInstance(existing, header, instance);
    if (at !== undefined) this.doc.resources[at] = resource;
    else this.positions!.set(block, this.doc.resources.push(resource) - 1);
    this.recorded = undefined;
    // One instance, not its whole block: a for_each over thousands of tenants journals each once.
    this.observer?.({ op: 'put-instance', resource: header, instance });
  }

  /** The provider source the state's managed objects are recorded with, else Terraform's registry's tenantform. */
  private recordedSource(): string {
    for (const r of this.doc.resources) {
      const source = r.mode === 'managed' ? sourceOf(r.provider) : undefined;
      if (source) return source;
    }
    return PROVIDER_ADDRESS;
  }

  remove(address: string): void {
    const { block, key } = splitAddress(address);
    const at = this.indexOfBlock(block);
    if (at === undefined) return;
    const rest = this.instances.withoutInstance(this.doc.resources[at], key);
    this.recorded = undefined;
    if (rest) {
      this.doc.resources[at] = rest;
      this.observer?.({ op: 'remove', address });
      return;
    }
    this.doc.resources.splice(at, 1);
    // The blocks after it moved up by one: shifting their positions is cheaper than rebuilding the index.
    this.positions!.delete(block);
    for (const [other, n] of this.positions!) if (n > at) this.positions!.set(other, n - 1);
    this.observer?.({ op: 'remove', address: block });
  }

  /** The root module's outputs, in Terraform's shape (`{ name: { value, type, sensitive? } }`). */
  outputs(): Record<string, unknown> {
    return structuredClone(this.doc.outputs);
  }

  /** Replaces the recorded outputs; written with the next `save()`. */
  setOutputs(outputs: Record<string, unknown>): void {
    this.doc.outputs = structuredClone(outputs);
  }

  /** Gives a recorded object another address of the same type (`state mv`). */
  move(from: string, to: string): void {
    const target = splitAddress(to);
    const resource = this.doc.resources.find((r) => addressOf(r) === from);
    if (resource) {
      Object.assign(resource, { mode: target.mode, type: target.type, name: target.name });
      if (target.module) resource.module = target.module;
      else delete resource.module;
    }
    this.positions = undefined;
    this.recorded = undefined;
    this.doc.tenantform_protected = this.doc.tenantform_protected?.map((a) => (a === from ? to : a));
  }

  /**
   * Gives one recorded instance another address of the same type (`state mv` of an instance):
   * another key of its block, or an instance of another block (made as needed), keeping its
   * attributes, marks and dependencies.
   */
  moveInstance(from: string, to: string): void {
    const source = splitAddress(from);
    const at = this.indexOfBlock(source.block);
    const block = at === undefined ? undefined : this.doc.resources[at];
    const instance = block && findInstance(block.instances, source.key);
    if (!block || !instance) return;
    const target = splitAddress(to);
    const { index_key: _key, ...rest } = instance;
    const moved: StateInstance = { ...rest, ...(target.key === undefined ? {} : { index_key: target.key }) };
    this.remove(from);
    const each = target.key === undefined ? undefined : typeof target.key === 'number' ? ('list' as const) : ('map' as const);
    const header: StateBlock = {
      ...(target.module ? { module: target.module } : {}),
      mode: target.mode,
      type: target.type,
      name: target.name,
      ...(each ? { each } : {}),
      provider: block.provider,
    };
    const targetAt = this.indexOfBlock(target.block);
    const resource = this.instances.withInstance(targetAt === undefined ? undefined : this.doc.resources[targetAt], header, moved);
    if (targetAt !== undefined) this.doc.resources[targetAt] = resource;
    else this.positions!.set(target.block, this.doc.resources.push(resource) - 1);
    this.recorded = undefined;
    this.observer?.({ op: 'put-instance', resource: header, instance: moved });
    this.doc.tenantform_protected = this.doc.tenantform_protected?.map((a) => (a === from ? to : a));
  }

  /** The recorded instances of a repeated block (`count` or `for_each`), by the block's address. */
  instancesOf(block: string): string[] {
    return this.objects()
      .map((o) => o.address)
      .filter((address) => parseInstanceAddress(address)?.block === block);
  }

  /** Replaces the whole document as given, serial included (`state push`). */
  async overwrite(doc: StateDocument): Promise<void> {
    await this.writes;
    this.doc = structuredClone(doc);
    this.positions = undefined;
    this.recorded = undefined;
    await this.storage.write(serializeState(this.doc));
  }

  pending(): PendingCreate[] {
    return [...(this.doc.tenantform_pending ?? [])];
  }

  addPending(address: string, attributes: State): void {
    this.removePending(address);
    const entry = { address, attributes, started: new Date().toISOString() };
    this.doc.tenantform_pending = [...(this.doc.tenantform_pending ?? []), entry];
    this.observer?.({ op: 'pending', entry });
  }

  removePending(address: string): void {
    const before = this.doc.tenantform_pending ?? [];
    const rest = before.filter((p) => p.address !== address);
    if (rest.length > 0) this.doc.tenantform_pending = rest;
    else delete this.doc.tenantform_pending;
    if (rest.length < before.length) this.observer?.({ op: 'unpending', address });
  }

  isProtected(address: string): boolean {
    return this.doc.tenantform_protected?.includes(address) ?? false;
  }

  setProtected(address: string, protect: boolean): void {
    if (this.isProtected(address) !== protect) this.observer?.({ op: 'protect', address, protect });
    const rest = (this.doc.tenantform_protected ?? []).filter((a) => a !== address);
    if (protect) rest.push(address);
    if (rest.length > 0) this.doc.tenantform_protected = rest.sort();
    else delete this.doc.tenantform_protected;
  }

  /**
   * The document as it is now, when the last write of it failed: what it records (objects this
   * run created, say) is then nowhere else, and must be kept somewhere before the run ends.
   */
  unwritten(): StateDocument | undefined {
    return this.lastWriteFailed ? this.snapshot() : undefined;
  }

  /** Writes the state (serial bumped). Writes are queued, so concurrent callers never interleave. */
  save(): Promise<void> {
    const next = this.writes.then(async () => {
      this.doc.serial += 1;
      try {
        await this.storage.write(serializeState(this.doc));
      } catch (err) {
        this.lastWriteFailed = true;
        throw err;
      }
      this.lastWriteFailed = false;
    });
    this.writes = next.catch(() => undefined);
    return next;
  }
}

export function serializeState(doc: StateDocument): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export function emptyState(): StateDocument {
  return { version: 4, terraform_version: TERRAFORM_VERSION, serial: 0, lineage: randomUUID(), outputs: {}, resources: [], check_results: null };
}

export function parseState(path: string, text: string): StateDocument {
  let doc: unknown;
  try {
    doc = parsePlainJson(text);
  } catch (err) {
    throw stateErrors.stateUnreadable(path, err instanceof SyntaxError ? `not JSON (${err.message})` : (err as Error).message);
  }
  const problem = stateProblem(doc);
  if (problem !== undefined) throw stateErrors.stateUnreadable(path, problem);
  const d = doc as StateDocument;
  return { ...d, outputs: d.outputs ?? {}, check_results: null };
}
