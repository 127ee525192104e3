import { type TenantformError } from '../errors';
import { moduleErrors } from './errors';
import { isTemplate, parseTemplate, traversalsOf, type Traversal } from '../expressions';
import { isRecord, plainObject } from '../plain-json';
import { instanceAddress, type InstanceKey } from '../state/addresses';
import { PROVIDER_TYPE } from '../resources/provider-config';

/**
 * A module instance's expressions written in the root module's names (see modules.ts): what each
 * name of the module becomes, and the rewriting of templates, addresses and provider references.
 */

/** How a module call repeats: its instances are addressed `module.x`, `module.x[0]` or `module.x["key"]`. */
export type Repeats = 'single' | 'list' | 'map';

/** The names one module instance's expressions use, and what they become in the root module. */
export interface ModuleScope {
  /** The module instance (`module.customer["acme"]`); empty for the root module. */
  readonly path: string;
  readonly dir: string;
  readonly variables: ReadonlySet<string>;
  readonly locals: ReadonlySet<string>;
  readonly calls: ReadonlyMap<string, Repeats>;
  /** The provider configurations the call passed in (`providers = { tenantform = tenantform.eu }`), by the module's own names. */
  readonly providers: ReadonlyMap<string, string>;
  /** The module instances from the root down to here, with their folders, for the cycle check. */
  readonly chain: ReadonlyArray<{ readonly dir: string; readonly call: string }>;
}

/** `count.index`, `each.key` and `each.value` of a module call's instance, as expression text. */
export interface CallInstance {
  readonly key: InstanceKey;
  readonly valueText?: string;
}

/** The local value holding a module instance's outputs, or a whole call's. */
export const outputsLocal = (path: string): string => path;
export const moduleLocal = (path: string, kind: 'var' | 'local', name: string): string => `${path}.${kind}.${name}`;
export const prefixed = (path: string, rest: string): string => (path ? `${path}.${rest}` : rest);

/** A resource or data body: every expression in the module's names, depends_on as addresses, the provider as the call passed it. */
export function rewriteBlock(body: unknown, scope: ModuleScope, problems: TenantformError[]): unknown {
  if (!isRecord(body)) return body;
  const out = plainObject<unknown>();
  for (const [key, value] of Object.entries(body)) {
    if (key === 'depends_on') out[key] = Array.isArray(value) ? value.map((d) => rewriteAddress(String(d), scope, problems)) : value;
    else if (key === 'lifecycle' && isRecord(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'ignore_changes' ? v : rewriteValue(v, scope, problems)]));
    else if (key !== 'provider' || !scope.path) out[key] = key === 'provider' ? value : rewriteValue(value, scope, problems);
  }
  if (!scope.path) return out;
  const written = providerName(body.provider) ?? PROVIDER_TYPE;
  const provider = scope.providers.get(written) ?? written;
  if (provider !== PROVIDER_TYPE) out.provider = `\${${provider}}`;
  return out;
}

/** `tenantform.eu` from `"${tenantform.eu}"` or `"tenantform.eu"`. */
function providerName(raw: unknown): string | undefined {
  return typeof raw === 'string' ? raw.replace(/^\$\{(.*)\}$/, '$1').trim() : undefined;
}

/** The call's `providers` map in the caller's names: each module name mapped through what the caller was itself passed. */
export function passedProviders(raw: unknown, caller: ModuleScope): Map<string, string> {
  const out = new Map<string, string>();
  const outer = (name: string) => caller.providers.get(name) ?? name;
  // Without a providers argument the module uses the caller's default configuration, as in Terraform.
  if (caller.providers.has(PROVIDER_TYPE)) out.set(PROVIDER_TYPE, caller.providers.get(PROVIDER_TYPE)!);
  if (isRecord(raw)) for (const [inner, value] of Object.entries(raw)) out.set(inner, outer(providerName(value) ?? inner));
  return out;
}

/** A literal value as configuration data: its strings' interpolation marks escaped, so that nothing in it is evaluated. */
export function literal(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/([$%])\{/g, '$1$1{');
  if (Array.isArray(value)) return value.map(literal);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, literal(v)]));
  return value;
}

