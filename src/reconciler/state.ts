import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { reconcilerErrors } from '../errors';
import type { AnyKind, State } from '../resources/declaration';
import { PROVIDER_ADDRESS } from '../resources/provider-config';
import { containsUnknown, hashSecret } from '../resources/values';
import { parsePlainJson } from '../plain-json';
import { stateProblem } from './state-schema';
import { journalPath, replayJournal } from './journal';

/**
 * The state file, in Terraform's format version 4, so that `terraform` with tenantform's
 * provider can take a stack over (and back). Attributes are what the provider stores:
 * normalized, every schema attribute present.
 */

/** The Terraform version the file claims to come from; older Terraform refuses newer state. */
const TERRAFORM_VERSION = '1.5.7';
const PROVIDER = `provider["${PROVIDER_ADDRESS}"]`;

export interface StateInstance {
  schema_version: number;
  attributes: State;
  sensitive_attributes: unknown[];
  dependencies?: string[];
}

export interface StateResource {
  mode: 'managed' | 'data';
  type: string;
  name: string;
  provider: string;
  instances: StateInstance[];
}

/** A create that cannot be repeated safely, recorded before its request was sent. */
export interface PendingCreate {
  address: string;
  attributes: State;
  started: string;
}

export interface StateDocument {
  version: 4;
  terraform_version: string;
  serial: number;
  lineage: string;
  outputs: Record<string, unknown>;
  resources: StateResource[];
  check_results: null;
  /** Terraform ignores keys it does not know (and drops them when it writes). */
  tenantform_pending?: PendingCreate[];
  /** Addresses whose configuration set prevent_destroy, so that removing the block is still refused. */
  tenantform_protected?: string[];
}

export interface RecordedObject {
  readonly address: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  readonly schemaVersion: number;
  readonly attributes: State;
  readonly dependencies: string[];
}

/** One change to the document, as the journal records it (see journal.ts). */
export type StateChange =
  | { readonly op: 'put'; readonly resource: StateResource }
  | { readonly op: 'remove'; readonly address: string }
  | { readonly op: 'pending'; readonly entry: PendingCreate }
  | { readonly op: 'unpending'; readonly address: string }
  | { readonly op: 'protect'; readonly address: string; readonly protect: boolean };

export function addressOf(r: Pick<StateResource, 'mode' | 'type' | 'name'>): string {
  return `${r.mode === 'data' ? 'data.' : ''}${r.type}.${r.name}`;
}

function splitAddress(address: string): { mode: 'managed' | 'data'; type: string; name: string } {
  const data = address.startsWith('data.');
  const [type, name] = (data ? address.slice(5) : address).split('.');
  return { mode: data ? 'data' : 'managed', type, name };
}

/**
 * The state of one stack, in memory, written back atomically after every change
 * (temporary file, fsync, rename; the previous file kept as `<file>.backup`).
 */
