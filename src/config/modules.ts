import { resolve } from 'node:path';
import { type TenantformError } from '../errors';
import { moduleErrors } from './errors';
import type { EvalContext, Value } from '../expressions';
import { isRecord, plainObject } from '../plain-json';
import { closestName } from '../suggest';
import { blockAddress, instanceAddress, isModulePath, type InstanceKey } from '../state/addresses';
import { repetitionOf } from './repetition';
import { expressionText } from './expression-text';
import type { LocalConversion } from './expression-scope';
import {
  literal,
  moduleLocal,
  outputsLocal,
  passedProviders,
  prefixed,
  rewriteAddress,
  rewriteBlock,
  rewriteValue,
  type CallInstance,
  type ModuleScope,
  type Repeats,
} from './module-names';
import { conversionOf, type ModuleVariable } from './module-variables';
import { decodeDocument, entriesOf, type ConfigurationDocument, type ModuleBlock, type NamedBlock } from './model';

export { moduleArgumentProblems, type ModuleVariable } from './module-variables';

/**
 * Module calls from local folders, as Terraform expands them: every instance of a `module` block
 * adds the module's resources at addresses under its path (`module.customer["acme"].tenantform_tenant.this`).
 *
 * The modules are expanded into the root module before anything else reads the configuration, so
 * that planning, the state and the graph know only objects and local values:
 * - a module's variables and locals become local values named after the module instance
 *   (`local["module.customer.var.name"]`, `local["module.customer.local.x"]`), a variable's
 *   holding the argument the call gives it (written in the caller's names) or its default;
 * - a module's resources and data sources are read with the module's names
 *   (`module["module.customer"].tenantform_tenant.this`, which only this expansion writes);
 * - a call's outputs become a local value per instance and one for the whole call, which
 *   `module.customer.tenant_id` is rewritten to read.
 */

/** The documents of the local modules a configuration calls, by folder (absolute path). */
export type ModuleSources = ReadonlyMap<string, Record<string, unknown>>;

export interface ExpandedModules {
  /** The root module: references to module calls rewritten, the modules' local values added to `locals`, their blocks in `moduleBlocks`. */
  readonly document: ConfigurationDocument;
  /** The local values that hold the modules' variables, each with its declared type and sensitivity. */
  readonly variables: ReadonlyMap<string, ModuleVariable>;
}

/** The blocks a module of tenantform's own plan may hold (`//` is cdktf's metadata). */
const MODULE_BLOCKS = new Set(['//', 'terraform', 'variable', 'locals', 'output', 'resource', 'data', 'module']);
/** The arguments of a module block that are not the module's variables. */
const CALL_ARGUMENTS = new Set(['source', 'version', 'count', 'for_each', 'depends_on', 'providers', '//']);

/** Local sources are folders; anything else (registry, git, archives) is fetched by `terraform init`. */
export function isLocalSource(source: string): boolean {
  return source.startsWith('./') || source.startsWith('../');
}

/** The local folders a document's module blocks call (for reading them before the configuration is loaded). */
export function calledFolders(document: Record<string, unknown>, dir: string): string[] {
  const out: string[] = [];
  for (const [, body] of entriesOf(document.module)) {
    const source = isRecord(body) ? body.source : undefined;
    if (typeof source === 'string' && isLocalSource(source)) out.push(resolve(dir, source));
  }
  return out;
}

/** Reads the modules a document calls, and theirs, each folder once. */
export async function readModuleSources(
  document: Record<string, unknown>,
  dir: string,
  readFolder: (dir: string) => Promise<Record<string, unknown> | undefined>,
): Promise<ModuleSources> {
  const sources = new Map<string, Record<string, unknown>>();
  const pending = calledFolders(document, dir);
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    if (sources.has(folder)) continue;
    const read = await readFolder(folder);
    if (!read) continue;
    sources.set(folder, read);
    pending.push(...calledFolders(read, folder));
  }
  return sources;
}

/**
 * Expands every module call of the document. `context` evaluates count and for_each of the calls
 * (variables, and local values of the root and of modules by name).
 */
