import type { TenantformError } from '../errors';
import { hasOwn, isRecord, ownValue } from '../plain-json';
import { PROVIDER_TYPE } from '../resources/provider-config';
import { blockAddress } from '../state/addresses';
import { languageErrors } from './language-errors';

/**
 * The configuration document (Terraform JSON, as cdktf synthesizes it and as the HCL converter
 * writes it) decoded once into its blocks, each kind then read by its own step (`blocks/`).
 * Bodies stay as written: each step checks its own arguments, naming its own address.
 */

/** A block with one label, as Terraform JSON writes it (`"variable": {"region": {...}}`): the label and the body as written. */
export type NamedBlock = readonly [name: string, body: unknown];

/** A `resource` or `data` block of the root module, or one declared inside a module instance. */
export interface ObjectBlock {
  /** The module instance that declares it (`module.customer["acme"]`); absent in the root module. */
  readonly module?: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  /** `type.name`, `data.type.name`, under its module's path inside one. */
  readonly address: string;
  readonly body: unknown;
}

/** The `terraform` blocks (one object, or a list of them), setting by setting. */
export interface TerraformSettings {
  /** Every `required_version` constraint, each block's in order. */
  readonly requiredVersions: readonly unknown[];
  /** Every `required_providers` block, each block's in order. */
  readonly requiredProviders: readonly unknown[];
  /** `terraform.backend` as written (checked when the backend is opened); undefined when none is declared. */
  readonly backend: unknown;
}

export interface ConfigurationDocument {
  readonly terraform: TerraformSettings;
  /** The `tenantform` provider blocks (cdktf writes a list, hand-written JSON may write one object). */
  readonly providers: readonly Record<string, unknown>[];
  readonly variables: readonly NamedBlock[];
  /** The local values, each by its name. */
  readonly locals: readonly NamedBlock[];
  readonly outputs: readonly NamedBlock[];
  readonly checks: readonly NamedBlock[];
  /** The `data "terraform_remote_state"` blocks: other stacks' outputs, read before the configuration is loaded. */
  readonly remoteStates: readonly NamedBlock[];
  /** The `resource` blocks, each once, in document order. */
  readonly resources: readonly ObjectBlock[];
  /** The `data` blocks (remote states among them), each once, in document order. */
  readonly dataSources: readonly ObjectBlock[];
  /** The module calls; undefined when the document has no `module` block. */
  readonly modules?: readonly NamedBlock[];
  /** The `resource` and `data` blocks of the modules' instances, once the calls are expanded (see modules.ts). */
  readonly moduleBlocks: readonly ObjectBlock[];
  /** The `moved`, `removed` and `import` blocks as written: a list of blocks (one object alone is one block). */
  readonly moved: unknown;
  readonly removed: unknown;
  readonly imports: unknown;
  /** The document the blocks come from, whose hash tells a saved plan whether the configuration is still the one planned. */
  readonly source: Readonly<Record<string, unknown>>;
}

/** A resource or data block declared inside a module instance. */
export interface ModuleBlock {
  /** The module instance: `module.customer["acme"]`. */
  readonly module: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  readonly body: unknown;
}

/** The data source type of another stack's outputs (see remote-state.ts). */
export const REMOTE_STATE_TYPE = 'terraform_remote_state';

/** The top-level blocks of Terraform JSON that tenantform's own plan carries out (`//` is cdktf's metadata). */
export const CARRIED_OUT_BLOCKS: ReadonlySet<string> = new Set([
  '//',
  'terraform',
  'provider',
  'variable',
  'locals',
  'output',
  'resource',
  'data',
  'moved',
  'removed',
  'import',
  'check',
  'module',
]);
/**
 * The other top-level blocks of the Terraform language: refused by name, with the provider path as
 * the way out (the provider serves `action` blocks to Terraform 1.14 and later: docs/actions.md).
 */
export const TERRAFORM_BLOCKS: ReadonlySet<string> = new Set(['ephemeral', 'action']);

/**
 * The problems of the document's shape as written: a block tenantform does not carry out, a
 * block kind that names no block (Terraform JSON's objects of blocks name at least one).
 */
