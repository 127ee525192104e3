/** Moments the emulator records, for tests that must act while a request is in flight. */
import { arrivalChannel, exchangeChannel, type Arrival, type Exchange } from '../../src/emulator';

/**
 * Acts on a moment the emulator records, never on a timer: when the `nth` request that `matches`
 * has arrived (`'arrival'`, before its latency and handling) or has been handled and is about to
 * be answered (`'answer'`). Returns a function that stops watching.
 */
export function onRequest(moment: 'arrival' | 'answer', matches: (r: Arrival) => boolean, nth: number, act: () => void): () => void {
  const channel = moment === 'arrival' ? arrivalChannel : exchangeChannel;
  let seen = 0;
  const watch = (message: unknown) => {
    if (matches(message as Arrival | Exchange) && ++seen === nth) act();
  };
  channel.subscribe(watch);
  return () => channel.unsubscribe(watch);
}
