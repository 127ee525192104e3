import { folderErrors } from './errors';
import { HclProgram, ProgramStopped } from './hcl-program';

/** The HCL-to-JSON converter (`@cdktn/hcl2json`): a Go program compiled to WebAssembly. */
export interface HclConverter {
  parse(filename: string, contents: string): Promise<Record<string, unknown>>;
}

/** V8's words when it cannot reserve a WebAssembly memory. */
const isWasmOutOfMemory = (err: unknown): err is RangeError => err instanceof RangeError && /WebAssembly\.\w+\(\): Out of memory/.test(err.message);

/**
 * Converts with one program at a time. A program that stopped is replaced by a fresh one, and the
 * file it stopped on is given once more to the new program: a second stop on the same file is the
 * error, naming the file and what the program said.
 */
export class ProgramConverter implements HclConverter {
  #program: Promise<HclProgram> | undefined;

  constructor(private readonly start: () => Promise<HclProgram> = () => HclProgram.start()) {}

  /** The running program, started on first use. */
  program(): Promise<HclProgram> {
    this.#program ??= this.#started();
    return this.#program;
  }

  async parse(filename: string, contents: string): Promise<Record<string, unknown>> {
    for (let attempt = 1; ; attempt++) {
      const program = await this.program();
      try {
        return JSON.parse(String(await program.call('parse', filename, contents))) as Record<string, unknown>;
      } catch (err) {
        // Stopped, or left half-way by an exception (the stack overflow the caller reports): the next call gets a new program.
        if (program.stopped) this.#program = undefined;
        if (!(err instanceof ProgramStopped)) throw err;
        if (attempt === 2) throw folderErrors.converterStopped(filename, err.message);
      }
    }
  }

  async #started(): Promise<HclProgram> {
    try {
      return await this.start();
    } catch (err) {
      this.#program = undefined;
      if (isWasmOutOfMemory(err)) throw folderErrors.converterOutOfMemory(err.message);
      throw err;
    }
  }
}

let shared: ProgramConverter | undefined;

/** The process's converter; its program starts on the first `.tf` file (JSON stacks never need it). */
export function hclConverter(): Promise<HclConverter> {
  shared ??= new ProgramConverter();
  return Promise.resolve(shared);
}