export function expandModules(
  written: ConfigurationDocument,
  rootDir: string,
  sources: ModuleSources | undefined,
  context: (locals: ReadonlyMap<string, unknown>, conversions: ReadonlyMap<string, LocalConversion>) => EvalContext,
  problems: TenantformError[],
): ExpandedModules {
  if (written.modules === undefined) return { document: written, variables: new Map() };
  const root: ModuleScope = {
    path: '',
    dir: rootDir,
    variables: new Set(),
    locals: new Set(),
    calls: callsOf(written.modules),
    providers: new Map(),
    chain: [],
  };
  const locals = new Map<string, unknown>(written.locals.map(([name, value]) => [name, rewriteValue(value, root, problems)]));
  const blocks: ModuleBlock[] = [];
  const variables = new Map<string, ModuleVariable>();
  const expander = new Expander(sources ?? new Map(), locals, blocks, variables, context, problems);
  for (const [name, body] of written.modules) expander.call(name, body, root);
  // The root is written anew, each block in the order written, so that its problems are reported in that order.
  const out = plainObject<unknown>();
  for (const [block, value] of Object.entries(written.source)) {
    if (block === 'module') continue;
    if (block === 'resource' || block === 'data') out[block] = mapBlocks(value, (body) => rewriteBlock(body, root, problems));
    // An import block's `to` is an address (perhaps inside a module), not an expression.
    else if (block === 'import')
      out[block] = (Array.isArray(value) ? value : [value]).map((b) => (isRecord(b) ? { ...(rewriteValue(b, root, problems) as object), to: b.to } : b));
    else out[block] = ROOT_REWRITTEN.has(block) ? rewriteValue(value, root, problems) : value;
  }
  out.locals = Object.fromEntries(locals);
  const moduleBlocks = blocks.map((b) => ({ ...b, body: dependenciesOnCalls(b.body, blocks) }));
  return { document: decodeDocument(withModuleDependencies(out, blocks), moduleBlocks), variables };
}

/** The root module's blocks that hold expressions able to name a module call. */
const ROOT_REWRITTEN = new Set(['output', 'check', 'provider']);

/** `resource` or `data` of a document with each block's body changed. */
function mapBlocks(section: unknown, change: (body: unknown) => unknown): unknown {
  if (!isRecord(section)) return section;
  const out = plainObject<unknown>();
  for (const [type, byName] of Object.entries(section)) {
    if (!isRecord(byName)) {
      out[type] = byName;
      continue;
    }
    const named = plainObject<unknown>();
    for (const [name, body] of Object.entries(byName)) named[name] = change(body);
    out[type] = named;
  }
  return out;
}

/** The root's resources with depends_on naming a module call waiting for everything that call declares. */
function withModuleDependencies(document: Record<string, unknown>, blocks: readonly ModuleBlock[]): Record<string, unknown> {
  for (const section of ['resource', 'data'] as const) document[section] = mapBlocks(document[section], (body) => dependenciesOnCalls(body, blocks));
  return document;
}

/** A depends_on entry naming a module call (`module.customer`) becomes every block declared inside it. */
function dependenciesOnCalls(body: unknown, blocks: readonly ModuleBlock[]): unknown {
  if (!isRecord(body) || !Array.isArray(body.depends_on)) return body;
  const entries = (body.depends_on as unknown[]).flatMap((entry) => {
    const bare = typeof entry === 'string' ? entry.replace(/^\$\{(.*)\}$/, '$1').trim() : '';
    if (!isModulePath(bare)) return [entry];
    return blocks.filter((b) => b.module === bare || b.module.startsWith(`${bare}.`) || b.module.startsWith(`${bare}[`)).map(blockAddress);
  });
  return { ...body, depends_on: [...new Set(entries)] };
}

function callsOf(modules: readonly NamedBlock[] = []): Map<string, Repeats> {
  const calls = new Map<string, Repeats>();
  for (const [name, body] of modules) {
    const b = isRecord(body) ? body : {};
    calls.set(name, b.for_each !== undefined ? 'map' : b.count !== undefined ? 'list' : 'single');
  }
  return calls;
}

class Expander {
  constructor(
    private readonly sources: ModuleSources,
    private readonly locals: Map<string, unknown>,
    private readonly blocks: ModuleBlock[],
    private readonly variables: Map<string, ModuleVariable>,
    private readonly context: (locals: ReadonlyMap<string, unknown>, conversions: ReadonlyMap<string, LocalConversion>) => EvalContext,
    private readonly problems: TenantformError[],
  ) {}

