import { parseInstanceAddress } from '../../config/config';
import { attributeNames, type AnyKind, type State } from '../../resources/declaration';
import { KINDS } from '../../resources/registry';
import { isUnknown } from '../../resources/values';
import { dependencies, type Configuration, type DeclaredObject } from '../../config/config';
import { withDependencies } from '../../graph/graph';
import type { Mode, OutputChange, Plan } from '../../plans/model';
import { knownValues, sensitiveMirror, typeOf, withoutUnknowns, type JsonValue } from './json-values';
import { TERRAFORM_VERSION } from '../../state/model';

/**
 * The parts of `terraform show -json` beyond the changes: planned_values, prior_state,
 * configuration, relevant_attributes and output_changes, in Terraform's shapes.
 */

export const PROVIDER_NAME = 'registry.terraform.io/tenantform/tenantform';
const PROVIDER_KEY = 'tenantform';
/** Provider arguments never written out. */
const SECRET_PROVIDER_ARGUMENTS = new Set(['client_secret']);

/** What the JSON needs beyond the plan itself. */
export interface PlanJsonContext {
  readonly configuration?: Configuration;
  /** Data source values the plan was made with. */
  readonly data?: Readonly<Record<string, State>>;
  /** Dependencies recorded in the state, by address. */
  readonly recordedDependencies?: ReadonlyMap<string, readonly string[]>;
  /** The producing program's version, in terraform_version. */
  readonly version: string;
}

export interface JsonResourceValues {
  readonly address: string;
  readonly mode: Mode;
  readonly type: string;
  readonly name: string;
  readonly provider_name: string;
  readonly schema_version: number;
  readonly values: JsonValue;
  readonly sensitive_values: JsonValue;
  readonly depends_on?: string[];
}

export interface JsonOutputValue {
  readonly sensitive: boolean;
  readonly type?: JsonValue;
  readonly value?: JsonValue;
}

export interface JsonValues {
  readonly outputs?: Record<string, JsonOutputValue>;
  readonly root_module: { readonly resources?: JsonResourceValues[] };
}

export interface JsonExpression {
  readonly constant_value: JsonValue;
  readonly references?: string[];
}

export interface JsonConfigResource {
  readonly address: string;
  readonly mode: Mode;
  readonly type: string;
  readonly name: string;
  readonly provider_config_key: string;
  readonly expressions: Record<string, JsonExpression>;
  readonly schema_version: number;
  readonly depends_on?: string[];
}

export interface JsonConfiguration {
  readonly provider_config: Record<string, { name: string; full_name: string; expressions?: Record<string, JsonExpression> }>;
  readonly root_module: { readonly resources?: JsonConfigResource[] };
}

export interface JsonRelevantAttribute {
  readonly resource: string;
  readonly attribute: Array<string | number>;
}

export interface JsonOutputChange {
  readonly actions: Array<OutputChange['action']>;
  readonly before: JsonValue;
  readonly after: JsonValue;
  readonly after_unknown: boolean;
  readonly before_sensitive: boolean;
  readonly after_sensitive: boolean;
}

/** Data sources have no schema version of their own: Terraform writes 0. */
function schemaVersion(kind: AnyKind | undefined): number {
  return kind && 'schemaVersion' in kind ? kind.schemaVersion : 0;
}

export function sensitiveNames(kind: AnyKind | undefined): Set<string> {
  return new Set(kind ? attributeNames(kind, 'sensitive') : []);
}

const byAddress = <T extends { address: string }>(a: T, b: T) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);

/** `sensitive`: names the plan marks sensitive, besides those the kind declares. */
function resourceValues(
  o: { address: string; mode: Mode; type: string; name: string; sensitive?: readonly string[] },
  value: State,
  dependsOn: readonly string[] = [],
): JsonResourceValues {
  const kind = KINDS.ofMode(o.mode, o.type);
  const sensitive = new Set([...sensitiveNames(kind), ...(o.sensitive ?? [])]);
  return {
    address: o.address,
    mode: o.mode,
    type: o.type,
    name: o.name,
    provider_name: PROVIDER_NAME,
    schema_version: schemaVersion(kind),
    values: knownValues(value, sensitive),
    sensitive_values: sensitiveMirror(value, sensitive),
    ...(dependsOn.length > 0 ? { depends_on: [...dependsOn].sort() } : {}),
  };
}

