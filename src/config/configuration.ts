/** A loaded configuration: its objects, blocks and settings, as loading (config.ts) makes them and every step reads them. */
import type { State, AnyKind } from '../resources/declaration';
import type { Value } from '../expressions';
import type { InstanceKey } from '../state/addresses';
import type { ModuleSources } from './modules';
import type { LocalConversion, Reference } from './expression-scope';
import type { DeclaredOutput } from './language';
import type { InputVariable } from './variables';
import type { Move, Removal } from './moves';
import type { ImportTarget } from './imports';
import type { ConfigLocation } from './locate';
import type { CheckAssertion, DeclaredCheck } from './checks';

/** One instance of a `resource` or `data` block of the configuration (the block itself without count or for_each). */
export interface DeclaredObject {
  /** `type.name`, `type.name[0]` or `type.name["key"]` (`data.` in front for data sources). */
  readonly address: string;
  /** The block's address, without the instance key. */
  readonly block: string;
  /** The count index or for_each key. */
  readonly key?: InstanceKey;
  /** `list` (count) or `map` (for_each) when the block repeats. */
  readonly each?: 'list' | 'map';
  /** `each.value`, for for_each. */
  readonly eachValue?: Value;
  /** `each.value` is this object (for_each over a repeated block's instances), known when it is. */
  readonly eachValueFrom?: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  /** The module instance that declares it (`module.customer["acme"]`); absent in the root module. */
  readonly module?: string;
  readonly kind: AnyKind;
  /** The arguments as written, references still in `${...}` form. */
  readonly config: State;
  readonly references: readonly Reference[];
  /** Objects it depends on through the locals it uses. */
  readonly throughLocals: readonly string[];
  /** Addresses named in `depends_on`. */
  readonly dependsOn: readonly string[];
  readonly ignoreChanges?: string[] | 'all';
  readonly preventDestroy: boolean;
  /** `lifecycle` conditions: preconditions checked before the object is planned, postconditions on its planned and applied value (`self`). */
  readonly conditions: { readonly pre: readonly CheckAssertion[]; readonly post: readonly CheckAssertion[] };
  /** The provider configuration it uses: `tenantform`, or `tenantform.<alias>`. */
  readonly provider: string;
}

export interface Configuration {
  readonly file: string;
  /** The configuration's folder (a folder of Terraform files, or the folder of the JSON file). */
  readonly dir?: string;
  readonly stack: string;
  /** The default `provider.tenantform` arguments (may hold the secret: never print or store them). */
  readonly provider: Readonly<Record<string, unknown>>;
  /** Every provider configuration by its name (`tenantform`, `tenantform.<alias>`): the default one always. */
  readonly providers: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  readonly objects: ReadonlyMap<string, DeclaredObject>;
  /** sha256 of the canonical resource, data and locals blocks and the variables' values, for saved plans. */
  readonly hash: string;
  /** Input variables with their values (sensitive ones never printed). */
  readonly variables: ReadonlyMap<string, InputVariable>;
  /** Local values as written, in evaluation order. */
  readonly locals: ReadonlyMap<string, unknown>;
  /** The local values holding modules' variables: converted to the declared type, sensitive where declared. */
  readonly localConversions: ReadonlyMap<string, LocalConversion>;
  readonly outputs: ReadonlyMap<string, DeclaredOutput>;
  /** Every block by address, with its instance addresses (none for `count = 0`). */
  readonly blocks: ReadonlyMap<string, BlockInstances>;
  /** Other stacks' outputs, by `data.terraform_remote_state` name. */
  readonly remoteStates: ReadonlyMap<string, Value>;
  /** `terraform.backend` as written (checked when the backend is opened). */
  readonly backend: unknown;
  /** The provider address `required_providers.tenantform.source` names, in full; undefined when none is named. */
  readonly providerAddress: string | undefined;
  /** The `moved` blocks, in order: recorded objects get their new addresses before anything is planned. */
  readonly moves: readonly Move[];
  /** The `check` blocks: assertions reported as warnings after a plan and after an apply. */
  readonly checks: readonly DeclaredCheck[];
  /** The `import` blocks, one target per instance: objects adopted by the plan where the state has none. */
  readonly imports: readonly ImportTarget[];
  /** The `removed` blocks: what becomes of the recorded objects of resources no longer declared. */
  readonly removals: readonly Removal[];
}

export interface BlockInstances {
  readonly module?: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  readonly each?: 'list' | 'map';
  readonly instances: string[];
}

/** What loading needs of a location: the file (or folder), the stack's name, the variables' values, other stacks' states. */
export type LoadLocation = Pick<ConfigLocation, 'file' | 'stack' | 'inputs' | 'remoteStates'> &
  Partial<Pick<ConfigLocation, 'dir' | 'defaultState'>> & {
    /** The local modules the configuration calls, read beforehand (reading a folder is asynchronous). */
    readonly modules?: ModuleSources;
  };
