import type { PlatformClient } from '../api';
import { withReadCache } from '../api/read-cache';
import type { OperationContext, State } from '../resources/declaration';
import { Limiter } from '../resources/limiter';
import type { OperationResult } from '../resources/operations';
import { readInBatches, type ReadRequest } from '../resources/read-batches';

interface Waiting {
  readonly request: ReadRequest;
  readonly ctx: OperationContext;
  readonly resolve: (result: OperationResult<State | null>) => void;
}

/**
 * Terraform asks for one object per `ReadResource`, several at a time. The calls that arrive
 * within a short window are read together, in the batch reads of the kinds (as a data loader
 * gathers its keys), and the answers of a refresh are shared until something is written: a
 * tenant's applications read for one binding answer the next binding too.
 */
export class ReadCoalescer {
  #waiting: Waiting[] = [];
  #timer: NodeJS.Timeout | undefined;
  #shared: { client: PlatformClient; reads: PlatformClient } | undefined;
  readonly #limiter: Limiter;

  constructor(
    /** How long the first call of a gathering waits for others. */
    readonly windowMs = 5,
    parallelism = 10,
  ) {
    this.#limiter = new Limiter(parallelism);
  }

  read(ctx: OperationContext, request: ReadRequest): Promise<OperationResult<State | null>> {
    return new Promise((resolve) => {
      this.#waiting.push({ request, ctx, resolve });
      if (this.#timer === undefined) this.#timer = setTimeout(() => void this.#flush(), this.windowMs);
    });
  }

  /** The client through which reads share their answers (data sources use it too). */
  reads(client: PlatformClient): PlatformClient {
    if (this.#shared?.client !== client) this.#shared = { client, reads: withReadCache(client) };
    return this.#shared.reads;
  }

  /** Something is being written: answers read so far may be outdated. */
  forget(): void {
    this.#shared = undefined;
  }

  async #flush(): Promise<void> {
    this.#timer = undefined;
    const gathered = this.#waiting;
    this.#waiting = [];
    // One gathering normally has one client; a reconfiguration in between splits it.
    const byClient = new Map<PlatformClient, Waiting[]>();
    for (const w of gathered) byClient.set(w.ctx.client, [...(byClient.get(w.ctx.client) ?? []), w]);
    await Promise.all(
      [...byClient].map(async ([client, group]) => {
        const ctx: OperationContext = { client: this.reads(client), signal: group[0].ctx.signal };
        const results = await readInBatches(
          group.map((w) => w.request),
          ctx,
          this.#limiter,
        );
        group.forEach((w, i) => w.resolve(results[i]));
      }),
    );
  }
}
