/**
 * What a plan or drift check shows while it reads the platform (on stderr, so that stdout keeps
 * only the plan). On a terminal, one line counting the objects read of the total, redrawn in
 * place and cleared at the end. Elsewhere (CI logs), Terraform's habit: a line as the phase
 * starts, "Still reading... [10s elapsed]" every ten seconds, and a line when it is done.
 */

export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export const STILL_READING_INTERVAL_MS = 10_000;

/** Go's duration rounded to seconds, as Terraform prints it: `10s`, `1m30s`. */
export function elapsedText(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${seconds % 60}s`;
}

function objects(n: number): string {
  return `${n} ${n === 1 ? 'object' : 'objects'}`;
}

export class ReadProgress {
  private read = 0;
  private readonly started = Date.now();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly stream: ProgressStream,
    private readonly total: number,
    private readonly intervalMs = STILL_READING_INTERVAL_MS,
  ) {}

  start(): this {
    if (this.stream.isTTY) this.draw();
    else {
      this.stream.write(`Reading ${objects(this.total)} from the platform...\n`);
      this.timer = setInterval(() => this.stillReading(), this.intervalMs);
      this.timer.unref();
    }
    return this;
  }

  /** One more object read. */
  readonly objectRead = (): void => {
    this.read++;
    if (this.stream.isTTY) this.draw();
  };

  finish(): void {
    clearInterval(this.timer);
    if (this.stream.isTTY) this.stream.write('\r\x1b[2K');
    else this.stream.write(`Read ${objects(this.read)} in ${((Date.now() - this.started) / 1000).toFixed(1)}s.\n`);
  }

  private draw(): void {
    this.stream.write(`\r\x1b[2KReading the platform: ${this.read} of ${objects(this.total)} read`);
  }

  private stillReading(): void {
    this.stream.write(`Still reading... [${elapsedText(Date.now() - this.started)} elapsed] (${this.read} of ${objects(this.total)} read)\n`);
  }
}

/** Runs `work` (which reads `total` objects) with progress on stderr; nothing shown when there is nothing to read. */
export async function withReadProgress<T>(total: number, work: (objectRead?: () => void) => Promise<T>): Promise<T> {
  if (total === 0) return work();
  const progress = new ReadProgress(process.stderr, total).start();
  try {
    return await work(progress.objectRead);
  } finally {
    progress.finish();
  }
}
