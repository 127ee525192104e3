import type { State } from '../resources/declaration';

export type StepAction = 'create' | 'update' | 'delete' | 'read';

export interface Step {
  done(value: State | null, note?: string): void;
  failed(): void;
}

/** Terraform's words for each action: as it starts, when it completes, when it fails. */
const WORDS: Record<StepAction, { start: string; done: string; failed: string }> = {
  create: { start: 'Creating...', done: 'Creation complete', failed: 'Creation failed' },
  update: { start: 'Modifying...', done: 'Modifications complete', failed: 'Modification failed' },
  delete: { start: 'Destroying...', done: 'Destruction complete', failed: 'Destruction failed' },
  read: { start: 'Reading...', done: 'Read complete', failed: 'Read failed' },
};

/** One line per object as it starts and as it ends, with the time it took (on stderr). */
export class Progress {
  constructor(private readonly write: (line: string) => void) {}

  start(address: string, action: StepAction, before?: State | null): Step {
    const words = WORDS[action];
    const started = performance.now();
    const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)}s`;
    this.write(`${address}: ${words.start}${idOf(before)}`);
    return {
      done: (value, note) => this.write(`${address}: ${words.done} after ${elapsed()}${idOf(value)}${note ? ` (${note})` : ''}`),
      failed: () => this.write(`${address}: ${words.failed} after ${elapsed()}`),
    };
  }
}

function idOf(s: State | null | undefined): string {
  return s && typeof s.id === 'string' ? ` [id=${s.id}]` : '';
}
