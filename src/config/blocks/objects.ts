import { type TenantformError } from '../../errors';
import { isRecord, plainObject } from '../../plain-json';
import { UNKNOWN, type EvalContext, type Value } from '../../expressions';
import { blockAddress, instanceAddress } from '../../state/addresses';
import { holderOf, rootNameOf, rootOf } from '../expression-scope';
import type { DeclaredNames, Locals } from '../language';
import { repetitionOf } from '../repetition';
import type { BlockInstances, DeclaredObject } from '../configuration';
import { REMOTE_STATE_TYPE, type ConfigurationDocument } from '../model';
import { declaredObject } from './resource';

/** What the `resource` and `data` blocks declare. */
export interface DeclaredObjects {
  /** Every instance's object by its address (a block without count or for_each is its one instance). */
  readonly objects: Map<string, DeclaredObject>;
  /** Each block as declared, by the block's address: what references to it are checked against. */
  readonly templates: Map<string, DeclaredObject>;
  /** Every block by address, with its instance addresses (none for `count = 0`). */
  readonly blocks: Map<string, BlockInstances>;
  /** The blocks with a problem of their own: their expressions are not checked again. */
  readonly unparsed: Set<string>;
}

/**
 * Every `resource` and `data` block as declared objects, count and for_each expanded into
 * instances. Each block's problems go to `report`, so that every block is read.
 */
export function declareObjects(
  doc: Pick<ConfigurationDocument, 'dataSources' | 'resources' | 'moduleBlocks'>,
  names: DeclaredNames,
  locals: Locals,
  beforeObjects: EvalContext,
  report: (err: unknown) => void,
): DeclaredObjects {
  const objects = new Map<string, DeclaredObject>();
  const templates = new Map<string, DeclaredObject>();
  const blockInstances = new Map<string, BlockInstances>();
  const unparsed = new Set<string>();
  // Data sources first, read before the resources that use them; remote states are read apart (remote-state.ts).
  const documentBlocks = [...doc.dataSources.filter((b) => b.type !== REMOTE_STATE_TYPE), ...doc.resources, ...doc.moduleBlocks];
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
  return { objects, templates, blocks: blockInstances, unparsed };
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
