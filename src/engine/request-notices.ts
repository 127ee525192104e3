import type { ClientEvent } from '../api';

/** Where the notices go: the process's stderr, whose `isTTY` says whether someone watches. */
export interface NoticeStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** The least time between two notices of one sort: a waiting run is never silent, nor noisy. */
const RATE_LIMIT_EVERY_MS = 10_000;
const RETRY_EVERY_MS = 2_000;

const last = { rateLimit: -Infinity, retry: -Infinity };

/** Why a request failed, in words: the platform's status, else the client's code (`connection_refused`). */
function reasonOf(e: ClientEvent): string {
  if (e.status !== undefined) return `status ${e.status}`;
  return e.code?.replaceAll('_', ' ') ?? 'no answer';
}

/**
 * Says on stderr why a run waits: the platform's rate limit always (a run may wait there long);
 * a retried request on a terminal, with the time its retries have left, as it happens; the log
 * (`TF_LOG`) records every retry in any case.
 */
export function requestNotice(e: ClientEvent, stream: NoticeStream, now = performance.now()): void {
  if (e.retryInMs === undefined) return;
  if (e.status === 429) {
    if (now - last.rateLimit < RATE_LIMIT_EVERY_MS) return;
    last.rateLimit = now;
    stream.write(
      `Waiting for the platform's rate limit: ${Math.max(1, Math.round(e.retryInMs / 1000))} s (the requests that follow are spread to stay under it).\n`,
    );
    return;
  }
  if (!stream.isTTY || now - last.retry < RETRY_EVERY_MS) return;
  last.retry = now;
  const left = e.retryLeftMs === undefined ? '' : `, ${Math.round(e.retryLeftMs / 1000)} s left`;
  stream.write(`Retrying ${e.method} ${e.endpoint} (${reasonOf(e)}) in ${Math.max(1, Math.round(e.retryInMs / 1000))} s${left}.\n`);
}
