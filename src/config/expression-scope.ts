import { dirname } from 'node:path';
import type { AttributePath, Diagnostic } from '../diagnostics';
import { type TenantformError } from '../errors';
import { languageErrors } from './language-errors';
import {
  evaluate,
  evaluateConfigValue,
  fromPlain,
  hasTemplateKey,
  isTemplate,
  parseTemplate,
  referencesOf,
  SensitiveValue,
  SetValue,
  UNKNOWN,
  type EvalContext,
  type Value,
} from '../expressions';
import { attributeNames, type AnyKind, type State } from '../resources/declaration';
import { groupBy } from '../group-by';
import { plainObject } from '../plain-json';
import type { InputVariable } from './variables';
import { convertTo, type TypeConstraint } from './variable-types';

/**
 * Configuration values as Terraform evaluates them: every string is a template of the
 * expression language, with `var`, `local`, `data`, the resource types, `path` and `terraform`
 * in scope. References not known yet are unknown; sensitive values are tracked by path.
 */

/** What expressions can name, from the configuration. */
export interface LanguageScope {
  readonly file: string;
  /** The configuration's folder (`path.module`): a folder of Terraform files, else the file's folder. */
  readonly dir?: string;
  readonly variables: ReadonlyMap<string, InputVariable>;
  /** Local values as written, in an order where each comes after those it uses. */
  readonly locals: ReadonlyMap<string, unknown>;
  /** What becomes of some local values once evaluated: a module's variables, converted to their type, sensitive where declared. */
  readonly localConversions?: ReadonlyMap<string, LocalConversion>;
  readonly objects: ReadonlyMap<string, ScopeObject>;
  /** Every block: a repeated one is a list (count) or map (for_each) of its instances, empty when it has none. */
  readonly blocks: ReadonlyMap<string, ScopeBlock>;
  /** `data.terraform_remote_state.<name>` values, read when the configuration was loaded. */
  readonly remoteStates: ReadonlyMap<string, Value>;
}

interface ScopeBlock {
  readonly module?: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  readonly each?: 'list' | 'map';
}

interface ScopeObject {
  readonly module?: string;
  readonly mode: 'managed' | 'data';
  readonly type: string;
  readonly name: string;
  readonly kind: AnyKind;
  readonly key?: string | number;
}

/** A module variable's declaration, applied to the value its call gives it. */
export interface LocalConversion {
  readonly type?: TypeConstraint;
  readonly sensitive: boolean;
}

/** The value as its conversion makes it; a value that does not convert is unknown (reported when loading). */
export function converted(value: Value, conversion: LocalConversion | undefined): Value {
  if (!conversion) return value;
  const typed: { value: Value } | { problem: string } = conversion.type ? convertTo(conversion.type, value) : { value };
  const out: Value = 'value' in typed ? typed.value : UNKNOWN;
  return conversion.sensitive && !(out instanceof SensitiveValue) ? new SensitiveValue(out) : out;
}

/** What `count.index` and `each.key` / `each.value` are for one instance. */
export interface InstanceScope {
  readonly key?: string | number;
  readonly each?: 'list' | 'map';
  readonly eachValue?: Value;
  /** `each.value` is this declared object (for_each over a repeated block), as known now. */
  readonly eachValueFrom?: string;
}

/** A reference from a value to a declared object. */
export interface Reference {
  /** The referenced object's address: `tenantform_x.name` or `data.tenantform_x.name`. */
  readonly target: string;
  /** The attribute path inside the referenced object, e.g. ["id"]. */
  readonly attribute: ReadonlyArray<string | number>;
  /** Where the reference sits in the referring value. */
  readonly at: AttributePath;
  /** It names the instance with the referring instance's own key (`[each.key]`, `[count.index]`). */
  readonly ownKey?: true;
}

/** What a value refers to: objects directly, and local values. */
export interface ValueReferences {
  readonly references: Reference[];
  readonly locals: Set<string>;
}

/** Names no configuration declares but expressions may still use. */
const BUILT_IN = new Set(['path', 'terraform']);
const PER_INSTANCE = new Set(['count', 'each', 'self']);

/**
 * Every reference in a configuration value, checked against what is declared; unparsable
 * templates and undeclared names are reported with the address and path.
 */