  /** Each module's document decoded once, however many calls and instances read it. */
  private readonly documents = new Map<string, ConfigurationDocument>();

  private decoded(dir: string, written: Record<string, unknown>): ConfigurationDocument {
    let document = this.documents.get(dir);
    if (!document) this.documents.set(dir, (document = decodeDocument(written)));
    return document;
  }

  /** One module block of `caller`: every instance of it. */
  call(name: string, raw: unknown, caller: ModuleScope): void {
    const address = prefixed(caller.path, `module.${name}`);
    const body = isRecord(raw) ? raw : {};
    const source = body.source;
    if (typeof source !== 'string') return void this.problems.push(moduleErrors.missingSource(address));
    if (!isLocalSource(source)) return void this.problems.push(moduleErrors.remoteSource(address, source));
    const dir = resolve(caller.dir, source);
    const written = this.sources.get(dir);
    if (!written) return void this.problems.push(moduleErrors.emptySource(address, source, dir));
    const loop = caller.chain.findIndex((c) => c.dir === dir);
    if (loop >= 0) return void this.problems.push(moduleErrors.recursion([...caller.chain.slice(loop).map((c) => c.call), address], source));
    for (const block of Object.keys(written)) if (!MODULE_BLOCKS.has(block)) this.problems.push(moduleErrors.unsupportedBlock(address, block));
    const module = this.decoded(dir, written);
    const declared = new Map(module.variables);
    for (const argument of Object.keys(body)) {
      if (CALL_ARGUMENTS.has(argument) || declared.has(argument)) continue;
      this.problems.push(moduleErrors.unexpectedArgument(address, argument, [...declared.keys()], closestName(argument, [...declared.keys()])));
    }
    const instances = this.instancesOf(address, body, caller);
    if (!instances) return;
    const dependsOn = Array.isArray(body.depends_on) ? body.depends_on.map((d) => rewriteAddress(String(d), caller, this.problems)) : [];
    const outputs = new Map<InstanceKey | undefined, string>();
    for (const instance of instances.list) {
      const path = instanceAddress(address, instance?.key);
      for (const [variable, declaration] of declared) {
        const local = moduleLocal(path, 'var', variable);
        this.locals.set(local, this.variableValue(address, variable, body, declaration, caller, instance));
        const conversion = conversionOf(path, variable, declaration, this.problems);
        if (conversion) this.variables.set(local, conversion);
      }
      const scope: ModuleScope = {
        path,
        dir,
        variables: new Set(declared.keys()),
        locals: new Set(module.locals.map(([n]) => n)),
        calls: callsOf(module.modules),
        providers: passedProviders(body.providers, caller),
        chain: [...caller.chain, { dir, call: path }],
      };
      for (const [local, value] of module.locals) this.locals.set(moduleLocal(path, 'local', local), rewriteValue(value, scope, this.problems));
      const before = this.blocks.length;
      for (const { mode, type, name, body } of [...module.resources, ...module.dataSources])
        this.blocks.push({ module: path, mode, type, name, body: rewriteBlock(body, scope, this.problems) });
      this.validateWhereUsed(before, scope);
      for (const [child, childBody] of module.modules ?? []) this.call(child, childBody, scope);
      // The call's depends_on: everything inside waits for what it names.
      if (dependsOn.length > 0)
        for (let n = before; n < this.blocks.length; n++) {
          const b = this.blocks[n];
          const own = isRecord(b.body) && Array.isArray(b.body.depends_on) ? b.body.depends_on : [];
          this.blocks[n] = { ...b, body: { ...(b.body as Record<string, unknown>), depends_on: [...own, ...dependsOn] } };
        }
      const values = plainObject<unknown>();
      for (const [output, outputBody] of module.outputs) {
        const value = rewriteValue(isRecord(outputBody) ? outputBody.value : null, scope, this.problems);
        if (!isRecord(outputBody) || outputBody.sensitive !== true) {
          values[output] = value;
          continue;
        }
        // A sensitive output stays sensitive wherever the caller uses it: a local value of its own, marked when evaluated.
        const local = `${path}.output.${output}`;
        this.locals.set(local, value);
        this.variables.set(local, { call: path, name: output, sensitive: true, validations: [] });
        values[output] = `\${local[${JSON.stringify(local)}]}`;
      }
      this.locals.set(outputsLocal(path), values);
      outputs.set(instance?.key, path);
    }
    if (instances.repeats === 'single') return;
    // The whole call: a list (count) or a map (for_each) of its instances' outputs.
    const reference = (path: string) => `\${local[${JSON.stringify(outputsLocal(path))}]}`;
    this.locals.set(
      outputsLocal(address),
      instances.repeats === 'list'
        ? [...outputs.values()].map(reference)
        : Object.fromEntries([...outputs].map(([key, path]) => [String(key), reference(path)])),
    );
  }

