import { createHash } from 'node:crypto';
import { backendValueOf, readConfigDocument } from './document';
import { formatPath, type AttributePath, type Diagnostic } from '../diagnostics';
import { TenantformError } from '../errors';
import { configErrors } from './errors';
import { languageErrors } from './language-errors';
import type { Attribute } from '../resources/attributes';
import type { AnyKind, State } from '../resources/declaration';
import { PROVIDER_TYPE } from '../resources/provider-config';
import { KINDS } from '../resources/registry';
import { adoptPlainTree, hasOwn, isRecord, MAX_DEPTH, ownValue, plainObject, sharedIfEmpty, toPlainTree } from '../plain-json';
import { toJson, UNKNOWN, type EvalContext, type Value } from '../expressions';
import { blockAddress, instanceAddress, type InstanceKey } from '../state/addresses';
import { expandModules, moduleArgumentProblems, type ModuleSources } from './modules';
import { dirname } from 'node:path';
import { remoteStateRequests, remoteStateValues, REMOTE_STATE_TYPE, type RemoteStateRequest } from './remote-state';
import { repetitionOf } from './repetition';
import { requiredVersionProblems } from './required-version';
import { declaredProviderAddress } from './provider-source';
import { lookupIn, evaluateArguments } from './evaluate';
import { contextFor, evaluateValue, holderOf, referencesIn, rootNameOf, rootOf, type LocalConversion, type Reference } from './expression-scope';
import { declaredNames, entriesOf, parseLocals, parseOutputs, targetsThroughLocals, type DeclaredNames, type DeclaredOutput, type Locals } from './language';
import { dependsOn, lifecycleBlock, ignoreChanges, preventDestroy, providerReference } from './meta-arguments';
import { configurationText, hasMetadata, withoutMetadata } from './cdktf-metadata';
import { providerBlocks } from './provider-blocks';
import { hasInstance } from './dependencies';
import { closestName } from '../suggest';
import { oncePerBlock } from './once-per-block';

export { dependencies, isGroupNode, objectDependencies } from './dependencies';
/** Addresses are the configuration's vocabulary too: views name objects and their modules with them. */
export { parseInstanceAddress } from '../state/addresses';
import { inputVariables, type InputVariable } from './variables';
import { isWithinModule, parseMoves, parseRemovals, type Move, type Removal } from './moves';
import { parseImports, type ImportTarget } from './imports';
import type { ConfigLocation } from './locate';

export { locateConfiguration, type ConfigLocation } from './locate';
import { assertionsIn, parseChecks, type CheckAssertion, type DeclaredCheck } from './checks';

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

/** A resource's meta-arguments: those its plan carries out, and those refused by name. */
export const CARRIED_OUT_META = ['count', 'for_each', 'depends_on', 'provider', 'lifecycle'] as const;
export const UNSUPPORTED_META = ['provisioner', 'connection'] as const;
const META = new Set<string>(['//', ...CARRIED_OUT_META, ...UNSUPPORTED_META]);

/**
 * Reads and checks a Terraform JSON configuration. Every problem of every object is reported
 * at once (address and attribute path each), before anything is sent to the platform.
 */
export function loadConfiguration(location: LoadLocation, document: Record<string, unknown> = readConfigDocument(location.file)): LoadedConfiguration {
  return parseConfiguration(document, location, { owned: true });
}

/** What loading needs of a location: the file (or folder), the stack's name, the variables' values, other stacks' states. */
export type LoadLocation = Pick<ConfigLocation, 'file' | 'stack' | 'inputs' | 'remoteStates'> &
  Partial<Pick<ConfigLocation, 'dir' | 'defaultState'>> & {
    /** The local modules the configuration calls, read beforehand (reading a folder is asynchronous). */
    readonly modules?: ModuleSources;
  };

export interface LoadedConfiguration {
  configuration?: Configuration;
  diagnostics: Diagnostic[];
}

/**
 * The other stacks' states the configuration reads, so that they are read (asynchronously,
 * through their backends) before it is loaded; its problems are reported by the load.
 */