export function documentShapeProblems(written: Readonly<Record<string, unknown>>): TenantformError[] {
  const problems: TenantformError[] = [];
  for (const block of Object.keys(written)) {
    if (!CARRIED_OUT_BLOCKS.has(block)) problems.push(languageErrors.unsupportedBlock(block, TERRAFORM_BLOCKS.has(block)));
  }
  // Resources and data sources: a type, then a name.
  for (const block of ['variable', 'output', 'provider', 'resource', 'data'] as const) {
    if (!isRecord(written[block])) continue;
    const labelled = block === 'resource' || block === 'data';
    if (entriesOf(written[block]).length === 0) problems.push(languageErrors.missingBlockLabel(block, block, labelled ? 'type' : 'name'));
    if (labelled)
      for (const [type, named] of entriesOf(written[block]))
        if (isRecord(named) && entriesOf(named).length === 0) problems.push(languageErrors.missingBlockLabel(`${block}.${type}`, block));
  }
  return problems;
}

/**
 * The blocks of a document (a module's, or the root's with `moduleBlocks` those declared inside
 * its module calls' instances once they are expanded).
 */
export function decodeDocument(document: Readonly<Record<string, unknown>>, moduleBlocks: readonly ModuleBlock[] = []): ConfigurationDocument {
  const terraform = [document.terraform].flat();
  const provider = isRecord(document.provider) ? ownValue(document.provider, PROVIDER_TYPE) : undefined;
  const objectBlocks = (mode: 'managed' | 'data', section: unknown): ObjectBlock[] =>
    entriesOf(section).flatMap(([type, byName]) =>
      entriesOf(byName).map(([name, body]) => ({ mode, type, name, body, address: blockAddress({ mode, type, name }) })),
    );
  const remoteStates = isRecord(document.data) ? ownValue(document.data, REMOTE_STATE_TYPE) : undefined;
  return {
    terraform: {
      requiredVersions: terraform.flatMap((b) => (isRecord(b) && b.required_version !== undefined ? [b.required_version].flat() : [])),
      requiredProviders: terraform.flatMap((b) => (isRecord(b) && b.required_providers !== undefined ? [b.required_providers].flat() : [])),
      backend: backendValueOf(document),
    },
    providers: (Array.isArray(provider) ? provider : provider === undefined ? [] : [provider]).filter(isRecord),
    variables: entriesOf(document.variable),
    locals: entriesOf(document.locals),
    outputs: entriesOf(document.output),
    checks: entriesOf(document.check),
    // Any object: a list's entries are named by their index, as Terraform JSON reads it.
    remoteStates: remoteStates !== null && typeof remoteStates === 'object' ? Object.entries(remoteStates).filter(([k]) => k !== '//') : [],
    resources: objectBlocks('managed', document.resource),
    dataSources: objectBlocks('data', document.data),
    ...(document.module === undefined ? {} : { modules: entriesOf(document.module) }),
    moduleBlocks: moduleBlocks.map((b) => ({ ...b, address: blockAddress(b) })),
    moved: document.moved,
    removed: document.removed,
    imports: document.import,
    source: document,
  };
}

/** `terraform.backend` as the configuration declares it (undefined when it declares none). */
export function backendValueOf(document: Readonly<Record<string, unknown>>): unknown {
  return isRecord(document.terraform) ? ownValue(document.terraform, 'backend') : undefined;
}

/** The address and the path inside it of a place in the document (`resource.<type>.<name>.<path>` and so on). */
export function addressOfDocumentPath(path: ReadonlyArray<string | number>): { address: string; path: ReadonlyArray<string | number> } {
  const [block, first, second] = path.map(String);
  if ((block === 'resource' || block === 'data') && path.length >= 3) {
    return { address: `${block === 'data' ? 'data.' : ''}${first}.${second}`, path: path.slice(3) };
  }
  const prefix: Record<string, string> = { provider: 'provider.', output: 'output.', variable: 'var.', locals: 'local.', module: 'module.' };
  if (hasOwn(prefix, block) && path.length >= 2) return { address: `${prefix[block]}${first}`, path: path.slice(2) };
  return { address: block ?? '(configuration)', path: path.slice(1) };
}

/** A block's entries by label, leaving out cdktf's metadata (`//`). */
export function entriesOf(block: unknown): Array<[string, unknown]> {
  return isRecord(block) ? Object.entries(block).filter(([k]) => k !== '//') : [];
}