export function referencesIn(
  value: unknown,
  address: string,
  declared: { readonly variables: ReadonlySet<string>; readonly locals: ReadonlySet<string>; readonly perInstance?: ReadonlySet<string> },
  problems: TenantformError[],
  at: AttributePath = [],
): ValueReferences {
  const out: ValueReferences = { references: [], locals: new Set() };
  walkTemplates(value, at, (text, path) => {
    const parsed = parseTemplate(text);
    if ('problem' in parsed) {
      problems.push(languageErrors.expression(address, path, parsed.problem));
      return;
    }
    for (const t of referencesOf(parsed.expr)) {
      const [first, second] = t.steps;
      if (t.root === 'var') {
        if (typeof first !== 'string' || !declared.variables.has(first)) problems.push(languageErrors.undeclaredName(address, path, `var.${String(first)}`));
      } else if (t.root === 'local') {
        if (typeof first !== 'string' || !declared.locals.has(first)) problems.push(languageErrors.undeclaredName(address, path, `local.${String(first)}`));
        else out.locals.add(first);
      } else if (declared.perInstance?.has(t.root)) {
        continue;
      } else if (PER_INSTANCE.has(t.root)) {
        problems.push(
          languageErrors.expression(address, path, {
            code: 'unsupported_construct',
            construct: t.root,
            message: `"${t.root}" is only defined inside a resource with count or for_each.`,
          }),
        );
      } else if (t.root === 'module') {
        // `module["<module instance>"].<type>.<name>`: a module's own block, as module expansion writes it.
        const [, , third, fourth] = t.steps;
        const data = second === 'data';
        const [type, name] = data ? [third, fourth] : [second, third];
        if (typeof first === 'string' && typeof type === 'string' && typeof name === 'string')
          out.references.push({
            target: `${first}.${data ? 'data.' : ''}${type}.${name}`,
            attribute: t.steps.slice(data ? 4 : 3),
            at: path,
            ...(t.ownKey ? { ownKey: true as const } : {}),
          });
        else problems.push(languageErrors.undeclaredName(address, path, 'module'));
      } else if (t.root === 'data') {
        if (typeof first === 'string' && typeof second === 'string')
          out.references.push({ target: `data.${first}.${second}`, attribute: t.steps.slice(2), at: path });
        else problems.push(languageErrors.undeclaredName(address, path, 'data'));
      } else if (!BUILT_IN.has(t.root)) {
        if (typeof first === 'string')
          out.references.push({ target: `${t.root}.${first}`, attribute: t.steps.slice(1), at: path, ...(t.ownKey ? { ownKey: true as const } : {}) });
        else problems.push(languageErrors.undeclaredName(address, path, t.root));
      }
    }
  });
  return out;
}

/** The declared blocks and objects of a scope grouped by the root name that reaches them (`data` or the type). */
interface RootIndex {
  readonly blocks: ReadonlyMap<string, ScopeBlock[]>;
  readonly objects: ReadonlyMap<string, Array<[string, ScopeObject]>>;
}

const rootIndexes = new WeakMap<LanguageScope, RootIndex>();

function rootIndexOf(scope: LanguageScope): RootIndex {
  let index = rootIndexes.get(scope);
  if (index) return index;
  index = { blocks: groupBy(scope.blocks.values(), rootNameOf), objects: groupBy(scope.objects, ([, o]) => rootNameOf(o)) };
  rootIndexes.set(scope, index);
  return index;
}

/** The root name an expression reaches a block by: `module` inside modules, `data`, or its type. */
export function rootNameOf(b: { readonly module?: string; readonly mode: 'managed' | 'data'; readonly type: string }): string {
  return b.module ? 'module' : b.mode === 'data' ? 'data' : b.type;
}

/**
 * The object of a root's value that holds a block's value under the block's name: the root
 * itself, `data.<type>`, or inside a module `module["<module>"].<type>` (and `.data.<type>`).
 */
export function holderOf(
  root: Record<string, Value>,
  b: { readonly module?: string; readonly mode: 'managed' | 'data'; readonly type: string },
): Record<string, Value> {
  const child = (parent: Record<string, Value>, key: string) => (parent[key] ??= plainObject<Value>()) as Record<string, Value>;
  if (!b.module) return b.mode === 'data' ? child(root, b.type) : root;
  const module = child(root, b.module);
  return child(b.mode === 'data' ? child(module, 'data') : module, b.type);
}

/** An object's value as the language sees it, converted once per state value (state values are never changed in place). */
const languageValues = new WeakMap<State, Value>();

export function languageValueOf(kind: AnyKind, state: State): Value {
  let value = languageValues.get(state);
  if (value === undefined) {
    value = fromPlain(markedSensitive(kind, state));
    languageValues.set(state, value);
  }
  return value;
}

/**
 * The names in scope for the values known now (objects absent from `values` are unknown).
 * Each root is built when an expression first names it, so evaluating a value that names
 * nothing, or one type, costs nothing for the rest of the stack.
 */
