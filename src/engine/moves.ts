import type { Move } from '../config/moves';
import { reconcilerErrors } from '../errors';
import { resourceKind } from '../resources/registry';
import { parseInstanceAddress } from '../state/addresses';
import type { StateStore } from '../state/state';

/** The moves carried out on a state in this run: each object's address before and after. */
const carriedOut = new WeakMap<StateStore, Map<string, string>>();

/**
 * Gives recorded objects the addresses `moved` blocks name, in order (so that chains of moves
 * end where the last one points), before anything is read or planned: the plan then finds each
 * object at its new address instead of destroying it and creating it again. A move whose `from`
 * holds nothing is done already (or never applied), as in Terraform; one whose `to` holds an
 * object too is refused before anything is read. Only the state held in memory changes; an
 * apply writes it.
 */
export function carryOutMoves(moves: readonly Move[], state: StateStore): void {
  const done = carriedOut.get(state) ?? new Map<string, string>();
  carriedOut.set(state, done);
  for (const move of moves) {
    const from = parseInstanceAddress(move.from)!;
    const to = parseInstanceAddress(move.to)!;
    const recorded = state.objects().filter((o) => (from.key === undefined ? parseInstanceAddress(o.address)?.block === from.block : o.address === move.from));
    if (recorded.length === 0) continue;
    const targetOf = (address: string): string => (from.key === undefined && to.key === undefined ? `${to.block}${address.slice(from.block.length)}` : move.to);
    const taken = recorded.map((o) => targetOf(o.address)).find((target) => state.get(target) !== undefined);
    if (taken !== undefined) throw reconcilerErrors.moveTargetExists(move.from, taken);
    if (from.key === undefined && to.key === undefined) {
      state.move(from.block, to.block);
    } else {
      // One instance (or a block of one object) to an instance: recorded anew at its new address.
      const [o] = recorded;
      const kind = resourceKind(o.type)!;
      state.put(move.to, kind, o.attributes, o.dependencies, o.provider, o.sensitive);
      state.remove(o.address);
    }
    for (const o of recorded) {
      const target = targetOf(o.address);
      // A chain (a to b, then b to c) records where each object started.
      const start = [...done].find(([, now]) => now === o.address)?.[0] ?? o.address;
      done.set(start, target);
    }
  }
}

/** The addresses the moves of this run gave objects, by the address each had before. */
export function movesCarriedOut(state: StateStore): ReadonlyMap<string, string> {
  return carriedOut.get(state) ?? new Map();
}
