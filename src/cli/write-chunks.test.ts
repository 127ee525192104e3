import { Writable } from 'node:stream';
import { writeChunks } from './write-chunks';

describe('writing text in chunks', () => {
  it('renders no further than the reader allows, and writes every chunk in order, transformed', async () => {
    const received: string[] = [];
    let rendered = 0;
    let mostAhead = 0;
    // A reader that takes a chunk per turn of the event loop, with room for 32 bytes.
    const reader = new Writable({
      highWaterMark: 32,
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk.toString());
        setImmediate(done);
      },
    });
    const chunks = function* () {
      for (let i = 0; i < 100; i++) {
        rendered++;
        mostAhead = Math.max(mostAhead, rendered - received.length);
        yield `line ${i} secret\n`;
      }
    };
    await writeChunks(reader, chunks(), (c) => c.replace('secret', '(sensitive value)'));
    expect(received.join('').split('\n').filter(Boolean)).toEqual(Array.from({ length: 100 }, (_, i) => `line ${i} (sensitive value)`));
    // Each chunk fills the buffer: rendering waits for the reader instead of running ahead of it.
    expect(mostAhead).toBeLessThanOrEqual(2);
  });
});