export class StateStore {
  private writes: Promise<void> = Promise.resolve();
  /** Position of each resource by address, rebuilt after a removal (keeps a large apply linear). */
  private positions: Map<string, number> | undefined;
  /** Told of every change as it is made (the apply journal listens). */
  observer: ((change: StateChange) => void) | undefined;

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
    return new StateStore(storage, storage.journalPath ? await replayJournal(storage.journalPath, doc) : doc, true);
  }

  /** Where the state is kept, for messages. */
  get path(): string {
    return this.storage.location;
  }

  /** The apply journal's file, for a state kept in a local file; undefined elsewhere. */
  get journalPath(): string | undefined {
    return this.storage.journalPath;
  }

  get lineage(): string {
    return this.doc.lineage;
  }

  get serial(): number {
    return this.doc.serial;
  }

  /** How many objects (managed and data) are recorded. */
  get size(): number {
    return this.doc.resources.length;
  }

  /** A deep copy of the document as it is now. */
  snapshot(): StateDocument {
    return structuredClone(this.doc);
  }

  objects(): RecordedObject[] {
    return this.doc.resources.flatMap((r) =>
      r.instances.slice(0, 1).map((i) => ({
        address: addressOf(r),
        mode: r.mode,
        type: r.type,
        name: r.name,
        schemaVersion: i.schema_version,
        attributes: i.attributes,
        dependencies: i.dependencies ?? [],
      })),
    );
  }

  get(address: string): RecordedObject | undefined {
    return this.objects().find((o) => o.address === address);
  }

  /** Records an object (sensitive attributes only as a hash). */
  put(address: string, kind: AnyKind, attributes: State, dependencies: readonly string[]): void {
    if (containsUnknown(attributes)) throw new Error(`${address}: refusing to record a value that is not known yet`);
    const { mode, type, name } = splitAddress(address);
    const stored: State = { ...attributes };
    for (const [attr, a] of Object.entries(kind.attributes)) {
      if (a.sensitive && !a.keptInState && typeof stored[attr] === 'string' && !String(stored[attr]).startsWith('sha256:')) stored[attr] = hashSecret(String(stored[attr]));
    }
    const resource: StateResource = {
      mode,
      type,
      name,
      provider: PROVIDER,
      instances: [
        {
          schema_version: kind.kind === 'resource' ? kind.schemaVersion : 0,
          attributes: stored,
          // Terraform's marks for the sensitive values kept as they are (paths of get_attr steps).
          sensitive_attributes: Object.entries(kind.attributes)
            .filter(([, a]) => a.sensitive && a.keptInState)
            .map(([attr]) => [{ type: 'get_attr', value: attr }]),
          dependencies: [...dependencies].sort(),
        },
      ],
    };
    this.positions ??= new Map(this.doc.resources.map((r, n) => [addressOf(r), n]));
    const i = this.positions.get(address);
    if (i !== undefined) this.doc.resources[i] = resource;
    else this.positions.set(address, this.doc.resources.push(resource) - 1);
    this.observer?.({ op: 'put', resource });
  }

  remove(address: string): void {
    this.positions ??= new Map(this.doc.resources.map((r, n) => [addressOf(r), n]));
    if (!this.positions.has(address)) return;
    this.doc.resources = this.doc.resources.filter((r) => addressOf(r) !== address);
    this.positions = undefined;
    this.observer?.({ op: 'remove', address });
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
    if (resource) Object.assign(resource, { mode: target.mode, type: target.type, name: target.name });
    this.doc.tenantform_protected = this.doc.tenantform_protected?.map((a) => (a === from ? to : a));
  }

  /** Replaces the whole document as given, serial included (`state push`). */
  async overwrite(doc: StateDocument): Promise<void> {
    await this.writes;
    this.doc = structuredClone(doc);
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

  /** Writes the state (serial bumped). Writes are queued, so concurrent callers never interleave. */
  save(): Promise<void> {
    const next = this.writes.then(async () => {
      this.doc.serial += 1;
      await this.storage.write(serializeState(this.doc));
    });
    this.writes = next.catch(() => undefined);
    return next;
  }
}

/** Reads and replaces a state document's text wherever it is kept (a file, a database row, a URL). */
export interface StateStorage {
  readonly location: string;
  /** Where an apply journals its changes between whole-state writes (local files only). */
  readonly journalPath?: string;
  /** The text, or undefined when there is no state yet. */
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
}

/** A state file read and written as it is, without a lock. */
export function localStateFile(path: string): StateStorage {
  return {
    location: path,
    journalPath: journalPath(path),
    read: async () => {
      try {
        const text = await fs.readFile(path, 'utf8');
        // Terraform creates the file empty when it takes its lock on a new state.
        return text.trim() === '' ? undefined : text;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw reconcilerErrors.stateUnreadable(path, (err as Error).message);
      }
    },
    write: (text) => writeAtomically(path, text),
  };
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
    throw reconcilerErrors.stateUnreadable(path, err instanceof SyntaxError ? `not JSON (${err.message})` : (err as Error).message);
  }
  const problem = stateProblem(doc);
  if (problem !== undefined) throw reconcilerErrors.stateUnreadable(path, problem);
  const d = doc as StateDocument;
  return { ...d, outputs: d.outputs ?? {}, check_results: null };
}

/** Temporary file in the same directory, fsync, rename; with `backup`, the file it replaces becomes `<path>.backup`. */
export async function writeAtomically(
  path: string,
  text: string,
  opts: { backup: boolean } = { backup: true },
): Promise<void> {
  const dir = dirname(path);
  await fs.mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  await writeSynced(temp, text);
  try {
    if (opts.backup) {
      await fs.copyFile(path, `${temp}.backup`);
      await fs.rename(`${temp}.backup`, `${path}.backup`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await fs.rename(temp, path);
  await syncDirectory(dir);
}

async function writeSynced(path: string, text: string): Promise<void> {
  const handle = await fs.open(path, 'wx', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}
