import { TenantformError } from '../errors';
import { ProgramConverter } from './hcl-converter';
import { HclProgram, ProgramStopped } from './hcl-program';

/**
 * A real program made to stop: its `parse` given no text indexes past its arguments, a Go panic
 * that ends the program (exit code 2), as any fatal error of its runtime would.
 */
async function stoppedProgram(): Promise<HclProgram> {
  const program = await HclProgram.start();
  await program.call('parse', 'main.tf').catch(() => undefined);
  return program;
}

const DEEP = `locals {\n  x = ${'['.repeat(20_000)}1${']'.repeat(20_000)}\n}\n`;

describe("the HCL converter's program", () => {
  it('converts a file', async () => {
    const program = await HclProgram.start();
    expect(JSON.parse(String(await program.call('parse', 'main.tf', 'variable "x" {}\n')))).toEqual({ variable: { x: [{}] } });
  });

  it('that stops during a call rejects the call with its exit code and the first line it wrote, and every call after it', async () => {
    const program = await HclProgram.start();
    const stop = program.call('parse', 'main.tf');
    await expect(stop).rejects.toBeInstanceOf(ProgramStopped);
    await expect(stop).rejects.toThrow("the converter's program stopped (exit code 2): panic: runtime error: index out of range [1] with length 1");
    expect(program.stopped).toBe(true);
    await expect(program.call('parse', 'main.tf', 'variable "x" {}\n')).rejects.toThrow(/exit code 2/);
  });
});

describe('the HCL converter', () => {
  it('replaces a program that stopped, and converts the file with the new one', async () => {
    const converter = new ProgramConverter();
    const first = await converter.program();
    await first.call('parse', 'main.tf').catch(() => undefined);
    expect(first.stopped).toBe(true);
    expect(await converter.parse('main.tf', 'variable "x" {}\n')).toEqual({ variable: { x: [{}] } });
    expect(await converter.program()).not.toBe(first);
  });

  it('gives the file a program stopped on to a new program, once', async () => {
    const started: HclProgram[] = [];
    const converter = new ProgramConverter(async () => {
      const program = started.length === 0 ? await stoppedProgram() : await HclProgram.start();
      started.push(program);
      return program;
    });
    expect(await converter.parse('main.tf', 'variable "x" {}\n')).toEqual({ variable: { x: [{}] } });
    expect(started).toHaveLength(2);
  });

  it('refuses a file the program stops on twice, naming the file and what the program said', async () => {
    const converter = new ProgramConverter(stoppedProgram);
    const refused = converter.parse('main.tf', 'variable "x" {}\n');
    await expect(refused).rejects.toBeInstanceOf(TenantformError);
    await expect(refused).rejects.toThrow(
      "main.tf: the converter's program stopped (exit code 2): panic: runtime error: index out of range [1] with length 1, twice, on this file.",
    );
  });

  it('after a file nested deeper than the stack, converts the next file in a new program', async () => {
    const converter = new ProgramConverter();
    const first = await converter.program();
    await expect(converter.parse('deep.tf', DEEP)).rejects.toThrow(/call stack/);
    expect(first.stopped).toBe(true);
    expect(await converter.parse('main.tf', 'variable "x" {}\n')).toEqual({ variable: { x: [{}] } });
    expect(await converter.program()).not.toBe(first);
  });
});
