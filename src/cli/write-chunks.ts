import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * Writes text chunk by chunk, waiting whenever the stream's buffer is full: a long plan goes
 * out as it is rendered, and never more than one buffer of it waits in memory.
 */
export async function writeChunks(stream: Writable, chunks: Iterable<string>, transform: (chunk: string) => string = (c) => c): Promise<void> {
  for (const chunk of chunks) {
    if (chunk.length > 0 && !stream.write(transform(chunk))) await once(stream, 'drain');
  }
}