  /**
   * A variable's validation rules become preconditions of the module's resources that use it: a
   * value known when the configuration is read is checked then (moduleArgumentProblems); one known
   * only later is checked when those resources are planned or applied, as Terraform checks it.
   */
  private validateWhereUsed(from: number, scope: ModuleScope): void {
    for (const name of scope.variables) {
      const local = moduleLocal(scope.path, 'var', name);
      const rules = this.variables.get(local)?.validations ?? [];
      if (rules.length === 0) continue;
      const used = JSON.stringify(`local[${JSON.stringify(local)}]`).slice(1, -1);
      const preconditions = rules.map((r) => ({
        condition: rewriteValue(r.condition, scope, this.problems),
        error_message: rewriteValue(r.errorMessage, scope, this.problems),
      }));
      for (let n = from; n < this.blocks.length; n++) {
        const b = this.blocks[n];
        if (b.module !== scope.path || b.mode !== 'managed' || !isRecord(b.body) || !JSON.stringify(b.body).includes(used)) continue;
        const lifecycle = (Array.isArray(b.body.lifecycle) ? b.body.lifecycle[0] : b.body.lifecycle) as unknown;
        const own = isRecord(lifecycle) ? lifecycle : {};
        const existing: unknown[] = own.precondition === undefined ? [] : Array.isArray(own.precondition) ? own.precondition : [own.precondition];
        this.blocks[n] = { ...b, body: { ...b.body, lifecycle: { ...own, precondition: [...existing, ...preconditions] } } };
      }
    }
  }

  private instancesOf(
    address: string,
    body: Record<string, unknown>,
    caller: ModuleScope,
  ): { repeats: Repeats; list: Array<CallInstance | undefined> } | undefined {
    if (body.count === undefined && body.for_each === undefined) return { repeats: 'single', list: [undefined] };
    const rewritten = { count: rewriteValue(body.count, caller, this.problems), for_each: rewriteValue(body.for_each, caller, this.problems) };
    const repetition = repetitionOf(address, rewritten, this.context(this.locals, this.variables), this.problems);
    if (!repetition) return undefined;
    // each.value is written out where it is known; else read from the for_each value, kept as a local value.
    const forEach = `${address}.for_each`;
    const valueTextOf = (key: InstanceKey, value: Value | undefined): string => {
      const known = value === undefined ? undefined : expressionText(value);
      if (known !== undefined) return known;
      this.locals.set(forEach, rewritten.for_each);
      return `local[${JSON.stringify(forEach)}][${JSON.stringify(key)}]`;
    };
    return {
      repeats: repetition.each,
      list: repetition.instances.map((i) => ({ key: i.key, ...(repetition.each === 'map' ? { valueText: valueTextOf(i.key, i.value) } : {}) })),
    };
  }

  /** A variable's value for one instance: the call's argument in the caller's names, else the default (a literal, never a template). */
  private variableValue(
    call: string,
    name: string,
    body: Record<string, unknown>,
    declaration: unknown,
    caller: ModuleScope,
    instance: CallInstance | undefined,
  ): unknown {
    // A missing argument is reported, and its variable is unknown (no value) so that nothing else reports it again.
    if (Object.hasOwn(body, name)) return rewriteValue(body[name], caller, this.problems, instance);
    const d = isRecord(declaration) ? declaration : {};
    if (Object.hasOwn(d, 'default')) return literal(d.default);
    this.problems.push(moduleErrors.missingArgument(call, name));
    return undefined;
  }
}
