import type { StateDocument } from '../state/model';

/**
 * Whether `state push` may replace `current` with `pushed`, as Terraform decides: not a
 * state of another lineage, not an older serial, not a different state with the same serial,
 * unless forced. A forced push still gets a serial above the current one, so that every
 * reader sees it as the newest. Returns the document to write, or why not.
 */
export function checkPush(current: StateDocument | undefined, pushed: StateDocument, force: boolean): { write: StateDocument } | { refused: string } {
  if (!current) return { write: pushed };
  if (!force) {
    if (current.lineage !== pushed.lineage) {
      return { refused: `the pushed state has lineage ${pushed.lineage}, the backend's state ${current.lineage}: they are different states.` };
    }
    if (pushed.serial < current.serial) {
      return { refused: `the pushed state has serial ${pushed.serial}, older than the backend's ${current.serial}: it would undo later changes.` };
    }
    if (pushed.serial === current.serial && JSON.stringify(strip(pushed)) !== JSON.stringify(strip(current))) {
      return { refused: `the pushed state differs from the backend's with the same serial ${pushed.serial}.` };
    }
    return { write: pushed };
  }
  return { write: { ...pushed, serial: Math.max(pushed.serial, current.serial + 1) } };
}

/** The parts that say what a state holds (Terraform's own rewrite may reorder or drop the rest). */
function strip(doc: StateDocument): unknown {
  return { resources: doc.resources, outputs: doc.outputs };
}
