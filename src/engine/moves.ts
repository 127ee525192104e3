import type { Move } from '../config/moves';
import { resourceKind } from '../resources/registry';
import { isModulePath, parseInstanceAddress } from '../state/addresses';
import { isWithinModule } from '../config/moves';
import type { StateStore } from '../state/state';

/** The moves carried out on a state in this run: each object's address before and after. */
const carriedOut = new WeakMap<StateStore, Map<string, string>>();

/** A move not carried out because its target holds an object already: the state is taken as it is. */
export interface SkippedMove {
  readonly from: string;
  readonly to: string;
  /** The address at the target that holds an object. */
  readonly taken: string;
}

const skipped = new WeakMap<StateStore, SkippedMove[]>();

/**
 * Gives recorded objects the addresses `moved` blocks name, in order (so that chains of moves
 * end where the last one points), before anything is read or planned: the plan then finds each
 * object at its new address instead of destroying it and creating it again. A move whose `from`
 * holds nothing is done already (or never applied), as in Terraform; one whose `to` holds an
 * object too (an instance of a repeated block included) is not carried out, as Terraform leaves
 * it: the plan then says so in a warning and plans each address as the state has it. Only the
 * state held in memory changes; an apply writes it.
 */
export function carryOutMoves(moves: readonly Move[], state: StateStore): void {
  const done = carriedOut.get(state) ?? new Map<string, string>();
  carriedOut.set(state, done);
  const notDone = skipped.get(state) ?? [];
  skipped.set(state, notDone);
  /** The first target address that holds an object: the address itself, or any instance of the block it names. */
  const occupied = (targets: readonly string[]) =>
    targets.flatMap((target) => (state.get(target) ? [target] : parseInstanceAddress(target)?.key === undefined ? state.instancesOf(target) : []))[0];
  for (const move of moves) {
    if (isModulePath(move.from)) {
      const taken = carryOutModuleMove(move, state, done);
      if (taken !== undefined) notDone.push({ from: move.from, to: move.to, taken });
      continue;
    }
    const from = parseInstanceAddress(move.from)!;
    const to = parseInstanceAddress(move.to)!;
    const recorded = state.objects().filter((o) => (from.key === undefined ? parseInstanceAddress(o.address)?.block === from.block : o.address === move.from));
    if (recorded.length === 0) continue;
    const targetOf = (address: string): string => (from.key === undefined && to.key === undefined ? `${to.block}${address.slice(from.block.length)}` : move.to);
    const taken = occupied(recorded.map((o) => targetOf(o.address)));
    if (taken !== undefined) {
      notDone.push({ from: move.from, to: move.to, taken });
      continue;
    }
    if (from.key === undefined && to.key === undefined) {
      state.move(from.block, to.block);
    } else {
      // One instance (or a block of one object) to an instance: recorded anew at its new address.
      const [o] = recorded;
      const kind = resourceKind(o.type)!;
      state.put(move.to, kind, o.attributes, o.dependencies, o.provider, o.sensitive);
      state.remove(o.address);
    }
    noteMoves(done, recorded, targetOf);
  }
}

/** Every object recorded inside a module moved under the new module path, block by block; the address taken when the target holds objects. */
function carryOutModuleMove(move: Move, state: StateStore, done: Map<string, string>): string | undefined {
  const recorded = state.objects().filter((o) => isWithinModule(o.address, move.from));
  if (recorded.length === 0) return undefined;
  const targetOf = (address: string): string => `${move.to}${address.slice(move.from.length)}`;
  const taken = state.objects().find((o) => isWithinModule(o.address, move.to))?.address;
  if (taken !== undefined) return taken;
  for (const block of new Set(recorded.map((o) => parseInstanceAddress(o.address)!.block))) state.move(block, targetOf(block));
  noteMoves(done, recorded, targetOf);
  return undefined;
}

/** Records where each moved object started; a chain (a to b, then b to c) keeps the first address. */
function noteMoves(done: Map<string, string>, recorded: ReadonlyArray<{ readonly address: string }>, targetOf: (address: string) => string): void {
  for (const o of recorded) {
    const start = [...done].find(([, now]) => now === o.address)?.[0] ?? o.address;
    done.set(start, targetOf(o.address));
  }
}

/** The moves of this run not carried out, their target holding an object already. */
export function movesSkipped(state: StateStore): readonly SkippedMove[] {
  return skipped.get(state) ?? [];
}

/** The addresses the moves of this run gave objects, by the address each had before. */
export function movesCarriedOut(state: StateStore): ReadonlyMap<string, string> {
  return carriedOut.get(state) ?? new Map();
}
