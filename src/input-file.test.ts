import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type InputFileError, readInputFile } from './input-file';

describe('readInputFile', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'tenantform-input-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const refusal = (path: string, maxBytes?: number) => {
    try {
      readInputFile(path, maxBytes);
    } catch (err) {
      return { code: (err as InputFileError).code, message: (err as Error).message };
    }
    throw new Error(`${path} was read`);
  };

  it('reads a regular file as UTF-8, whatever its size up to the cap', () => {
    const file = join(dir, 'vars.tfvars');
    writeFileSync(file, 'name = "Zürich"\n'.repeat(20_000));
    expect(readInputFile(file)).toBe('name = "Zürich"\n'.repeat(20_000));
    expect(readInputFile(file, 20_000 * 17)).toHaveLength(20_000 * 16);
  });

  it('refuses a FIFO without waiting for a writer, a device and a directory', () => {
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(fifo)).toEqual({ code: 'not_a_regular_file', message: 'it is a FIFO, not a regular file' });
    expect(refusal('/dev/zero')).toEqual({ code: 'not_a_regular_file', message: 'it is a device, not a regular file' });
    expect(refusal(dir)).toEqual({ code: 'not_a_regular_file', message: 'it is a directory, not a regular file' });
  });

  it('refuses a file past the cap, and names a missing one by its error code', () => {
    const file = join(dir, 'big.json');
    writeFileSync(file, 'x'.repeat(2048));
    expect(refusal(file, 1024)).toEqual({ code: 'too_large', message: 'it holds more than 1024 bytes, more than any input of tenantform holds' });
    expect(readInputFile(file, 2048)).toHaveLength(2048);
    expect(refusal(join(dir, 'missing.json'))).toEqual({ code: 'unreadable', message: 'ENOENT' });
  });

  it('stops reading a file that reports no size at the cap (as files under /proc do)', () => {
    expect(readInputFile('/proc/self/status').length).toBeGreaterThan(0);
    expect(refusal('/proc/self/status', 16).code).toBe('too_large');
  });
});