/** Every template string of a value rewritten into the root module's names. */
export function rewriteValue(value: unknown, scope: ModuleScope, problems: TenantformError[], instance?: CallInstance): unknown {
  if (typeof value === 'string') return isTemplate(value) ? rewriteTemplate(value, scope, problems, instance) : value;
  if (Array.isArray(value)) return value.map((v) => rewriteValue(v, scope, problems, instance));
  if (isRecord(value)) {
    const out = plainObject<unknown>();
    for (const [k, v] of Object.entries(value)) out[k] = rewriteValue(v, scope, problems, instance);
    return out;
  }
  return value;
}

/** A `depends_on` entry: a resource of the module, or a module call (all it declares, through its outputs' local value). */
export function rewriteAddress(entry: string, scope: ModuleScope, problems: TenantformError[]): string {
  const bare = entry.replace(/^\$\{(.*)\}$/, '$1').trim();
  const call = /^module\.([A-Za-z_][\w-]*)$/.exec(bare);
  if (call) return prefixed(scope.path, bare);
  if (!scope.path) return entry;
  if (/^(data\.)?[A-Za-z_][\w-]*\.[A-Za-z_][\w-]*$/.test(bare)) return `${scope.path}.${bare}`;
  problems.push(moduleErrors.undeclared(scope.path, bare));
  return entry;
}

function rewriteTemplate(text: string, scope: ModuleScope, problems: TenantformError[], instance: CallInstance | undefined): string {
  const parsed = parseTemplate(text);
  // A template that does not parse is reported when the configuration is read.
  if ('problem' in parsed) return text;
  const edits = traversalsOf(parsed.expr)
    .map((t) => ({ t, replacement: replacementFor(t, scope, problems, instance) }))
    .filter((e): e is { t: Traversal; replacement: string } => e.replacement !== undefined)
    .sort((a, b) => b.t.range.start - a.t.range.start);
  let out = text;
  for (const { t, replacement } of edits) out = out.slice(0, t.range.start) + replacement + out.slice(t.range.end);
  return out;
}

/** What a traversal becomes in the root module's names; undefined when it stays as written. */
function replacementFor(t: Traversal, scope: ModuleScope, problems: TenantformError[], instance: CallInstance | undefined): string | undefined {
  const [first, second] = t.steps;
  if (instance && t.root === 'count' && first === 'index') return `${instance.key}${stepsText(t.steps.slice(1))}`;
  if (instance && t.root === 'each' && first === 'key') return `${JSON.stringify(String(instance.key))}${stepsText(t.steps.slice(1))}`;
  if (instance && t.root === 'each' && first === 'value') return `(${instance.valueText ?? 'null'})${stepsText(t.steps.slice(1))}`;
  if (t.root === 'module' && typeof first === 'string') {
    const repeats = scope.calls.get(first);
    if (repeats === undefined) {
      problems.push(moduleErrors.undeclared(scope.path || 'the root module', `module.${first}`));
      return undefined;
    }
    const call = prefixed(scope.path, `module.${first}`);
    const keyed = (repeats === 'map' && typeof second === 'string') || (repeats === 'list' && typeof second === 'number');
    const local = keyed ? instanceAddress(call, second) : call;
    return `local[${JSON.stringify(outputsLocal(local))}]${stepsText(t.steps.slice(keyed ? 2 : 1))}`;
  }
  if (!scope.path) return undefined;
  if ((t.root === 'var' || t.root === 'local') && typeof first === 'string') {
    if (!(t.root === 'var' ? scope.variables : scope.locals).has(first)) {
      problems.push(moduleErrors.undeclared(scope.path, `${t.root}.${first}`));
      // Reported once, here: the root module's checks would report it again in other words.
      return 'null';
    }
    return `local[${JSON.stringify(moduleLocal(scope.path, t.root, first))}]${stepsText(t.steps.slice(1))}`;
  }
  if (t.root === 'path' && first === 'module') return `${JSON.stringify(scope.dir)}${stepsText(t.steps.slice(1))}`;
  if (['path', 'terraform', 'count', 'each', 'self'].includes(t.root) || first === undefined) return undefined;
  // A resource or data source of the module: `module["<path>"]` names the module instance's objects.
  return `module[${JSON.stringify(scope.path)}].${t.root}${stepsText(t.steps)}`;
}

/** Static traversal steps written out: `.name`, `[0]`, `["key"]`. */
function stepsText(steps: ReadonlyArray<string | number>): string {
  return steps.map((s) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_][\w-]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`)).join('');
}
