import type { AttributePath } from '../diagnostics';
import { type TenantformError } from '../errors';
import { configErrors } from './errors';
import { languageErrors } from './language-errors';
import { referencesIn, type Reference } from './expression-scope';
import { isRecord } from '../plain-json';
import type { ConfigurationDocument, NamedBlock } from './model';
import { BLOCK_ARGUMENTS, boolArgument, extraneousArguments, notCarriedOut, stringArgument } from './block-arguments';

/**
 * The `locals` and `output` blocks of a configuration: what each refers to, and locals in an
 * order where each comes after the locals it uses (a cycle is an error).
 */

export interface DeclaredNames {
  readonly variables: ReadonlySet<string>;
  readonly locals: ReadonlySet<string>;
}

export interface DeclaredOutput {
  readonly name: string;
  /** The value as written. */
  readonly value: unknown;
  readonly sensitive: boolean;
  readonly references: Reference[];
  /** Objects it depends on, directly or through locals. */
  readonly targets: string[];
}

export interface Locals {
  /** Values as written, in evaluation order. */
  readonly ordered: Map<string, unknown>;
  /** Objects each local depends on, directly or through other locals. */
  readonly targets: Map<string, Set<string>>;
  readonly references: Array<{ readonly address: string; readonly reference: Reference }>;
}

export function declaredNames(doc: Pick<ConfigurationDocument, 'variables' | 'locals'>): DeclaredNames {
  return { variables: new Set(doc.variables.map(([k]) => k)), locals: new Set(doc.locals.map(([k]) => k)) };
}

export function parseLocals(blocks: readonly NamedBlock[], names: DeclaredNames, problems: TenantformError[]): Locals {
  const raw = new Map(blocks);
  const uses = new Map<string, ReturnType<typeof referencesIn>>();
  for (const [name, value] of raw) uses.set(name, referencesIn(value, `local.${name}`, names, problems));
  const ordered = new Map<string, unknown>();
  const targets = new Map<string, Set<string>>();
  // Depth first without recursion: a chain of thousands of locals must not exhaust the stack.
  const visiting: string[] = [];
  const onPath = new Set<string>();
  const visit = (start: string): void => {
    if (targets.has(start)) return;
    const stack: Array<{ name: string; pending: string[] }> = [];
    const enter = (name: string) => {
      visiting.push(name);
      onPath.add(name);
      stack.push({ name, pending: [...uses.get(name)!.locals].reverse() });
    };
    enter(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const next = top.pending.pop();
      if (next !== undefined) {
        if (targets.has(next)) continue;
        if (onPath.has(next)) problems.push(languageErrors.cycle(visiting.slice(visiting.indexOf(next)).map((n) => `local.${n}`)));
        else enter(next);
        continue;
      }
      stack.pop();
      visiting.pop();
      onPath.delete(top.name);
      const r = uses.get(top.name)!;
      const found = new Set(r.references.map((x) => x.target));
      for (const other of r.locals) for (const t of targets.get(other) ?? []) found.add(t);
      targets.set(top.name, found);
      ordered.set(top.name, raw.get(top.name));
    }
  };
  for (const name of raw.keys()) visit(name);
  const references = [...uses].flatMap(([name, r]) => r.references.map((reference) => ({ address: `local.${name}`, reference })));
  return { ordered, targets, references };
}

/** Objects a value depends on through the locals it uses. */
export function targetsThroughLocals(usedLocals: Iterable<string>, locals: Locals): string[] {
  return [...new Set([...usedLocals].flatMap((l) => [...(locals.targets.get(l) ?? [])]))];
}

export function parseOutputs(blocks: readonly NamedBlock[], names: DeclaredNames, locals: Locals, problems: TenantformError[]): Map<string, DeclaredOutput> {
  const out = new Map<string, DeclaredOutput>();
  for (const [name, body] of blocks) {
    const b = isRecord(body) ? body : {};
    for (const k of extraneousArguments(b, 'output'))
      problems.push(languageErrors.unsupportedArgument(`output.${name}`, [k], `An output block`, BLOCK_ARGUMENTS.output));
    for (const k of notCarriedOut(b, 'output')) problems.push(configErrors.unsupportedMetaArgument(`output.${name}`, [k]));
    const at: AttributePath = ['value'];
    if (!Object.hasOwn(b, 'value')) problems.push(languageErrors.missingArgument(`output.${name}`, 'value'));
    const r = referencesIn(b.value, `output.${name}`, names, problems, at);
    const targets = [...new Set([...r.references.map((x) => x.target), ...targetsThroughLocals(r.locals, locals)])];
    const sensitive = boolArgument(b, 'sensitive', false);
    if (sensitive === undefined) problems.push(languageErrors.unsuitableArgument(`output.${name}`, ['sensitive'], 'true or false'));
    if (Object.hasOwn(b, 'description') && stringArgument(b, 'description') === undefined)
      problems.push(languageErrors.unsuitableArgument(`output.${name}`, ['description'], 'a string'));
    // An unsuitable `sensitive` is an error above; until it is fixed the value is treated as sensitive.
    out.set(name, { name, value: b.value ?? null, sensitive: sensitive ?? true, references: r.references, targets });
  }
  return out;
}
