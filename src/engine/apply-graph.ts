import type { DependencyMap } from '../graph/graph';
import { dependencyOrder, withDependencies } from '../graph/graph';
import type { PlannedChange } from '../plans/model';
import { blockOf, isDataAddress } from '../state/addresses';
import type { RecordedObject } from '../state/model';

/**
 * What an apply runs, as a dependency graph: the plan's changes, the data sources known only
 * now, and, for each kind that writes in batches, its creates and updates as one node (one request).
 */

const BATCH_PREFIX = 'batch:';

/** The node that writes the batched creates and updates of a kind. */
export function batchNode(type: string): string {
  return `${BATCH_PREFIX}${type}`;
}

/** The kind whose batched writes the node runs; undefined for the node of one address. */
export function batchedType(node: string): string | undefined {
  return node.startsWith(BATCH_PREFIX) ? node.slice(BATCH_PREFIX.length) : undefined;
}

export interface ApplyGraphRequest {
  readonly changes: ReadonlyMap<string, PlannedChange>;
  /** The configuration's dependencies. */
  readonly configDeps: DependencyMap;
  /** The state's objects: what a deleted object depends on is only recorded there. */
  readonly recorded: readonly RecordedObject[];
  /** Data sources whose values the plan already has. */
  readonly knownData: Readonly<Record<string, unknown>>;
  /** Whether the kind of this type writes its creates and updates in one request. */
  readonly writesInBatch: (type: string) => boolean;
  /** Whether the address is a group node of the configuration's dependencies (a repeated block's instances, waited on once). */
  readonly isGroupNode: (address: string) => boolean;
}

export function applyGraph(req: ApplyGraphRequest): Map<string, Set<string>> {
  const nodes = new Map<string, Set<string>>();
  const active = [...req.changes.values()].filter((c) => c.action !== 'no-op').map((c) => c.address);
  const needed = [...withDependencies(active, req.configDeps)];
  // Data sources read only now: those the changes need, whose arguments were not known at plan time.
  const lateData = needed.filter((a) => isDataAddress(a) && !req.isGroupNode(a) && !(a in req.knownData));
  // A group node stays one node: what waits on a whole repeated block waits on it once.
  const groups = needed.filter(req.isGroupNode);
  const inGraph = new Set([...active, ...lateData, ...groups]);
  const dependents = recordedDependents(req.recorded);
  for (const address of inGraph) {
    if (req.changes.get(address)?.action === 'delete') {
      // Deleted after everything recorded as depending on it.
      nodes.set(address, new Set((dependents.get(blockOf(address)) ?? []).filter((a) => req.changes.get(a)?.action === 'delete')));
    } else {
      nodes.set(address, new Set([...(req.configDeps.get(address) ?? [])].filter((d) => inGraph.has(d))));
    }
  }
  const batchedTypes = new Set([...req.changes.values()].map((c) => c.type).filter(req.writesInBatch));
  return [...batchedTypes].reduce((graph, type) => withBatch(graph, type, batchMembers(req.changes, type)), nodes);
}

/** The objects of a kind that its batch creates or updates. */
export function batchMembers(changes: ReadonlyMap<string, PlannedChange>, type: string): string[] {
  return [...changes.values()].filter((c) => c.type === type && (c.action === 'create' || c.action === 'update')).map((c) => c.address);
}

/** For each block, the recorded objects that depend on it, found in one pass over the state. */
function recordedDependents(recorded: readonly RecordedObject[]): Map<string, string[]> {
  const dependents = new Map<string, string[]>();
  for (const o of recorded) {
    for (const block of o.dependencies) {
      const list = dependents.get(block);
      if (list) list.push(o.address);
      else dependents.set(block, [o.address]);
    }
  }
  return dependents;
}

/** Merges the batched addresses into one node, unless that would make a cycle. */
function withBatch(nodes: Map<string, Set<string>>, type: string, members: string[]): Map<string, Set<string>> {
  if (members.length < 2) return nodes;
  const merged = new Map<string, Set<string>>();
  const batched = new Set(members);
  const rename = (a: string) => (batched.has(a) ? batchNode(type) : a);
  for (const [a, ds] of nodes) {
    const target = rename(a);
    const set = merged.get(target) ?? new Set<string>();
    for (const d of ds) if (rename(d) !== target) set.add(rename(d));
    merged.set(target, set);
  }
  try {
    dependencyOrder(merged);
    return merged;
  } catch {
    return nodes;
  }
}
