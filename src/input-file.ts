import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Why a file given to tenantform to read was not read; the caller names the option it came from. */
export class InputFileError extends Error {
  constructor(
    readonly code: 'not_a_regular_file' | 'too_large' | 'unreadable' | 'not_utf8',
    message: string,
  ) {
    super(message);
    this.name = 'InputFileError';
  }
}

const MiB = 1024 * 1024;

/**
 * The most any input file may hold. A synthesized configuration of 100,000 objects is about
 * 60 MiB; a JavaScript string cannot hold much more than 512 MiB, and failing there aborts the
 * process instead of naming the file.
 */
export const MAX_INPUT_BYTES = 256 * MiB;

/** What a path names when it is not a regular file, for messages: `a directory`, `a FIFO`, ... */
export function fileKind(stats: { isSymbolicLink(): boolean; isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  return stats.isSymbolicLink()
    ? 'a symbolic link'
    : stats.isDirectory()
      ? 'a directory'
      : stats.isFIFO()
        ? 'a FIFO'
        : stats.isSocket()
          ? 'a socket'
          : 'a device';
}

/**
 * Reads a file the user named (a configuration, a variable file, a saved plan, a state to push)
 * as UTF-8 text. Only a regular file is read, and only up to `maxBytes`: a FIFO, a device such as
 * /dev/zero or a file that keeps growing would otherwise block the run or exhaust its memory. The
 * file is opened without blocking and checked on the open descriptor, so what is checked is what
 * is read.
 */
export function readInputFile(path: string, maxBytes = MAX_INPUT_BYTES, encoding: 'utf8' | 'strict utf8' = 'utf8'): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new InputFileError('unreadable', (err as NodeJS.ErrnoException).code ?? (err as Error).message);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new InputFileError('not_a_regular_file', `it is ${fileKind(stats)}, not a regular file`);
    const tooLarge = () =>
      new InputFileError(
        'too_large',
        `it holds more than ${maxBytes % MiB === 0 ? `${maxBytes / MiB} MiB` : `${maxBytes} bytes`}, more than any input of tenantform holds`,
      );
    if (stats.size > maxBytes) throw tooLarge();
    // The size is a hint only (files under /proc say 0, a file may grow while read): read until the end, within the cap.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(stats.size - total, 64 * 1024), maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw tooLarge();
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    const bytes = Buffer.concat(chunks, total);
    const text = bytes.toString('utf8');
    if (encoding === 'strict utf8') refuseInvalidUtf8(bytes, text);
    return text;
  } catch (err) {
    if (err instanceof InputFileError) throw err;
    throw new InputFileError('unreadable', (err as NodeJS.ErrnoException).code ?? (err as Error).message);
  } finally {
    closeSync(fd);
  }
}

/**
 * Terraform reads configuration files as UTF-8 and refuses other bytes: decoding would turn
 * them into U+FFFD silently. Names the line of the first byte that is not UTF-8.
 */
function refuseInvalidUtf8(bytes: Buffer, text: string): void {
  const REPLACEMENT = '\uFFFD';
  for (let i = text.indexOf(REPLACEMENT); i !== -1; i = text.indexOf(REPLACEMENT, i + 1)) {
    const at = Buffer.byteLength(text.slice(0, i));
    // A U+FFFD written in the file is three bytes EF BF BD; anything else stood for bytes that are not UTF-8.
    if (bytes[at] === 0xef && bytes[at + 1] === 0xbf && bytes[at + 2] === 0xbd) continue;
    const line = text.slice(0, i).split('\n').length;
    throw new InputFileError('not_utf8', `line ${line} holds bytes that are not UTF-8 (byte 0x${bytes[at].toString(16)}): save the file as UTF-8`);
  }
}
