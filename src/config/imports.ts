import type { TenantformError } from '../errors';
import { languageErrors } from './language-errors';
import type { EvalContext } from '../expressions';
import { identityAttributes, importIdOf } from '../resources/identity';
import { KINDS } from '../resources/registry';
import { parseInstanceAddress, instanceAddress } from '../state/addresses';
import { evaluateValue } from './expression-scope';
import { eachBlock, type Declared } from './moves';
import { repetitionOf, type Instance } from './repetition';

/**
 * An `import` block (one instance of it, with for_each): adopt the object `id` as `to` when the
 * state has nothing there. An `identity` in place of `id` (Terraform 1.12) names the same object.
 */
export interface ImportTarget {
  /** The resource instance address the object is recorded at. */
  readonly to: string;
  /** The import id, in the kind's `importId.format`. */
  readonly id: string;
  /** The block, for messages: `import[0]`, or `import[0]["acme"]` for an instance of its for_each. */
  readonly at: string;
}

/** `each.key` or `each.value` as the index of `to` (`tenantform_tenant.customer[each.key]`), as Terraform 1.7 writes it. */
const EACH_INDEX = /\[\s*each\.(key|value)\s*\]$/;

/**
 * The `import` blocks of Terraform JSON (a list of `{to, id}`, as cdktf's `importFrom` writes them;
 * `for_each` as Terraform 1.7 takes it). `to` names a declared resource instance; `id` is known
 * when planning (variables, locals, each), as Terraform requires.
 */
export function parseImports(raw: unknown, declared: Declared, contextFor: (instance?: Instance) => EvalContext, problems: TenantformError[]): ImportTarget[] {
  const targets: ImportTarget[] = [];
  const seen = new Map<string, string>();
  // One platform object adopted at two addresses would be managed twice: dropping either later destroys it under the other.
  const adopted = new Map<string, string>();
  // An estate adopted at once names thousands of instances of a block: each is looked up, not searched for.
  const instancesOf = new Map<string, ReadonlySet<string> | undefined>();
  const targetDeclared = (address: string): boolean => {
    const block = parseInstanceAddress(address)!.block;
    if (!instancesOf.has(block)) {
      const instances = declared.instances(block);
      instancesOf.set(block, instances && new Set(instances));
    }
    return instancesOf.get(block)?.has(address) ?? false;
  };
  eachBlock(
    raw,
    'import',
    ['to', 'id', 'identity', 'for_each', 'provider'],
    (at, why) => problems.push(languageErrors.invalidImport(at, why)),
    (block, at, refuse) => {
      if (typeof block.to !== 'string') return refuse('`to` is a resource address, such as `tenantform_tenant.acme`');
      const to = block.to.replace(/^\$\{(.*)\}$/s, '$1').trim();
      const repetition = block.for_each === undefined ? undefined : repetitionOf(at, { for_each: block.for_each }, contextFor(), problems);
      if (block.for_each !== undefined && repetition === undefined) return;
      if (repetition === undefined && EACH_INDEX.test(to)) return refuse('`to` uses each, which only an import block with for_each has');
      for (const instance of repetition?.instances ?? [undefined]) {
        const where = instance === undefined ? at : instanceAddress(at, instance.key);
        const address = instance === undefined ? to : withEachIndex(to, instance);
        const parsed = address === undefined ? undefined : parseInstanceAddress(address);
        if (address === undefined || parsed === undefined || parsed.mode !== 'managed')
          return refuse('`to` is a managed resource address; with for_each its index is `[each.key]` or `[each.value]`');
        if (!targetDeclared(address))
          return problems.push(languageErrors.invalidImport(where, `there is no configuration for ${address}: declare the resource it imports into`, ['to']));
        const id =
          block.identity === undefined ? importId(block.id, contextFor(instance), where) : idOfIdentity(parsed.type, block, contextFor(instance), where);
        if (typeof id.value !== 'string') return problems.push(id.value);
        const earlier = seen.get(address);
        if (earlier !== undefined) return problems.push(languageErrors.invalidImport(where, `${address} is imported by ${earlier} already`, ['to']));
        const object = `${parsed.type} ${block.provider ?? ''} ${id.value}`;
        const twice = adopted.get(object);
        if (twice !== undefined)
          return problems.push(
            languageErrors.invalidImport(
              where,
              `${address} imports "${id.value}", which ${twice} imports already: one object is managed at one address. Give each instance its own id`,
              ['id'],
            ),
          );
        adopted.set(object, address);
        seen.set(address, where);
        targets.push({ to: address, id: id.value, at: where });
      }
    },
  );
  return targets;
}

/** The id of a block's `id`, known when planning; the problem when it is not. */
function importId(raw: unknown, ctx: EvalContext, where: string): { value: string | TenantformError } {
  const id = evaluateValue(raw, ctx, where, ['id']);
  if (id.diagnostics.length === 0 && typeof id.value === 'string' && id.value !== '') return { value: id.value };
  return { value: languageErrors.invalidImport(where, '`id` is a string known when planning (variables, locals and each only)', ['id']) };
}

/** The import id a block's `identity` names (the kind's identity attributes); the problem when it names none. */
function idOfIdentity(type: string, block: Record<string, unknown>, ctx: EvalContext, where: string): { value: string | TenantformError } {
  if (block.id !== undefined) return { value: languageErrors.invalidImport(where, 'give `id` or `identity`, not both', ['identity']) };
  const kind = KINDS.resource(type);
  const identity = evaluateValue(block.identity, ctx, where, ['identity']);
  const value = identity.value;
  if (!kind || identity.diagnostics.length > 0 || value === null || typeof value !== 'object' || Array.isArray(value)) {
    const names = kind ? identityAttributes(kind).map((a) => a.name) : [];
    return { value: languageErrors.invalidImport(where, `\`identity\` is an object known when planning: { ${names.join(', ')} }`, ['identity']) };
  }
  const named = importIdOf(kind, value as Record<string, unknown>);
  return { value: 'id' in named ? named.id : languageErrors.invalidImport(where, named.problem.replace(/\.$/, ''), ['identity']) };
}

function withEachIndex(to: string, instance: Instance): string | undefined {
  const m = EACH_INDEX.exec(to);
  if (!m) return undefined;
  const index: unknown = m[1] === 'key' ? instance.key : instance.value;
  if (typeof index !== 'string' && typeof index !== 'number') return undefined;
  return instanceAddress(to.slice(0, m.index), index);
}