export function contextFor(scope: LanguageScope, values: ReadonlyMap<string, State>, instance?: InstanceScope): EvalContext {
  const built = new Map<string, Value | undefined>();
  const build = (root: string): Value | undefined => {
    if (root === 'count') return instance?.each === 'list' ? { index: instance.key as number } : undefined;
    if (root === 'each') return instance?.each === 'map' ? { key: instance.key as string, value: eachValueOf(instance) } : undefined;
    if (root === 'var') return Object.fromEntries([...scope.variables.values()].map((v) => [v.name, v.value]));
    if (root === 'path') return { module: scope.dir ?? dirname(scope.file), root: scope.dir ?? dirname(scope.file), cwd: process.cwd() };
    if (root === 'terraform') return { workspace: 'default' };
    if (root === 'local') return locals();
    return objectsUnder(root);
  };
  const eachValueOf = (i: InstanceScope): Value => {
    if (i.eachValueFrom === undefined) return i.eachValue ?? null;
    const state = values.get(i.eachValueFrom);
    const kind = scope.objects.get(i.eachValueFrom)?.kind;
    return state === undefined || kind === undefined ? UNKNOWN : languageValueOf(kind, state);
  };
  const objectsUnder = (root: string): Value | undefined => {
    let roots = sharedRoots.get(scope)?.get(values);
    if (!roots) {
      const byValues = sharedRoots.get(scope) ?? new WeakMap<ReadonlyMap<string, State>, Map<string, Value | undefined>>();
      sharedRoots.set(scope, byValues);
      byValues.set(values, (roots = new Map()));
    }
    if (!roots.has(root)) roots.set(root, buildRoot(scope, values, root));
    return roots.get(root);
  };
  const context: EvalContext = {
    variables: (root) => {
      if (!built.has(root)) built.set(root, build(root));
      return built.get(root);
    },
  };
  let computed: Record<string, Value> | undefined;
  const locals = (): Value => (computed ??= lazyLocals(scope.locals, scope.localConversions, context));
  return context;
}

/**
 * `local`: each local value evaluated when an expression first reads it, once per context. A
 * stack with thousands of locals (a module's, per instance) evaluates for each object only those
 * it uses. One that fails, or that reads itself, is unknown (reported when loading).
 */
function lazyLocals(
  raws: ReadonlyMap<string, unknown>,
  conversions: ReadonlyMap<string, LocalConversion> | undefined,
  context: EvalContext,
): Record<string, Value> {
  const values = new Map<string, Value>();
  const evaluating = new Set<string>();
  const valueOf = (name: string): Value | undefined => {
    if (values.has(name)) return values.get(name);
    if (!raws.has(name) || evaluating.has(name)) return undefined;
    evaluating.add(name);
    const raw = raws.get(name);
    // A local that is null is known; one that failed, or a module variable not given, is unknown.
    const evaluated = raw === undefined ? undefined : evaluateRaw(raw, context);
    const value = converted(evaluated === undefined ? UNKNOWN : evaluated, conversions?.get(name));
    evaluating.delete(name);
    values.set(name, value);
    return value;
  };
  const declared = (key: string | symbol): key is string => typeof key === 'string' && raws.has(key);
  return new Proxy(plainObject<Value>(), {
    get: (_, key) => (declared(key) ? valueOf(key) : undefined),
    has: (_, key) => declared(key),
    ownKeys: () => [...raws.keys()],
    getOwnPropertyDescriptor: (_, key) => (declared(key) ? { value: valueOf(key), enumerable: true, configurable: true, writable: false } : undefined),
  });
}

/**
 * The value of a root name (`tenantform_tenant`, `data`), built once per scope and map of known
 * values and shared by every evaluation over them: each object's value is read from the map when
 * an expression reaches it, so an object known later is seen, and evaluating one instance costs
 * what it reads, not the size of the estate.
 */
const sharedRoots = new WeakMap<LanguageScope, WeakMap<ReadonlyMap<string, State>, Map<string, Value | undefined>>>();

function buildRoot(scope: LanguageScope, values: ReadonlyMap<string, State>, root: string): Value | undefined {
  const index = rootIndexOf(scope);
  const blocks = index.blocks.get(root);
  const objects = index.objects.get(root);
  if (!blocks && !objects && !(root === 'data' && scope.remoteStates.size > 0)) return undefined;
  const group = plainObject<Value>();
  const holder = (o: { module?: string; mode: 'managed' | 'data'; type: string }): Record<string, Value> => holderOf(group, o);
  if (root === 'data') for (const [name, value] of scope.remoteStates) holder({ mode: 'data', type: 'terraform_remote_state' })[name] = value;
  for (const b of blocks ?? []) if (b.each) holder(b)[b.name] = b.each === 'list' ? [] : plainObject<Value>();
  for (const [address, o] of objects ?? []) {
    const into = o.key === undefined ? holder(o) : (holder(o)[o.name] as Record<string | number, Value>);
    Object.defineProperty(into, o.key ?? o.name, {
      get: () => {
        const state = values.get(address);
        return state === undefined ? UNKNOWN : languageValueOf(o.kind, state);
      },
      enumerable: true,
      configurable: true,
    });
  }
  return group;
}

