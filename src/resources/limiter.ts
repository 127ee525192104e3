/**
 * At most `limit` tasks in flight, whoever starts them: several kinds of work (batched reads,
 * single reads, data sources) share one bound instead of each having its own. The bound is a
 * number, or a function read whenever a task starts or ends (a bound that follows the platform).
 */
export class Limiter {
  #running = 0;
  readonly #waiting: Array<() => void> = [];
  readonly #limit: number | (() => number);

  constructor(limit: number | (() => number)) {
    if (typeof limit === 'number' && !(limit >= 1)) throw new RangeError(`limit must be at least 1, got ${limit}`);
    this.#limit = limit;
  }

  /** Tasks allowed in flight now (at least one). */
  get limit(): number {
    return typeof this.#limit === 'number' ? this.#limit : Math.max(1, this.#limit());
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await task();
    } finally {
      this.#running--;
      // Places pass to the waiters at once, so the count never dips and overshoots; a bound that rose lets more go.
      while (this.#waiting.length > 0 && this.#running < this.limit) {
        this.#running++;
        this.#waiting.shift()!();
      }
    }
  }
}
