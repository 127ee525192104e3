import { dirname, relative } from 'node:path';
import { createHash } from 'node:crypto';
import { readConfigDocument } from './document';
import type { Diagnostic } from '../diagnostics';
import { TenantformError } from '../errors';
import { configErrors } from './errors';
import { PROVIDER_TYPE } from '../resources/provider-config';
import { adoptPlainTree, isRecord, MAX_DEPTH, ownValue, toPlainTree } from '../plain-json';
import { toJson, UNKNOWN, type EvalContext, type Value } from '../expressions';
import { moduleArgumentProblems } from './modules';
import { readRemoteStates, remoteStateRequests, type RemoteStateRequest } from './remote-state';
import { lookupIn, evaluateArguments } from './evaluate';
import { contextFor, evaluateValue, type LanguageScope } from './expression-scope';
import { parseOutputs, type DeclaredOutput } from './language';
import { configurationText } from './cdktf-metadata';
import { providerBlocks } from './provider-blocks';
import { oncePerBlock } from './once-per-block';
import type { InputVariable } from './variables';
import { parseChecks } from './checks';
import { languagePrelude } from './blocks/prelude';
import { terraformSettings } from './blocks/terraform';
import { declareObjects, type DeclaredObjects } from './blocks/objects';
import { checkReferences } from './blocks/references';
import { relocations } from './blocks/relocations';
import { addressOfDocumentPath, REMOTE_STATE_TYPE, type ConfigurationDocument } from './model';
import type { BlockInstances, Configuration, DeclaredObject, LoadLocation } from './configuration';

export { dependencies, isGroupNode, objectDependencies } from './dependencies';
/** Addresses are the configuration's vocabulary too: views name objects and their modules with them. */
export { parseInstanceAddress } from '../state/addresses';
export { locateConfiguration, type ConfigLocation } from './locate';
export { CARRIED_OUT_BLOCKS, TERRAFORM_BLOCKS } from './model';
export { CARRIED_OUT_META, UNSUPPORTED_META } from './blocks/resource';
export type { BlockInstances, Configuration, DeclaredObject, LoadLocation };

/**
 * Reads and checks a Terraform JSON configuration. Every problem of every object is reported
 * at once (address and attribute path each), before anything is sent to the platform.
 */
export function loadConfiguration(location: LoadLocation, document: Record<string, unknown> = readConfigDocument(location.file)): LoadedConfiguration {
  return parseConfiguration(document, location, { owned: true });
}

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
  return remoteStateRequests(doc.remoteStates, beforeObjects, []);
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
  const { doc, moduleVariables, names, variables, locals, beforeObjects } = languagePrelude(
    plain.value as Record<string, unknown>,
    location,
    diagnostics,
    languageProblems,
  );
  const outputs = parseOutputs(doc.outputs, names, locals, languageProblems);
  const checks = parseChecks(doc.checks, names, languageProblems);
  languageProblems.forEach(report);
  const { providerAddress, backend } = terraformSettings(doc.terraform, report);
  const remoteStates = readRemoteStates(doc.remoteStates, beforeObjects, location.remoteStates, report);
  const declared = declareObjects(doc, names, locals, beforeObjects, report);
  const { objects, blocks: blockInstances } = declared;
  checkReferences(declared, { locals, outputs, checks }, remoteStates, report);
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
  const context = contextFor(scope, new Map());
  validateBeforeObjects(declared, outputs, scope, context, diagnostics, report);
  const providers = providerBlocks(doc.providers, context, diagnostics);
  for (const o of objects.values()) {
    if (!providers.has(o.provider)) diagnostics.push(configErrors.undeclaredProvider(o.address, o.provider, [...providers.keys()]).toDiagnostic());
  }
  const { moves, removals, imports } = relocations(
    doc,
    blockInstances,
    (instance) => (instance === undefined ? context : contextFor(scope, new Map(), { key: instance.key, each: 'map', eachValue: instance.value })),
    report,
  );
  if (diagnostics.some((d) => d.severity === 'error'))
    return { diagnostics: oncePerBlock(diagnostics, (address) => repeatedBlockOf(address, objects, blockInstances)) };
  let hash: string | undefined;
  return {
    configuration: {
      file: location.file,
      dir: location.dir,
      stack: location.stack,
      provider: providers.get(PROVIDER_TYPE)!,
      providers,
      objects,
      // Only a saved or JSON plan reads it: made when first read, the whole configuration written out once.
      get hash() {
        return (hash ??= configurationHash(doc, variables, remoteStates, modulesHashed(plain.value as Record<string, unknown>, location)));
      },
      variables,
      locals: locals.ordered,
      localConversions: moduleVariables,
      outputs,
      blocks: blockInstances,
      remoteStates,
      backend,
      providerAddress,
      moves,
      removals,
      imports,
      checks,
    },
    diagnostics,
  };
}