/** Attributes the kind declares sensitive are sensitive wherever they are used, as in Terraform. */
function markedSensitive(kind: AnyKind, value: State): State {
  const names = attributeNames(kind, 'sensitive').filter((n) => n in value && !(value[n] instanceof SensitiveValue));
  if (names.length === 0) return value;
  const out: State = { ...value };
  for (const n of names) out[n] = new SensitiveValue(fromPlain(value[n]));
  return out;
}

/** A context where `self` is the object itself (a postcondition's view of it). */
export function withSelf(context: EvalContext, kind: AnyKind, value: State): EvalContext {
  return { variables: (root) => (root === 'self' ? languageValueOf(kind, value) : rootOf(context, root)) };
}

/** The value a context gives a root name (undefined when it has none). */
export function rootOf(context: EvalContext, root: string): Value | undefined {
  return typeof context.variables === 'function' ? context.variables(root) : context.variables[root];
}

/** A configuration value evaluated: plain data (Unknown where not known), with the paths of sensitive values. */
export interface Evaluated {
  readonly value: unknown;
  readonly sensitive: AttributePath[];
  readonly diagnostics: Diagnostic[];
}

export function evaluateValue(raw: unknown, context: EvalContext, address: string, at: AttributePath = []): Evaluated {
  const diagnostics: Diagnostic[] = [];
  const sensitive: AttributePath[] = [];
  const visit = (v: unknown, path: AttributePath): unknown => {
    if (typeof v === 'string') {
      const parsed = parseTemplate(v);
      const r = 'problem' in parsed ? parsed : evaluate(parsed.expr, context);
      if ('problem' in r) {
        diagnostics.push(languageErrors.expression(address, path, r.problem).toDiagnostic());
        return UNKNOWN;
      }
      return plainOf(r.value, path, sensitive);
    }
    if (Array.isArray(v)) return v.map((x, i) => visit(x, [...path, i]));
    if (v !== null && typeof v === 'object') {
      if (hasTemplateKey(v)) {
        // A key written as an expression: the object's keys are known only once evaluated.
        const r = evaluateConfigValue(v, context, path);
        if ('problem' in r) {
          // A problem of the object itself is the key's: named by it, as an argument's would be.
          const at = r.problem.path.length > 0 ? r.problem.path : [...path, Object.keys(v).find(isTemplate) ?? ''];
          diagnostics.push(languageErrors.expression(address, at, r.problem).toDiagnostic());
          return UNKNOWN;
        }
        return plainOf(r.value, path, sensitive);
      }
      const out = plainObject<unknown>();
      for (const [k, x] of Object.entries(v)) out[k] = visit(x, [...path, k]);
      return out;
    }
    return v;
  };
  return { value: visit(raw, at), sensitive, diagnostics };
}

/** Evaluates a raw value to an expression value (for locals); undefined when it fails. */
function evaluateRaw(raw: unknown, context: EvalContext): Value | undefined {
  const r = evaluateConfigValue(raw, context);
  return 'problem' in r ? undefined : r.value;
}

/** An expression value as plain configuration data: sets as lists, sensitive marks removed and their paths noted. */
function plainOf(v: Value, path: AttributePath, sensitive: AttributePath[]): unknown {
  if (v instanceof SensitiveValue) {
    sensitive.push(path);
    return plainOf(v.value, path, []);
  }
  if (v instanceof SetValue) return v.elements.map((x, i) => plainOf(x, [...path, i], sensitive));
  if (Array.isArray(v)) return v.map((x, i) => plainOf(x, [...path, i], sensitive));
  if (v !== null && typeof v === 'object') {
    const out = plainObject<unknown>();
    for (const [k, x] of Object.entries(v)) out[k] = plainOf(x, [...path, k], sensitive);
    return out;
  }
  return v;
}

/** Calls visit for each template string in the value, with its path (one path, copied only for a template). */
function walkTemplates(value: unknown, at: AttributePath, visit: (text: string, path: AttributePath) => void): void {
  const path = [...at];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (isTemplate(v)) visit(v, [...path]);
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        walk(v[i]);
        path.pop();
      }
    } else if (v !== null && typeof v === 'object') {
      // By index, as in normalize (resources/values.ts): every declared object passes here.
      const keys = Object.keys(v);
      for (let i = 0; i < keys.length; i++) {
        // A key written as an expression is named by itself, as the value under it is.
        if (isTemplate(keys[i])) visit(keys[i], [...path, keys[i]]);
        path.push(keys[i]);
        walk((v as Record<string, unknown>)[keys[i]]);
        path.pop();
      }
    }
  };
  walk(value);
}
