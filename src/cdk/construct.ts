import type { Construct } from 'constructs';
import type { Attributes, OutputsOf, PropsOf } from '../resources/attributes';
import { TerraformDataSource, type TerraformMetaArguments, TerraformProvider, TerraformResource, Token } from './cdk';
import type { MetaArguments } from './meta-arguments';
import type { ElementMembers } from './element-members';
import type { AnyKind, DataSourceKind, ResourceKind, State } from '../resources/declaration';
import { camelCase, snakeAttributes } from '../resources/naming';
import { PROVIDER_ATTRIBUTES, PROVIDER_SOURCE, PROVIDER_TYPE } from '../resources/provider-config';
import { validateConfig } from '../resources/validate';
import { Unknown } from '../resources/values';

type Element = TerraformResource | TerraformDataSource;

/**
 * Whether a string holds a Terraform expression: an iterator's `each.key` and a reference written
 * by hand (`"${tenantform_tenant.customer[each.key].id}"`) synthesize the same text as a token, and
 * are checked at plan time, once evaluated.
 */
function holdsExpression(v: string): boolean {
  return v.includes('${') || v.includes('%{');
}

/** Replaces cdktf tokens (references resolved at synth) and written expressions with Unknown for validation. */
function tokensAsUnknown(v: unknown): unknown {
  if (typeof v === 'string' && (Token.isUnresolved(v) || holdsExpression(v))) return Unknown;
  if (typeof v === 'number' && Token.isUnresolved(v)) return Unknown;
  if (Array.isArray(v)) return Token.isUnresolved(v) ? Unknown : v.map(tokensAsUnknown);
  if (v && typeof v === 'object') {
    if (Token.isUnresolved(v)) return Unknown;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, tokensAsUnknown(x)]));
  }
  return v;
}

/** Adds typed getters (camelCase) that reference each attribute from other resources. */
function defineOutputs(proto: object, attributes: Attributes): void {
  for (const [name, a] of Object.entries(attributes)) {
    Object.defineProperty(proto, camelCase(name), {
      configurable: true,
      get(this: Element) {
        switch (a.type) {
          case 'number':
            return this.getNumberAttribute(name);
          case 'bool':
            return this.getBooleanAttribute(name);
          case 'list':
            return this.getListAttribute(name);
          case 'nested':
            // A collection of objects: reached into with cdktf's propertyAccess or Fn functions.
            return this.interpolationForAttribute(name);
          default:
            return this.getStringAttribute(name);
        }
      },
    });
  }
}

/** Validates the props at synth time, so that `cdktf synth` reports problems early. */
function addValidation(el: Element, kind: AnyKind, attributes: State): void {
  el.node.addValidation({
    validate: () =>
      validateConfig(kind, tokensAsUnknown(attributes) as State, `${kind.type}.${el.node.id}`).map((p) => `${p.address}: ${p.path?.join('.')}: ${p.detail}`),
  });
}

const META_KEYS = ['dependsOn', 'count', 'provider', 'lifecycle', 'forEach', 'provisioners', 'connection'] as const;

function split(attributes: Attributes, props: Record<string, unknown>) {
  const meta: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(props)) ((META_KEYS as readonly string[]).includes(k) ? meta : rest)[k] = v;
  return { meta: meta as TerraformMetaArguments, attributes: snakeAttributes(attributes, rest) as State };
}

export type ResourceConstruct<As extends Attributes> = new (scope: Construct, id: string, props: PropsOf<As> & MetaArguments) => ElementMembers & OutputsOf<As>;

export type DataSourceConstruct<As extends Attributes> = new (
  scope: Construct,
  id: string,
  props: PropsOf<As> & MetaArguments,
) => ElementMembers & OutputsOf<As>;

// `cdktf deploy` requires a version constraint for every provider it installs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const PACKAGE_VERSION: string = (require('../../package.json') as { version: string }).version;
const generatorMetadata = { providerName: PROVIDER_TYPE, providerVersionConstraint: `~> ${PACKAGE_VERSION}` };

/**
 * One construct class for a kind on top of the cdktf element it synthesizes as
 * (`resource` or `data`): props split into meta-arguments and snake_case attributes,
 * validated at synth, and typed getters for references.
 */
function kindConstruct(base: typeof TerraformResource | typeof TerraformDataSource, kind: AnyKind): unknown {
  // Both cdktf bases take the same configuration; typed as one so the class is written once.
  const Base = base as typeof TerraformResource;
  class KindElement extends Base {
    private readonly declared: State;
    constructor(scope: Construct, id: string, props: Record<string, unknown>) {
      const { meta, attributes } = split(kind.attributes, props);
      super(scope, id, { ...meta, terraformResourceType: kind.type, terraformGeneratorMetadata: generatorMetadata });
      this.declared = attributes;
      addValidation(this, kind, attributes);
    }
    protected override synthesizeAttributes(): Record<string, unknown> {
      return this.declared;
    }
  }
  defineOutputs(KindElement.prototype, kind.attributes);
  return KindElement;
}

/** The cdktf construct of a resource kind, derived from its declaration. */
export function resourceConstruct<As extends Attributes>(kind: ResourceKind<As>): ResourceConstruct<As> {
  return kindConstruct(TerraformResource, kind) as ResourceConstruct<As>;
}

/** The cdktf construct of a data source, derived from its declaration. */
export function dataSourceConstruct<As extends Attributes>(kind: DataSourceKind<As>): DataSourceConstruct<As> {
  return kindConstruct(TerraformDataSource, kind) as DataSourceConstruct<As>;
}

export type TenantformProviderProps = PropsOf<typeof PROVIDER_ATTRIBUTES> & {
  /** Names a second provider block, e.g. for a second data center. */
  readonly alias?: string;
};

/**
 * The `tenantform` provider block. Credentials left out are read from
 * TENANTFORM_BASE_URL, TENANTFORM_CLIENT_ID and TENANTFORM_CLIENT_SECRET at run time,
 * which keeps secrets out of the synthesized JSON.
 */
export class TenantformProvider extends TerraformProvider {
  private readonly declared: State;
  // cdktf's base class keeps no alias of its own: without this, `alias` would be dropped and
  // every resource's `provider` would name the default block.
  private aliasName?: string;
  constructor(scope: Construct, id: string, props: TenantformProviderProps = {}) {
    super(scope, id, {
      terraformResourceType: PROVIDER_TYPE,
      terraformProviderSource: PROVIDER_SOURCE,
      terraformGeneratorMetadata: generatorMetadata,
    });
    const { alias, ...rest } = props;
    this.declared = snakeAttributes(PROVIDER_ATTRIBUTES, rest);
    this.aliasName = alias;
  }
  public override get alias(): string | undefined {
    return this.aliasName;
  }
  public override set alias(value: string | undefined) {
    this.aliasName = value;
  }
  protected override synthesizeAttributes(): Record<string, unknown> {
    return { ...this.declared };
  }
}
