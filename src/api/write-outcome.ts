/**
 * Whether a write may have taken effect although no answer said so. A write whose answer was
 * lost (the connection dropped after the request went out, a timeout, a 5xx from something in
 * front of the platform) and that was then repeated may meet its own effect: a repeated PUT
 * carrying a version answers 409 because the first one was applied. The caller of a group of
 * requests (one resource operation) asks, after a failure, whether any write in it had such an
 * unknown outcome, and then reads the object instead of reporting a conflict.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Outcome {
  uncertain: boolean;
}

const current = new AsyncLocalStorage<Outcome>();

/** The result of `fn`, or its error, with whether any write made inside it had its answer lost. */
export async function observeWrites<T>(
  fn: () => Promise<T>,
): Promise<{ ok: true; value: T; uncertain: boolean } | { ok: false; error: unknown; uncertain: boolean }> {
  const outcome: Outcome = { uncertain: false };
  try {
    const value = await current.run(outcome, fn);
    return { ok: true, value, uncertain: outcome.uncertain };
  } catch (error) {
    return { ok: false, error, uncertain: outcome.uncertain };
  }
}

/** Called by the retry loop when a write's answer was lost: the platform may have applied it. */
export function noteUncertainWrite(): void {
  const outcome = current.getStore();
  if (outcome) outcome.uncertain = true;
}
