import type { PlatformClient } from '../api';
import type { AttributePath, Diagnostic } from '../diagnostics';
import { attributeList, type Attributes, type State } from './attributes';
import type { Discover } from './discovery';
import type { ConfigOf, KnownOf, PlannedOf, StateOf } from './models';

export type { State };

export interface OperationContext {
  readonly client: PlatformClient;
  readonly signal?: AbortSignal;
  /** The resource address, for error messages (set by the operations layer). */
  readonly address?: string;
}

export interface Example {
  /** A short name for the resource in the example, e.g. `primary`. */
  readonly name: string;
  /** Terraform (snake_case) configuration. */
  readonly config: Record<string, unknown>;
}

/**
 * The types of the data a kind's members see (see models.ts): an existing object (`state`), what
 * a read is given (`known`), the object a create or an update makes (`planned`), and the
 * configuration and plan at plan time (`config`).
 */
interface Models {
  readonly state: object;
  readonly known: object;
  readonly planned: object;
  readonly config: object;
}

/** The generic form, for the callers that handle every kind alike. */
interface AnyModels extends Models {
  readonly state: State;
  readonly known: State;
  readonly planned: State;
  readonly config: State;
}

/** The form inferred from a kind's attributes, for its own declaration. */
interface ModelsOf<As> extends Models {
  readonly state: StateOf<As>;
  readonly known: KnownOf<As>;
  readonly planned: PlannedOf<As>;
  readonly config: ConfigOf<As>;
}

interface KindBase<As extends Attributes, M extends Models> {
  /** Terraform type, e.g. `tenantform_infra_component`. */
  readonly type: string;
  /** One paragraph for docs and the Terraform schema. */
  readonly description: string;
  readonly attributes: As;
  /** Notes for the reference docs (semantics a user relies on). */
  readonly notes?: readonly string[];
  readonly example: Example;
  /** Rules that span attributes (e.g. exactly one of two): `invalidValue` diagnostics, without address. */
  check?(config: M['config']): Diagnostic[];
}

/** What `modifyPlan` is asked: the plan as the attributes' data make it. */
export interface ModifyPlanRequest<M extends Models = AnyModels> {
  /** The current object; null when the plan creates it. */
  readonly prior: M['state'] | null;
  /** The configuration, normalized; null when the plan deletes the object. */
  readonly config: M['config'] | null;
  /** The object after apply (unknown where the platform decides); null when the plan deletes it. */
  readonly planned: M['config'] | null;
}

/** What `modifyPlan` answers; every member may be left out. */
export interface ModifyPlanResponse {
  /** The object after apply, in place of the request's (a create or an update; a replacement plans the new object from the configuration). */
  readonly planned?: State;
  /** Paths whose change replaces the object, beyond the `forceNew` attributes. */
  readonly requiresReplace?: readonly AttributePath[];
  /** Errors refuse the plan (`refusedChange`), warnings go with it; the plan adds the address. */
  readonly diagnostics?: readonly Diagnostic[];
}

/**
 * One resource kind. Operations throw `PlatformError` (or a tenantform error from
 * src/errors.ts); the generic layer in operations.ts turns both into diagnostics. In its own
 * declaration, a kind's members see its data with the types its attributes give (models.ts).
 *
 * Every kind has `importId.parse`, `identity`, `read`, `create`, `update` and `delete`.
 * Capabilities beyond them, each an optional member:
 * - `check`: rules of the configuration that span attributes;
 * - `modifyPlan`: the plan-time rules the attributes' data cannot say (changes the platform
 *   would refuse, replacement the platform's update rules force, warnings about a delete);
 * - `readMany` with `batchKey` and `batchSize`: reading several objects in one request;
 * - `writeBatch`: creating and updating several objects in one request;
 * - `discover`: listing the live objects of a tenant (export, unmanaged drift);
 * - `prepareCreate`: values the client chooses before a create is recorded as pending and sent;
 * - `adoptionCandidates`: finding the object an interrupted create made;
 * - `discardLost`: deleting the object an interrupted create made when it cannot be adopted;
 * - `importWarning`: what an import cannot recover;
 * - `notInEffect`: a refreshed object whose declared value the platform does not apply;
 * - `upgradeState`: converting state of an older `schemaVersion`.
 */