export function remoteStatesToRead(location: LoadLocation, document: Record<string, unknown>): RemoteStateRequest[] {
  // Most stacks read no other stack's state: nothing is evaluated twice for them.
  if (!isRecord(document.data) || ownValue(document.data, REMOTE_STATE_TYPE) === undefined) return [];
  const plain = toPlainTree(document);
  if ('tooDeep' in plain) return [];
  const { doc, beforeObjects } = languagePrelude(plain.value as Record<string, unknown>, location, [], []);
  return remoteStateRequests(isRecord(doc.data) ? ownValue(doc.data, REMOTE_STATE_TYPE) : undefined, beforeObjects, []);
}

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

/** Variables, modules expanded, and locals, and the context they make before any object is known. */
function languagePrelude(
  declared: Record<string, unknown>,
  location: Pick<LoadLocation, 'file' | 'inputs' | 'modules'> & { readonly dir?: string },
  diagnostics: Diagnostic[],
  languageProblems: TenantformError[],
) {
  for (const block of Object.keys(declared)) {
    if (!CARRIED_OUT_BLOCKS.has(block)) languageProblems.push(languageErrors.unsupportedBlock(block, TERRAFORM_BLOCKS.has(block)));
  }
  // Terraform JSON: an object of blocks names at least one (resources and data sources: a type, then a name).
  for (const block of ['variable', 'output', 'provider', 'resource', 'data'] as const) {
    if (!isRecord(declared[block])) continue;
    const labelled = block === 'resource' || block === 'data';
    if (entriesOf(declared[block]).length === 0) languageProblems.push(languageErrors.missingBlockLabel(block, block, labelled ? 'type' : 'name'));
    if (labelled)
      for (const [type, named] of entriesOf(declared[block]))
        if (isRecord(named) && entriesOf(named).length === 0) languageProblems.push(languageErrors.missingBlockLabel(`${block}.${type}`, block));
  }
  const variables = inputVariables(declared.variable, location.inputs, diagnostics);
  const contextOver = (locals: ReadonlyMap<string, unknown>, localConversions: ReadonlyMap<string, LocalConversion>) =>
    contextFor(
      { file: location.file, dir: location.dir, variables, locals, localConversions, objects: new Map(), blocks: new Map(), remoteStates: new Map() },
      new Map(),
    );
  const modules = expandModules(declared, location.dir ?? dirname(location.file), location.modules, contextOver, languageProblems);
  const doc = modules.document;
  const names = declaredNames(doc);
  const locals = parseLocals(doc.locals, names, languageProblems);
  // count and for_each may use variables and locals: objects are not known when planning starts.
  const beforeObjects = contextOver(locals.ordered, modules.variables);
  return { doc, moduleBlocks: modules.blocks, moduleVariables: modules.variables, names, variables, locals, beforeObjects };
}