/**
 * Every object's arguments and every output's value checked before any object is known:
 * validation passes over unknown values; functions, variables and locals are checked.
 */
function validateBeforeObjects(
  { objects, blocks, unparsed }: DeclaredObjects,
  outputs: ReadonlyMap<string, DeclaredOutput>,
  scope: LanguageScope,
  context: EvalContext,
  diagnostics: Diagnostic[],
  report: (err: unknown) => void,
): void {
  const nothingKnown = lookupIn(scope, new Map());
  for (const o of objects.values()) {
    for (const d of o.dependsOn) if (!objects.has(d) && !blocks.has(d)) report(configErrors.unknownReference(o.address, ['depends_on'], d));
    if (!unparsed.has(o.block)) {
      diagnostics.push(...evaluateArguments(o, nothingKnown).diagnostics);
      continue;
    }
    // An object with a broken expression is still validated, every name unknown; its expression problems are reported already.
    const validation = evaluateArguments(o, { ...nothingKnown, context: { variables: () => UNKNOWN } }).diagnostics;
    diagnostics.push(...validation.filter((d) => d.code !== 'unsupported_expression' && d.code !== 'invalid_expression'));
  }
  for (const o of outputs.values())
    if (!unparsed.has(`output.${o.name}`)) diagnostics.push(...evaluateValue(o.value, context, `output.${o.name}`, ['value']).diagnostics);
}

function configurationHash(
  doc: ConfigurationDocument,
  variables: ReadonlyMap<string, InputVariable>,
  remoteStates: ReadonlyMap<string, Value>,
  modules: unknown,
): string {
  const inputs = Object.fromEntries([...variables.values()].map((v) => [v.name, toJson(v.value)]));
  const remote = Object.fromEntries([...remoteStates].map(([name, v]) => [name, toJson(v)]));
  return createHash('sha256')
    .update(configurationText(doc.source, inputs, remote, modules))
    .digest('hex');
}

/**
 * What a saved plan must find unchanged of the modules: the calls as the root writes them and each
 * module's document, by its folder relative to the stack's (a plan is applied from another
 * checkout as well). Undefined without module calls.
 */
function modulesHashed(root: Record<string, unknown>, location: LoadLocation): unknown {
  if (root.module === undefined) return undefined;
  const base = location.dir ?? dirname(location.file);
  const documents = [...(location.modules ?? new Map<string, unknown>())].map(([folder, document]) => [relative(base, folder), document] as const);
  return { calls: root.module, documents: Object.fromEntries(documents.sort(([a], [b]) => a.localeCompare(b))) };
}

/** The block of an instance of a repeated block, with all its instances; undefined for any other address. */
function repeatedBlockOf(address: string, objects: ReadonlyMap<string, DeclaredObject>, blocks: ReadonlyMap<string, BlockInstances>) {
  const o = objects.get(address);
  const block = o?.key === undefined ? undefined : blocks.get(o.block);
  return block && { block: o!.block, instances: block.instances };
}