interface ResourceKindOf<As extends Attributes, M extends Models> extends KindBase<As, M> {
  readonly kind: 'resource';
  /** Bumped when stored attributes change shape; upgradeState converts older state. */
  readonly schemaVersion: number;
  readonly importId: {
    /** e.g. `<application_id>/<tenant_id>` */
    readonly format: string;
    /** Attributes known from the id alone; undefined when the id does not have the form. */
    parse(id: string): State | undefined;
  };
  /** The create cannot be repeated safely: it is recorded as pending before the request. */
  readonly nonIdempotentCreate?: boolean;
  /**
   * Values the client chooses for a create (an id the platform takes from the caller), fixed
   * before the object is recorded as pending and sent, so that an interrupted create is found
   * again by them instead of being made twice.
   */
  prepareCreate?(planned: M['planned']): M['planned'];
  /** When set, deleting only stops managing the object; this warning says so. */
  readonly deleteOnlyForgets?: string;
  /**
   * Called by every plan that changes the object (create, update, replace, delete), after the
   * attributes' data (`forceNew`, modes, defaults) made it. `ctx` reads the platform, never
   * writes (e.g. the kind of a referenced tenant), so that a refused change sends no write
   * request; it is undefined where the plan cannot reach the platform (a provider not yet
   * configured, the plan made again during apply).
   */
  modifyPlan?(ctx: OperationContext | undefined, req: ModifyPlanRequest<M>): ModifyPlanResponse | Promise<ModifyPlanResponse>;
  /**
   * A warning an import shows: what it cannot recover and how to get it. `address` is the
   * resource address, or undefined when the caller does not know it.
   */
  importWarning?(imported: M['state'], address: string | undefined): Diagnostic | undefined;
  /** The stable identity of an object, as used by import: made from its `key` attributes. */
  identity(state: M['known']): string;
  /**
   * Live object for a recorded one, or for what an import id tells; null when it is gone. A kind
   * that cannot read its arguments back answers what it knows.
   */
  read(ctx: OperationContext, state: M['known']): Promise<M['known'] | null>;
  /**
   * Reads several recorded objects in one request where the platform allows it; the
   * answers are in the order of `states`. Callers fall back to `read` when it throws.
   */
  readMany?(ctx: OperationContext, states: ReadonlyArray<M['state']>): Promise<Array<M['known'] | null>>;
  /**
   * Which objects one `readMany` request can answer together (e.g. the settings of one
   * application and tenant, listed at once). Without it, any objects of the kind can.
   */
  batchKey?(state: M['state']): string;
  /** At most this many objects per `readMany` request. */
  readonly batchSize?: number;
  /**
   * Creates and updates of several objects made in one request (the platform takes a list): an
   * apply sends the kind's creates and updates together, one request per data center, when the
   * dependency order allows it.
   */
  readonly writeBatch?: WriteBatch<M>;
  /** Lists the kind's live objects in a tenant: what an export declares and unmanaged drift counts. */
  readonly discover?: Discover;
  create(ctx: OperationContext, planned: M['planned']): Promise<M['state']>;
  update(ctx: OperationContext, prior: M['state'], planned: M['planned']): Promise<M['state']>;
  delete(ctx: OperationContext, prior: M['state']): Promise<void>;
  /**
   * Live objects with the configuration of a pending (interrupted) create: the object it made,
   * if the platform has it, is among them. The caller leaves out objects recorded elsewhere.
   */
  adoptionCandidates?(ctx: OperationContext, pending: M['planned']): Promise<Array<M['state']>>;
  /**
   * For a kind whose objects cannot be adopted after a lost answer (what only the answer carried,
   * a secret, is gone): deletes what an interrupted create with the pending configuration made,
   * so that the create sent again leaves no orphan on the platform. Answers the identities deleted.
   */
  discardLost?(ctx: OperationContext, pending: M['planned']): Promise<string[]>;
  upgradeState?(fromVersion: number, raw: State): M['state'];
  /** A warning when the platform does not apply what a live object declares (e.g. a value locked above); undefined when it does. */
  notInEffect?(live: M['state']): Diagnostic | undefined;
}

export interface WriteBatch<M extends Models = AnyModels> {
  /** What the request does, for its error messages, e.g. `sending agent update settings`. */
  readonly doing: string;
  /** Writes the planned objects in one request; their new states, in the order given. */
  write(ctx: OperationContext, planned: ReadonlyArray<M['planned']>): Promise<Array<M['state']>>;
}

interface DataSourceKindOf<As extends Attributes, M extends Models> extends KindBase<As, M> {
  readonly kind: 'data';
  read(ctx: OperationContext, config: M['state']): Promise<M['state']>;
}

export type AnyKind = ResourceKind | DataSourceKind;

/** One resource kind, as the callers that handle every kind alike see it. */
export type ResourceKind<As extends Attributes = Attributes> = ResourceKindOf<As, AnyModels>;
export type DataSourceKind<As extends Attributes = Attributes> = DataSourceKindOf<As, AnyModels>;

/**
 * A kind's declaration sees its data with the types its attributes give; the kind it makes is
 * the generic form (members are methods, so one fits the other as it is).
 */
export function defineResource<const As extends Attributes>(k: Omit<ResourceKindOf<As, ModelsOf<As>>, 'kind'>): ResourceKind<As> {
  return { ...k, kind: 'resource' };
}

export function defineDataSource<const As extends Attributes>(k: Omit<DataSourceKindOf<As, ModelsOf<As>>, 'kind'>): DataSourceKind<As> {
  return { ...k, kind: 'data' };
}

/** The name of the attribute that carries the platform's version, if any. */
export function versionAttribute(kind: AnyKind): string | undefined {
  return attributeNames(kind, 'version')[0];
}

/**
 * The attributes of one object that are never shown: those the kind declares sensitive, the
 * arguments given a sensitive value (`marked`: a sensitive variable, or a value derived from a
 * secret), and the values the platform derives from those. Without marks, the kind's own list.
 */
export function sensitiveNames(kind: AnyKind, marked: readonly string[]): readonly string[] {
  const declared = attributeNames(kind, 'sensitive');
  if (marked.length === 0) return declared;
  const names = new Set([...declared, ...marked]);
  for (const { name, attribute } of attributeList(kind.attributes))
    if (attribute.sensitiveWith !== undefined && names.has(attribute.sensitiveWith)) names.add(name);
  return [...names];
}

const namesByFlag = new WeakMap<AnyKind, Map<string, readonly string[]>>();

/** The names of the kind's attributes that have `flag` set (kinds never change: worked out once per kind). */
export function attributeNames(kind: AnyKind, flag: 'version' | 'sensitive' | 'identifying'): readonly string[] {
  let byFlag = namesByFlag.get(kind);
  if (!byFlag) namesByFlag.set(kind, (byFlag = new Map()));
  let names = byFlag.get(flag);
  // Frozen: every caller shares the one list.
  if (!names)
    byFlag.set(
      flag,
      (names = Object.freeze(
        attributeList(kind.attributes)
          .filter(({ attribute }) => attribute[flag])
          .map(({ name }) => name),
      )),
    );
  return names;
}