export function parseConfiguration(
  raw: Record<string, unknown>,
  location: LoadLocation,
  /** owned: nothing else holds `raw` (fresh from the file), so it is converted in place instead of copied. */
  options: { readonly owned?: boolean } = {},
): {
  configuration?: Configuration;
  diagnostics: Diagnostic[];
} {
  const plain = options.owned ? adoptPlainTree(raw) : toPlainTree(raw);
  if ('tooDeep' in plain) {
    const { address, path } = addressOfDocumentPath(plain.tooDeep);
    return { diagnostics: [configErrors.nestedTooDeeply(address, path, MAX_DEPTH).toDiagnostic()] };
  }
  const diagnostics: Diagnostic[] = [];
  const report = (err: unknown) => {
    if (err instanceof TenantformError) diagnostics.push(err.toDiagnostic());
    else throw err;
  };
  const languageProblems: TenantformError[] = [];
  const { doc, moduleBlocks, moduleVariables, names, variables, locals, beforeObjects } = languagePrelude(
    plain.value as Record<string, unknown>,
    location,
    diagnostics,
    languageProblems,
  );
  const outputs = parseOutputs(doc.output, names, locals, languageProblems);
  const checks = parseChecks(doc.check, names, languageProblems);
  languageProblems.forEach(report);
  requiredVersionProblems(doc.terraform).forEach(report);
  const providerAddress = declaredProviderAddress(doc.terraform, report);
  const objects = new Map<string, DeclaredObject>();
  const templates = new Map<string, DeclaredObject>();
  const blockInstances = new Map<string, BlockInstances>();
  const unparsed = new Set<string>();
  const remoteProblems: TenantformError[] = [];
  const requests = remoteStateRequests(isRecord(doc.data) ? ownValue(doc.data, REMOTE_STATE_TYPE) : undefined, beforeObjects, remoteProblems);
  const remoteStates = remoteStateValues(requests, location.remoteStates ?? new Map(), remoteProblems);
  remoteProblems.forEach(report);
  // The blocks of the document, each once, in document order.
  const documentBlocks: Array<{ module?: string; mode: 'managed' | 'data'; type: string; name: string; body: unknown; address: string }> = [];
  for (const [mode, blockKey] of [
    ['data', 'data'],
    ['managed', 'resource'],
  ] as const) {
    for (const [type, byName] of blocks(doc[blockKey])) {
      if (mode === 'data' && type === REMOTE_STATE_TYPE) continue;
      for (const [name, body] of blocks(byName)) documentBlocks.push({ mode, type, name, body, address: `${mode === 'data' ? 'data.' : ''}${type}.${name}` });
    }
  }
  for (const b of moduleBlocks) documentBlocks.push({ ...b, address: blockAddress(b) });
  const declaredAddresses = new Set(documentBlocks.map((b) => b.address));
  // count and for_each see variables and locals, and of a repeated block its instance keys (the
  // values are known at apply): `for_each = tenantform_tenant.customer`, as cdktf's
  // `TerraformIterator.fromResources` writes it, repeats per customer.
  const repetitionContext: EvalContext = {
    variables: (root) => rootOf(beforeObjects, root) ?? instanceKeysUnder(root, documentBlocks, blockInstances) ?? UNKNOWN,
  };
  // The names a block without count or for_each can use, the same for all of them.
  const namesOfSingle = { ...names, perInstance: new Set<string>() };
  // A block repeated over another block's instances waits until that block's are known.
  let pending = documentBlocks;
  for (let progress = true; pending.length > 0 && progress;) {
    const waiting = pending.filter((b) => {
      const over = isRecord(b.body) ? wholeBlockReference(b.body.for_each, declaredAddresses) : undefined;
      return over !== undefined && over !== b.address && !blockInstances.has(over);
    });
    // A cycle of blocks repeated over each other: each is taken as it is, and reported as unknown.
    const ready = waiting.length === pending.length ? pending : pending.filter((b) => !waiting.includes(b));
    progress = ready.length > 0;
    pending = waiting.length === pending.length ? [] : waiting;
    for (const { module, mode, type, name, body, address } of ready) {
      try {
        const problems: TenantformError[] = [];
        const repeated = isRecord(body) && (body.count !== undefined || body.for_each !== undefined);
        const repetition = repeated ? repetitionOf(address, body, repetitionContext, problems) : undefined;
        const over = repeated ? wholeBlockReference(body.for_each, declaredAddresses) : undefined;
        const blockNames = repeated ? { ...names, perInstance: new Set([body.count !== undefined ? 'count' : 'each']) } : namesOfSingle;
        const declared = declaredObject({ address, module, mode, type, name }, body, blockNames, locals, problems);
        // Repeated over another block's instances: each instance depends on the one of its key, whose object is `each.value`.
        const template =
          declared && over
            ? { ...declared, references: [...declared.references, { target: over, attribute: [], at: ['for_each'], ownKey: true as const }] }
            : declared;
        if (template) templates.set(address, { ...template, ...(repetition ? { each: repetition.each } : {}) });
        if (template && !repeated) objects.set(address, template);
        for (const instance of (template && repetition?.instances) || []) {
          const at = instanceAddress(address, instance.key);
          objects.set(at, {
            ...template!,
            address: at,
            key: instance.key,
            each: repetition!.each,
            ...(over ? { eachValueFrom: instanceAddress(over, instance.key) } : instance.value === undefined ? {} : { eachValue: instance.value }),
          });
        }
        blockInstances.set(address, {
          ...(module ? { module } : {}),
          mode,
          type,
          name,
          each: repetition?.each,
          instances: repeated ? (repetition?.instances ?? []).map((i) => instanceAddress(address, i.key)) : [address],
        });
        if (problems.length > 0) unparsed.add(address);
        problems.forEach(report);
      } catch (err) {
        report(err);
      }
    }
  }
  // Most objects reference nothing: only references are listed, nothing per object.
  const references: Array<{ address: string; reference: Reference }> = [];
  for (const o of templates.values()) for (const reference of o.references) references.push({ address: o.address, reference });
  references.push(...locals.references);
  for (const o of outputs.values()) for (const reference of o.references) references.push({ address: `output.${o.name}`, reference });
  for (const c of checks) for (const reference of c.references) references.push({ address: `check.${c.name}`, reference });
  const declaredBlockNames = [...templates.keys()];
  for (const { address, reference } of references) {
    if (reference.target.startsWith(`data.${REMOTE_STATE_TYPE}.`) && remoteStates.has(reference.target.split('.')[2])) continue;
    const problem = referenceProblem(address, reference, templates.get(reference.target), blockInstances.get(reference.target), declaredBlockNames);
    if (!problem) continue;
    report(problem);
    unparsed.add(address);
  }
  const scope = {
    file: location.file,
    dir: location.dir,
    variables,
    locals: locals.ordered,
    localConversions: moduleVariables,
    objects,
    blocks: blockInstances,
    remoteStates,
  };
  for (const problem of moduleArgumentProblems(moduleVariables, locals.ordered, contextFor(scope, new Map()))) report(problem);
  const nothingKnown = lookupIn(scope, new Map());
  for (const o of objects.values()) {
    for (const d of o.dependsOn) if (!objects.has(d) && !blockInstances.has(d)) report(configErrors.unknownReference(o.address, ['depends_on'], d));
    // Objects are not known yet: validation skips unknown values; functions and variables are checked.
    if (!unparsed.has(o.block)) {
      diagnostics.push(...evaluateArguments(o, nothingKnown).diagnostics);
      continue;
    }
    // An object with a broken expression is still validated, every name unknown; its expression problems are reported already.
    const validation = evaluateArguments(o, { ...nothingKnown, context: { variables: () => UNKNOWN } }).diagnostics;
    diagnostics.push(...validation.filter((d) => d.code !== 'unsupported_expression' && d.code !== 'invalid_expression'));
  }
  const context = contextFor(scope, new Map());
  for (const o of outputs.values())
    if (!unparsed.has(`output.${o.name}`)) diagnostics.push(...evaluateValue(o.value, context, `output.${o.name}`, ['value']).diagnostics);
  const providers = providerBlocks(doc.provider, context, diagnostics);
  for (const o of objects.values()) {
    if (!providers.has(o.provider)) diagnostics.push(configErrors.undeclaredProvider(o.address, o.provider, [...providers.keys()]).toDiagnostic());
  }
  const moveProblems: TenantformError[] = [];
  const declaredBlocks = {
    has: (b: string) => blockInstances.has(b),
    instances: (b: string) => blockInstances.get(b)?.instances,
    within: (module: string) => [...blockInstances.keys()].some((b) => isWithinModule(b, module)),
  };
  const moves = parseMoves(doc.moved, declaredBlocks, moveProblems);
  const removals = parseRemovals(doc.removed, declaredBlocks, moveProblems);
  const imports = parseImports(
    doc.import,
    declaredBlocks,
    (instance) => (instance === undefined ? context : contextFor(scope, new Map(), { key: instance.key, each: 'map', eachValue: instance.value })),
    moveProblems,
  );
  moveProblems.forEach(report);
  if (diagnostics.some((d) => d.severity === 'error'))
    return { diagnostics: oncePerBlock(diagnostics, (address) => repeatedBlockOf(address, objects, blockInstances)) };
  const provider = providers.get(PROVIDER_TYPE)!;
  let hash: string | undefined;
  return {
    configuration: {
      file: location.file,
      dir: location.dir,
      stack: location.stack,
      provider,
      providers,
      objects,
      // Only a saved or JSON plan reads it: made when first read, the whole configuration written out once.
      get hash() {
        return (hash ??= configurationHash(moduleBlocks.length > 0 ? { ...doc, '//modules': moduleBlocks } : doc, variables, remoteStates));
      },
      variables,
      locals: locals.ordered,
      localConversions: moduleVariables,
      outputs,
      blocks: blockInstances,
      remoteStates,
      backend: backendValueOf(doc),
      providerAddress,
      moves,
      removals,
      imports,
      checks,
    },
    diagnostics,
  };
}

