import type { Attribute, Attributes } from './attributes';
import type { AnyKind } from './declaration';

/** A cty type as Terraform writes it in JSON: "string", ["list","string"], ... */
export type CtyType = string | [string, CtyType] | ['object', Record<string, CtyType>];

export interface SchemaAttribute {
  readonly name: string;
  /** Set for simple attributes; nested objects use `nested` instead. */
  readonly type?: CtyType;
  readonly nested?: {
    readonly nesting: 'SINGLE' | 'LIST' | 'SET' | 'MAP';
    readonly attributes: SchemaAttribute[];
  };
  readonly description: string;
  readonly required: boolean;
  readonly optional: boolean;
  readonly computed: boolean;
  readonly sensitive: boolean;
  /** The declaration's deprecation message, when the attribute is deprecated. */
  readonly deprecationMessage?: string;
}

export interface Schema {
  readonly version: number;
  readonly description: string;
  readonly attributes: SchemaAttribute[];
}

/** The schema the Terraform provider serves, derived from a kind's declaration. */
export function terraformSchema(kind: AnyKind): Schema {
  return {
    version: kind.kind === 'resource' ? kind.schemaVersion : 0,
    description: kind.description,
    attributes: schemaAttributes(kind.attributes),
  };
}

export function schemaAttributes(attributes: Attributes): SchemaAttribute[] {
  return Object.entries(attributes).map(([name, a]) => schemaAttribute(name, a));
}

function schemaAttribute(name: string, a: Attribute): SchemaAttribute {
  const common = {
    name,
    description: describe(a),
    required: a.mode === 'required',
    optional: a.mode === 'optional' || a.mode === 'optional_computed' || (a.mode !== 'computed' && a.default !== undefined),
    // A default is filled in by the provider, which Terraform treats as computed.
    computed: a.mode === 'computed' || a.mode === 'optional_computed' || a.default !== undefined,
    sensitive: Boolean(a.sensitive),
    ...(a.deprecated === undefined ? {} : { deprecationMessage: a.deprecated }),
  };
  if (a.type === 'object') {
    return { ...common, nested: { nesting: 'SINGLE', attributes: schemaAttributes(a.attributes) } };
  }
  if (a.type === 'nested') {
    const nesting = a.nesting === 'list' ? 'LIST' : a.nesting === 'set' ? 'SET' : 'MAP';
    // Sizes are checked by validation: Terraform no longer reads them from a nested attribute.
    return { ...common, nested: { nesting, attributes: schemaAttributes(a.attributes) } };
  }
  return { ...common, type: ctyType(a) };
}

export function ctyType(a: Attribute): CtyType {
  switch (a.type) {
    case 'string':
    case 'json':
      return 'string';
    case 'number':
      return 'number';
    case 'bool':
      return 'bool';
    case 'list':
      return ['list', 'string'];
    case 'object':
      return objectType(a.attributes);
    case 'nested':
      return [a.nesting, objectType(a.attributes)];
  }
}

function objectType(attributes: Attributes): CtyType {
  return ['object', Object.fromEntries(Object.entries(attributes).map(([k, n]) => [k, ctyType(n)]))];
}

/**
 * The description with the facts a reader needs: default, replacement, version. Replacement is
 * said once: not where the description says it, nor where the reader sees it already (a table's
 * "forces replacement").
 */
export function describe(a: Attribute, replacementShown = false): string {
  const notes: string[] = [];
  if (a.deprecated !== undefined) notes.push(`**Deprecated**: ${a.deprecated}`);
  if (a.default !== undefined) notes.push(`Defaults to \`${JSON.stringify(a.default)}\`.`);
  if (a.forceNew && !replacementShown && !/Changing it replaces/.test(a.description)) notes.push('Changing it replaces the object.');
  if (a.version) notes.push('The platform increments it on every change; tenantform sends it back to detect concurrent changes.');
  return [a.description, ...notes].join(' ');
}