function outputValue(o: OutputChange, value: unknown, unknown: boolean): JsonOutputValue {
  const known = !unknown && value !== undefined && !isUnknown(value);
  return {
    sensitive: o.sensitive,
    ...(known ? { type: typeOf(value) } : {}),
    ...(known && !o.sensitive ? { value: withoutUnknowns(value) } : {}),
  };
}

/** The objects as they will be after apply (deleted ones left out), and the outputs. */
export function plannedValues(plan: Plan): JsonValues {
  const resources = plan.changes
    .filter((c) => c.mode === 'managed' && c.after && c.action !== 'delete')
    .map((c) => resourceValues(c, c.after!))
    .sort(byAddress);
  const outputs = (plan.outputChanges ?? []).filter((o) => o.action !== 'delete');
  return {
    ...(outputs.length > 0 ? { outputs: Object.fromEntries(outputs.map((o) => [o.name, outputValue(o, o.after, o.afterUnknown ?? false)])) } : {}),
    root_module: resources.length > 0 ? { resources } : {},
  };
}

/** The state the plan was made against, as refreshed: managed objects read from the platform and data sources. */
export function priorState(plan: Plan, context: PlanJsonContext): { format_version: '1.0'; terraform_version: string; values: JsonValues } | undefined {
  if (!plan.priorState) return undefined;
  // As Terraform's refresh does: the recorded dependencies and those of the configuration, together.
  const configured = context.configuration ? dependencies(context.configuration) : new Map<string, ReadonlySet<string>>();
  const deps = (address: string) => {
    const all = new Set([...(context.recordedDependencies?.get(address) ?? []), ...withDependencies([address], configured)]);
    all.delete(address);
    return [...all];
  };
  const managed = plan.changes.filter((c) => c.mode === 'managed' && c.before).map((c) => resourceValues(c, c.before!, deps(c.address)));
  const data = Object.entries(context.data ?? {}).map(([address, value]) => {
    const { type, name } = parseInstanceAddress(address)!;
    // Terraform records no dependencies for data sources.
    return resourceValues({ address, mode: 'data', type, name }, value, context.recordedDependencies?.get(address) ?? []);
  });
  const resources = [...managed, ...data].sort(byAddress);
  const outputs = (plan.outputChanges ?? []).filter((o) => o.action !== 'create');
  return {
    format_version: '1.0',
    terraform_version: TERRAFORM_VERSION,
    values: {
      ...(outputs.length > 0 ? { outputs: Object.fromEntries(outputs.map((o) => [o.name, outputValue(o, o.before, false)])) } : {}),
      root_module: resources.length > 0 ? { resources } : {},
    },
  };
}