function configurationHash(doc: Record<string, unknown>, variables: ReadonlyMap<string, InputVariable>, remoteStates: ReadonlyMap<string, Value>): string {
  const inputs = Object.fromEntries([...variables.values()].map((v) => [v.name, toJson(v.value)]));
  const remote = Object.fromEntries([...remoteStates].map(([name, v]) => [name, toJson(v)]));
  return createHash('sha256')
    .update(configurationText(doc, inputs, remote))
    .digest('hex');
}

/** The block of an instance of a repeated block, with all its instances; undefined for any other address. */
function repeatedBlockOf(address: string, objects: ReadonlyMap<string, DeclaredObject>, blocks: ReadonlyMap<string, BlockInstances>) {
  const o = objects.get(address);
  const block = o?.key === undefined ? undefined : blocks.get(o.block);
  return block && { block: o!.block, instances: block.instances };
}

/** The declared block a for_each names whole (`${tenantform_tenant.customer}`); undefined for any other value. */
function wholeBlockReference(raw: unknown, declared: ReadonlySet<string>): string | undefined {
  const match = typeof raw === 'string' ? /^\$\{\s*(?:module\[("(?:[^"\\]|\\.)*")\]\.)?((?:data\.)?[A-Za-z_][\w-]*\.[A-Za-z_][\w-]*)\s*\}$/.exec(raw) : null;
  if (!match) return undefined;
  // Inside a module, `module["<module instance>"]` names the module's own blocks (see modules.ts).
  const address = match[1] ? `${JSON.parse(match[1]) as string}.${match[2]}` : match[2];
  return declared.has(address) ? address : undefined;
}

/**
 * The value a count or for_each sees for a root naming resources (`tenantform_tenant`, `data`):
 * each block repeated with count a list, with for_each a map, of values known at apply; a block
 * not yet read, or not repeated, unknown. Undefined when no block has that root.
 */
function instanceKeysUnder(
  root: string,
  declared: ReadonlyArray<{ module?: string; mode: 'managed' | 'data'; type: string; name: string }>,
  known: ReadonlyMap<string, BlockInstances>,
): Value | undefined {
  const under = declared.filter((b) => rootNameOf(b) === root);
  if (under.length === 0) return undefined;
  const group = plainObject<Value>();
  for (const b of under) {
    const holder = holderOf(group, b);
    const instances = known.get(blockAddress(b));
    if (!instances?.each) holder[b.name] = UNKNOWN;
    else if (instances.each === 'list') holder[b.name] = instances.instances.map(() => UNKNOWN);
    else holder[b.name] = Object.fromEntries(instances.instances.map((a) => [instanceKeyOf(a), UNKNOWN]));
  }
  return group;
}

/** The key of an instance address: `a.b["k"]` → `k`. */
function instanceKeyOf(address: string): string {
  const match = /\["((?:[^"\\]|\\.)*)"\]$/.exec(address);
  return match ? (JSON.parse(`"${match[1]}"`) as string) : address;
}

