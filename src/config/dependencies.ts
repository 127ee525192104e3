import type { DependencyMap } from '../graph/graph';
import { instanceAddress } from '../state/addresses';
import type { BlockInstances, Configuration } from './configuration';

/**
 * The dependencies of every declared object, worked out once per configuration.
 *
 * A reference that names an instance (`[each.key]`, `[count.index]`, a literal key) depends on
 * that instance. A reference to a whole repeated block (`depends_on`, a splat, `values(...)`, a
 * local that names it) depends on the block's group node: the block's own address, which depends
 * on each of its instances. N objects referring to a block of M instances then cost N + M edges,
 * not N x M, and the group is waited on once.
 */
export function dependencies(configuration: Configuration): DependencyMap {
  let deps = dependencyMaps.get(configuration);
  if (deps === undefined) dependencyMaps.set(configuration, (deps = dependenciesOf(configuration)));
  return deps;
}

/** Whether the address is a group node: a repeated block standing for all its instances, not an object. */
export function isGroupNode(configuration: Configuration, address: string): boolean {
  return !configuration.objects.has(address) && configuration.blocks.has(address);
}

/** The objects an object depends on directly, a group node read as the instances it stands for. */
export function objectDependencies(configuration: Configuration, address: string): string[] {
  const deps = dependencies(configuration);
  return [...(deps.get(address) ?? [])].flatMap((d) => (isGroupNode(configuration, d) ? [...(deps.get(d) ?? [])] : [d]));
}

/** Whether the block has the instance (a set per block: a reference is checked in constant time). */
export function hasInstance(block: BlockInstances, address: string): boolean {
  let set = instanceSets.get(block);
  if (set === undefined) instanceSets.set(block, (set = new Set(block.instances)));
  return set.has(address);
}

const dependencyMaps = new WeakMap<Configuration, DependencyMap>();
const instanceSets = new WeakMap<BlockInstances, ReadonlySet<string>>();

/** Shared by every object that depends on nothing (a read-only view: never added to). */
const NO_DEPENDENCIES: ReadonlySet<string> = new Set();

function dependenciesOf(configuration: Configuration): DependencyMap {
  const out = new Map<string, ReadonlySet<string>>();
  const groups = new Map<string, ReadonlySet<string>>();
  /** The instance a reference names, or the group of all (an unrepeated block is its one object). */
  const targetsOf = (from: string, block: string, key?: unknown): string[] => {
    const b = configuration.blocks.get(block);
    if (!b) return [block];
    const one = b.each && (typeof key === 'number' || typeof key === 'string') ? instanceAddress(block, key) : undefined;
    if (one && hasInstance(b, one)) return [one];
    // Within its own block an object cannot wait on its group (that would be a cycle): it takes the others.
    if (b.instances.length < 2 || hasInstance(b, from)) return b.instances;
    if (!groups.has(block)) groups.set(block, new Set(b.instances.filter((i) => configuration.objects.has(i))));
    return [block];
  };
  for (const o of configuration.objects.values()) {
    if (o.references.length === 0 && o.throughLocals.length === 0 && o.dependsOn.length === 0) {
      out.set(o.address, NO_DEPENDENCIES);
      continue;
    }
    const targets = [
      ...o.references.flatMap((r) => targetsOf(o.address, r.target, r.ownKey && r.attribute.length === 0 ? o.key : r.attribute[0])),
      ...[...o.throughLocals, ...o.dependsOn].flatMap((t) => targetsOf(o.address, t)),
    ];
    out.set(o.address, new Set(targets.filter((t) => t !== o.address && (configuration.objects.has(t) || groups.has(t)))));
  }
  for (const [block, instances] of groups) out.set(block, instances);
  return out;
}
