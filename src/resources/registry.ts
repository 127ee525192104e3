/**
 * Which kind a Terraform type or a resource address names: the one lookup over the kinds.
 * A resource and a data source may share a type name (`tenantform_tenant`), so every lookup
 * says which of the two it wants.
 */
import type { AnyKind, DataSourceKind, ResourceKind } from './declaration';
import { ALL_KINDS } from './registry.generated';

export type KindMode = 'managed' | 'data';

export class KindRegistry {
  readonly all: readonly AnyKind[];
  readonly resources: readonly ResourceKind[];
  readonly dataSources: readonly DataSourceKind[];
  readonly #resources: ReadonlyMap<string, ResourceKind>;
  readonly #dataSources: ReadonlyMap<string, DataSourceKind>;

  constructor(kinds: readonly AnyKind[]) {
    this.all = kinds;
    this.resources = kinds.filter((k): k is ResourceKind => k.kind === 'resource');
    this.dataSources = kinds.filter((k): k is DataSourceKind => k.kind === 'data');
    this.#resources = new Map(this.resources.map((k) => [k.type, k]));
    this.#dataSources = new Map(this.dataSources.map((k) => [k.type, k]));
  }

  /** The resource kind of a type, e.g. `tenantform_tenant`. */
  resource(type: string): ResourceKind | undefined {
    return this.#resources.get(type);
  }

  /** The data source of a type (written `data.<type>` in addresses). */
  dataSource(type: string): DataSourceKind | undefined {
    return this.#dataSources.get(type);
  }

  /** The kind of a type, as a block of the state or the plan (`managed` or `data`) names it. */
  ofMode(mode: KindMode, type: string): AnyKind | undefined {
    return mode === 'data' ? this.dataSource(type) : this.resource(type);
  }

  /** The kind an address names: `<type>.<name>` or `data.<type>.<name>`, an index or key after it, a module path before it. */
  at(address: string): AnyKind | undefined {
    const [first, second] = address.replace(MODULE_PATH_PREFIX, '').split('.');
    return first === 'data' ? this.dataSource(second) : this.resource(first);
  }

  /** Every type, data sources as `data.<type>`: what an unknown type is told it could be. */
  typeNames(): string[] {
    return this.all.map((k) => `${k.kind === 'data' ? 'data.' : ''}${k.type}`);
  }
}

/** The kinds this version of tenantform knows. */
export const KINDS = new KindRegistry(ALL_KINDS);

/** The resource kind of a type; the lookup the engine is given. */
export function resourceKind(type: string): ResourceKind | undefined {
  return KINDS.resource(type);
}

/** `module.customer["acme"].` (and nested modules) in front of an address inside a module. */
const MODULE_PATH_PREFIX = /^(?:module\.[A-Za-z_][\w-]*(?:\[(?:\d+|"(?:[^"\\]|\\.)*")\])?\.)+/;