/** Why a reference does not name a declared object's attribute (an instance key first for a repeated block); undefined when it does. */
function referenceProblem(
  from: string,
  ref: Reference,
  target: DeclaredObject | undefined,
  block: BlockInstances | undefined,
  declared: readonly string[],
): TenantformError | undefined {
  if (!target || !block) return configErrors.unknownReference(from, ref.at, ref.target, closestName(ref.target, declared));
  let attribute = ref.attribute;
  if (block.each) {
    const key = attribute[0];
    // The whole block, or an instance chosen by an expression: known when evaluated.
    if (key === undefined) return undefined;
    if (typeof key !== (block.each === 'list' ? 'number' : 'string') || !hasInstance(block, instanceAddress(ref.target, key))) {
      const keys = block.instances.map((i) => i.slice(ref.target.length));
      const meant = typeof key === 'string' ? closestName(`[${JSON.stringify(key)}]`, keys) : undefined;
      return configErrors.unknownReference(from, ref.at, instanceAddress(ref.target, key), meant && `${ref.target}${meant}`);
    }
    attribute = attribute.slice(1);
    if (attribute.length === 0) return undefined;
  }
  if (typeof attribute[0] !== 'string' || !hasOwn(target.kind.attributes, attribute[0])) {
    return configErrors.unknownAttributeReference(from, ref.at, ref.target, String(attribute[0]));
  }
  return stepProblem(from, ref, `${ref.target}.${attribute[0]}`, target.kind.attributes[attribute[0]], attribute.slice(1));
}

