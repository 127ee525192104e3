import type { ResourceKind, State } from '../resources/declaration';
import { parseInstanceAddress } from '../state/addresses';

/** Identities of the objects of `kind` recorded for addresses other than `except`. */
export function heldIdentities(kind: ResourceKind, objects: ReadonlyMap<string, State | null>, except: string): Set<string> {
  const held = new Set<string>();
  for (const [address, value] of objects) {
    if (address === except || !value) continue;
    const parsed = parseInstanceAddress(address);
    if (parsed?.mode === 'managed' && parsed.type === kind.type) held.add(kind.identity(value));
  }
  return held;
}

/**
 * Creates of one kind run side by side (shared); looking for the object of a lost answer runs
 * alone (exclusive), once every create already sent has been answered and recorded, so that
 * an object another create just made is never taken for the lost one.
 */
export class CreateGate {
  private shared = 0;
  private exclusive: Promise<void> | undefined;
  private drained: Array<() => void> = [];

  async withShared<T>(work: () => Promise<T>): Promise<T> {
    while (this.exclusive) await this.exclusive;
    this.shared++;
    try {
      return await work();
    } finally {
      this.shared--;
      if (this.shared === 0) for (const wake of this.drained.splice(0)) wake();
    }
  }

  async withExclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.exclusive) await this.exclusive;
    let release!: () => void;
    this.exclusive = new Promise<void>((resolve) => (release = resolve));
    try {
      if (this.shared > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
      return await work();
    } finally {
      this.exclusive = undefined;
      release();
    }
  }
}