/** Terraform's references of one expression: each traversal, then the object it names. */
function expressionOf(o: DeclaredObject, name: string): JsonExpression {
  const references = o.references
    .filter((r) => r.at[0] === name)
    .flatMap((r) => [[r.target, ...r.attribute.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`))].join('').replace(/\.\[/g, '['), r.target]);
  return { constant_value: withoutUnknowns(o.config[name]), ...(references.length > 0 ? { references } : {}) };
}

function configResource(o: DeclaredObject): JsonConfigResource {
  return {
    address: o.address,
    mode: o.mode,
    type: o.type,
    name: o.name,
    provider_config_key: PROVIDER_KEY,
    expressions: Object.fromEntries(Object.keys(o.config).map((name) => [name, expressionOf(o, name)])),
    schema_version: schemaVersion(o.kind),
    ...(o.dependsOn.length > 0 ? { depends_on: [...o.dependsOn] } : {}),
  };
}

/** The configuration as written: constant values and references (managed resources first, then data sources). */
export function configurationJson(configuration: Configuration): JsonConfiguration {
  const objects = [...configuration.objects.values()];
  const resources = [...objects.filter((o) => o.mode === 'managed').sort(byAddress), ...objects.filter((o) => o.mode === 'data').sort(byAddress)].map(
    configResource,
  );
  const arguments_ = Object.entries(configuration.provider).filter(([k, v]) => !SECRET_PROVIDER_ARGUMENTS.has(k) && v !== undefined && v !== null);
  const expressions = Object.fromEntries(arguments_.map(([k, v]) => [k, { constant_value: withoutUnknowns(v) }]));
  return {
    provider_config: {
      [PROVIDER_KEY]: { name: PROVIDER_KEY, full_name: configuration.providerAddress ?? PROVIDER_NAME, ...(arguments_.length > 0 ? { expressions } : {}) },
    },
    root_module: resources.length > 0 ? { resources } : {},
  };
}

/**
 * The attributes that contribute to the changes: those the changing objects reference, and
 * transitively those their referenced objects reference (Terraform uses them to tell relevant drift).
 */
export function relevantAttributes(plan: Plan, configuration: Configuration): JsonRelevantAttribute[] {
  const found = new Map<string, JsonRelevantAttribute>();
  const visited = new Set<string>();
  const queue = plan.changes.filter((c) => c.mode === 'managed' && c.action !== 'no-op').map((c) => c.address);
  while (queue.length > 0) {
    const address = queue.shift()!;
    if (visited.has(address)) continue;
    visited.add(address);
    for (const r of configuration.objects.get(address)?.references ?? []) {
      found.set(JSON.stringify([r.target, r.attribute]), { resource: r.target, attribute: [...r.attribute] });
      queue.push(r.target);
    }
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/** Every output, changed or not, keyed by name; sensitive values never written. */
export function outputChanges(plan: Plan): Record<string, JsonOutputChange> | undefined {
  const outputs = plan.outputChanges ?? [];
  if (outputs.length === 0) return undefined;
  const value = (o: OutputChange, v: unknown): JsonValue => (o.sensitive || v === undefined ? null : withoutUnknowns(v));
  return Object.fromEntries(
    outputs.map((o) => [
      o.name,
      {
        actions: [o.action],
        before: value(o, o.before),
        after: o.afterUnknown ? null : value(o, o.after),
        after_unknown: o.afterUnknown ?? false,
        before_sensitive: o.sensitive,
        after_sensitive: o.sensitive,
      },
    ]),
  );
}

/** A recorded object as `show -json` of a state reads it (the state's own shape, not imported here). */
export interface ShownObject {
  readonly address: string;
  readonly mode: Mode;
  readonly type: string;
  readonly name: string;
  readonly attributes: State;
  readonly dependencies: readonly string[];
  readonly sensitive: readonly string[];
}

/** A state as `terraform show -json` writes one: its objects and outputs, sensitive values left out. */
export function stateJson(objects: readonly ShownObject[], outputs: Record<string, unknown>) {
  const resources = objects.map((o) => resourceValues(o, o.attributes, o.dependencies)).sort(byAddress);
  const shown = recordedOutputsJson(outputs);
  return {
    format_version: '1.0',
    terraform_version: TERRAFORM_VERSION,
    values: {
      ...(Object.keys(shown).length > 0 ? { outputs: shown } : {}),
      root_module: resources.length > 0 ? { resources } : {},
    },
  };
}

/**
 * The state's recorded outputs as `show -json` and `output -json` list them: each one's type,
 * and its value unless it is sensitive (an output named on the command line shows that).
 */
export function recordedOutputsJson(outputs: Record<string, unknown>): Record<string, { sensitive: boolean; type: unknown; value?: JsonValue }> {
  const shown: Record<string, { sensitive: boolean; type: unknown; value?: JsonValue }> = {};
  for (const name of Object.keys(outputs).sort()) {
    const o = outputs[name];
    if (typeof o !== 'object' || o === null || !('value' in o)) continue;
    const { value, sensitive, type } = o as { value: unknown; sensitive?: boolean; type?: unknown };
    // The type the apply recorded, as Terraform shows it; worked out from the value where there is none.
    shown[name] = { sensitive: sensitive === true, type: type ?? typeOf(value), ...(sensitive === true ? {} : { value: withoutUnknowns(value) }) };
  }
  return shown;
}