/** Why the steps after an attribute do not fit its type (an attribute of a string, an index into an object). */
function stepProblem(from: string, ref: Reference, reached: string, attribute: Attribute, steps: ReadonlyArray<string | number>): TenantformError | undefined {
  if (steps.length === 0) return undefined;
  const [step, ...rest] = steps;
  const fail = (what: string) => configErrors.unsupportedAttributeStep(from, ref.at, reached, what, step);
  switch (attribute.type) {
    case 'object':
      if (typeof step !== 'string') return fail('an object');
      if (!hasOwn(attribute.attributes, step)) return fail('an object');
      return stepProblem(from, ref, `${reached}.${step}`, attribute.attributes[step], rest);
    case 'list':
      if (typeof step !== 'number') return fail('a list of strings');
      return rest.length > 0 ? configErrors.unsupportedAttributeStep(from, ref.at, `${reached}[${step}]`, 'a string', rest[0]) : undefined;
    case 'nested': {
      // A set's objects have no index or key to select with, as in Terraform.
      if (attribute.nesting === 'set') return fail('a set of objects (tolist() it, or for_each over it)');
      if (typeof step !== (attribute.nesting === 'list' ? 'number' : 'string'))
        return fail(attribute.nesting === 'list' ? 'a list of objects' : 'a map of objects');
      return stepProblem(from, ref, `${reached}[${JSON.stringify(step)}]`, { ...attribute, type: 'object' }, rest);
    }
    case 'json':
      // JSON is a string in the language: jsondecode() it to reach inside.
      return fail('a string of JSON (jsondecode() it first)');
    default:
      return fail(`a ${attribute.type}`);
  }
}

