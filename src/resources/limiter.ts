/**
 * At most `limit` tasks in flight, whoever starts them: several kinds of work (batched reads,
 * single reads, data sources) share one bound instead of each having its own.
 */
export class Limiter {
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`limit must be at least 1, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so the count never dips and overshoots.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
