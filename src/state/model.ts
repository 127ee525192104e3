import type { State } from '../resources/declaration';
import { blockAddress } from './addresses';

/**
 * The state as data: Terraform's state document (version 4), the objects it records, the
 * changes an apply journals, and where the text is kept. Everything in state/ builds on these.
 */

/** The Terraform version the file claims to come from; older Terraform refuses newer state. */
export const TERRAFORM_VERSION = '1.5.7';

export interface StateInstance {
  /** The count index or for_each key; absent for a block without either. */
  index_key?: number | string;
  schema_version: number;
  attributes: State;
  sensitive_attributes: unknown[];
  dependencies?: string[];
  /** Terraform's mark of an object to replace (`terraform taint`, or a create that failed half-way). */
  status?: 'tainted';
}

export interface StateResource {
  /** The module instance, as Terraform writes it (`module.customer["acme"]`); absent in the root module. */
  module?: string;
  mode: 'managed' | 'data';
  type: string;
  name: string;
  /** `list` for count, `map` for for_each. */
  each?: 'list' | 'map';
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
  /** The provider configuration it was made with: `tenantform` or `tenantform.<alias>`. */
  readonly provider: string;
  /** Marked for replacement: the next plan replaces it. */
  readonly tainted?: boolean;
  /** Attributes the state marks sensitive (Terraform's sensitive_attributes), by name. */
  readonly sensitive: readonly string[];
}

/** A block of the state without its instances. */
export type StateBlock = Omit<StateResource, 'instances'>;

/** One change to the document, as the journal records it (see journal.ts). */
export type StateChange =
  /** A whole block: what journals held before instances were journaled one by one (still replayed). */
  | { readonly op: 'put'; readonly resource: StateResource }
  | { readonly op: 'put-instance'; readonly resource: StateBlock; readonly instance: StateInstance }
  /** An instance address removes that instance; a block address the whole block. */
  | { readonly op: 'remove'; readonly address: string }
  | { readonly op: 'pending'; readonly entry: PendingCreate }
  | { readonly op: 'unpending'; readonly address: string }
  | { readonly op: 'protect'; readonly address: string; readonly protect: boolean };

export function addressOf(r: Pick<StateResource, 'module' | 'mode' | 'type' | 'name'>): string {
  return blockAddress(r);
}

/** Reads and replaces a state document's text wherever it is kept (a file, a database row, a URL). */
export interface StateStorage {
  readonly location: string;
  /** Where an apply journals its changes between whole-state writes (none: each change writes the whole state). */
  readonly journal?: JournalStore;
  /** The text, or undefined when there is no state yet. */
  read(): Promise<string | undefined>;
  write(text: string): Promise<void>;
}

/** Where a backend keeps the journal of its state. Each call is durable when it resolves. */
export interface JournalStore {
  readonly location: string;
  /** Replaces any journal with one holding only `header`. */
  restart(header: string): Promise<void>;
  /** Appends lines, all or none. */
  append(lines: readonly string[]): Promise<void>;
  /** The header and the complete lines after it; undefined when there is no journal. */
  read(): Promise<{ header: string; lines: string[] } | undefined>;
  remove(): Promise<void>;
}

/** What the apply journal needs of the state it records: its identity, its size, its changes and a whole write. */
export interface JournaledState {
  readonly journal: JournalStore | undefined;
  readonly lineage: string;
  readonly serial: number;
  /** Objects recorded. */
  readonly size: number;
  /** Told of every change as it is made. */
  observer: ((change: StateChange) => void) | undefined;
  save(): Promise<void>;
}