/** One block as a declared object; problems with its meta-arguments are collected, not thrown, so every problem is reported. */
function declaredObject(
  { address, module, mode, type, name }: { address: string; module?: string; mode: 'managed' | 'data'; type: string; name: string },
  body: unknown,
  names: DeclaredNames & { readonly perInstance: ReadonlySet<string> },
  locals: Locals,
  problems: TenantformError[],
): DeclaredObject | undefined {
  const kind = KINDS.ofMode(mode, type);
  if (!kind) {
    const ofMode = KINDS.all.filter((k) => (k.kind === 'data') === (mode === 'data')).map((k) => k.type);
    throw configErrors.unknownType(address, type, KINDS.typeNames(), ofMode);
  }
  if (!isRecord(body)) throw configErrors.invalidMetaArgument(address, 'block', 'an object of arguments');
  for (const meta of UNSUPPORTED_META) if (body[meta] !== undefined) problems.push(configErrors.unsupportedMetaArgument(address, [meta]));
  const collect = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch (err) {
      if (!(err instanceof TenantformError)) throw err;
      problems.push(err);
      return undefined;
    }
  };
  const provider = collect(() => providerReference(address, body.provider)) ?? PROVIDER_TYPE;
  const config = plainObject() as State;
  const keys = Object.keys(body);
  // By index, as in normalize (resources/values.ts): once per declared object.
  for (let i = 0; i < keys.length; i++) {
    const v = body[keys[i]];
    if (!META.has(keys[i])) config[keys[i]] = hasMetadata(v) ? withoutMetadata(v) : v;
  }
  const lifecycle = lifecycleBlock(address, body.lifecycle, (e) => problems.push(e));
  const used = referencesIn(config, address, names, problems);
  for (const r of used.references) if (r.target === address) problems.push(languageErrors.selfReference(address, r.at));
  const conditions = conditionsOf(address, mode, lifecycle, names, problems);
  // What a condition refers to is waited for too, as Terraform orders it.
  for (const r of conditions.references) if (r.target !== address) used.references.push(r);
  return {
    address,
    block: address,
    mode,
    type,
    name,
    ...(module ? { module } : {}),
    kind,
    config,
    references: sharedIfEmpty(used.references),
    throughLocals: sharedIfEmpty(targetsThroughLocals(used.locals, locals)),
    dependsOn: sharedIfEmpty(collect(() => dependsOn(address, body.depends_on)) ?? []),
    ignoreChanges: collect(() => ignoreChanges(address, kind, lifecycle.ignore_changes)),
    preventDestroy: collect(() => preventDestroy(address, lifecycle.prevent_destroy)) ?? false,
    conditions: conditions.pre.length === 0 && conditions.post.length === 0 ? NO_CONDITIONS : { pre: conditions.pre, post: conditions.post },
    provider,
  };
}

const NO_CONDITIONS = { pre: [], post: [] } as const;

/**
 * A resource's `lifecycle` preconditions and postconditions. `self` (the object itself) is for
 * postconditions only, as in Terraform; a data source's conditions are refused by name.
 */
function conditionsOf(
  address: string,
  mode: 'managed' | 'data',
  lifecycle: Record<string, unknown>,
  names: DeclaredNames & { readonly perInstance: ReadonlySet<string> },
  problems: TenantformError[],
): { pre: CheckAssertion[]; post: CheckAssertion[]; references: Reference[] } {
  const refuse = (at: string, why: string, path: AttributePath) => problems.push(configErrors.invalidMetaArgument(at, formatPath(path), why));
  if (mode === 'data') {
    for (const k of ['precondition', 'postcondition'])
      if (lifecycle[k] !== undefined) problems.push(configErrors.unsupportedMetaArgument(address, ['lifecycle', k]));
    return { pre: [], post: [], references: [] };
  }
  const pre = assertionsIn(lifecycle.precondition, address, ['lifecycle', 'precondition'], refuse);
  const post = assertionsIn(lifecycle.postcondition, address, ['lifecycle', 'postcondition'], refuse);
  const withSelf = { ...names, perInstance: new Set([...names.perInstance, 'self']) };
  const references = [
    ...referencesIn(
      pre.map((a) => [a.condition, a.errorMessage]),
      address,
      names,
      problems,
      ['lifecycle', 'precondition'],
    ).references,
    ...referencesIn(
      post.map((a) => [a.condition, a.errorMessage]),
      address,
      withSelf,
      problems,
      ['lifecycle', 'postcondition'],
    ).references,
  ];
  return { pre, post, references };
}

/** The address and the path inside it of a place in the document (`resource.<type>.<name>.<path>` and so on). */
function addressOfDocumentPath(path: ReadonlyArray<string | number>): { address: string; path: ReadonlyArray<string | number> } {
  const [block, first, second] = path.map(String);
  if ((block === 'resource' || block === 'data') && path.length >= 3) {
    return { address: `${block === 'data' ? 'data.' : ''}${first}.${second}`, path: path.slice(3) };
  }
  const prefix: Record<string, string> = { provider: 'provider.', output: 'output.', variable: 'var.', locals: 'local.', module: 'module.' };
  if (hasOwn(prefix, block) && path.length >= 2) return { address: `${prefix[block]}${first}`, path: path.slice(2) };
  return { address: block ?? '(configuration)', path: path.slice(1) };
}

function blocks(v: unknown): Array<[string, unknown]> {
  return isRecord(v) ? Object.entries(v).filter(([k]) => k !== '//') : [];
}
