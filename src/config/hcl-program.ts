/**
 * The HCL converter's program: `@cdktn/hcl2json`'s Go program compiled to WebAssembly, run here
 * through Go's own glue (`wasm_exec.js`, which defines `globalThis.Go`). Running it here rather
 * than through the library's wrapper lets a program that stops (a Go panic or fatal error, a
 * call that overflowed the stack half-way) be seen and replaced, where the wrapper waits forever
 * or answers "Go program has already exited" for the rest of the process.
 */
import * as nodeFs from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** The name of the program in the single executable's assets (scripts/release). */
export const HCL_PROGRAM_ASSET = 'hcl2json.wasm.gz';

/** Defined (as true) by the bundle of the single executable, where the program is an asset. */
declare const TENANTFORM_BUNDLED: true | undefined;

/** Where the Go program publishes its functions when it starts (the library's bridge name). */
const ROOT_GLOBAL = '__parse_terraform_config_wasm__';

/** The most of a program's own output kept: its first lines say why it stopped. */
const MAX_OUTPUT = 16 * 1024;

/** The part of WebAssembly's interface used here (the project's `lib` has no DOM types); modules and instances stay opaque. */
interface WebAssemblyApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<object>;
}
declare const WebAssembly: WebAssemblyApi;

/** Go's glue, as `wasm_exec.js` defines it. */
interface GoGlue {
  importObject: object;
  exit: (code: number) => void;
  exited: boolean;
  run(instance: object): Promise<void>;
}

/** A call found the program stopped: before it, or during it without an answer. */
export class ProgramStopped extends Error {
  constructor(
    readonly exitCode: number | undefined,
    /** The first line the program wrote ("fatal error: out of memory", "panic: ..."), if any. */
    readonly said: string | undefined,
  ) {
    super(`the converter's program stopped${exitCode === undefined ? '' : ` (exit code ${exitCode})`}${said ? `: ${said}` : ''}`);
  }
}

/**
 * The program running Go code now: its writes to stdout and stderr are its own output. Go code
 * run by the program's timers, outside any call, speaks for the program started last.
 */
let speaking: HclProgram | undefined;
let latest: HclProgram | undefined;

/**
 * Go's runtime writes through `globalThis.fs`. Its output (a panic's stack dump) is kept by the
 * program that wrote it, for the error that names why it stopped, instead of reaching the
 * terminal; everything else is Node's own file system.
 */
function installGoGlue(): new () => GoGlue {
  const goGlobals = globalThis as { fs?: unknown; Go?: new () => GoGlue };
  const writeSync = (fd: number, buffer: Uint8Array): number => {
    const program = speaking ?? latest;
    if ((fd === 1 || fd === 2) && program !== undefined) return program.heard(buffer);
    return nodeFs.writeSync(fd, buffer);
  };
  goGlobals.fs = Object.create(nodeFs, { writeSync: { value: writeSync } }) as unknown;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('@cdktn/hcl2json/wasm/wasm_exec.js');
  if (goGlobals.Go === undefined) throw new Error("@cdktn/hcl2json's wasm_exec.js defined no Go class");
  return goGlobals.Go;
}

/** Runs `run`, in which Go code runs, with `program`'s writes kept as its own. */
function speakingAs(program: HclProgram, run: () => void): void {
  const before = speaking;
  speaking = program;
  try {
    run();
  } finally {
    speaking = before;
  }
}

let compiled: Promise<{ module: object; Go: new () => GoGlue }> | undefined;

/** The program's bytes: an asset of the single executable, else a file of the installed package. */
function programBytes(): Uint8Array {
  if (typeof TENANTFORM_BUNDLED !== 'undefined') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return gunzipSync(Buffer.from((require('node:sea') as { getAsset(name: string): ArrayBuffer }).getAsset(HCL_PROGRAM_ASSET)));
  }
  return gunzipSync(nodeFs.readFileSync(join(dirname(require.resolve('@cdktn/hcl2json/package.json')), 'main.wasm.gz')));
}

/** Compiled once per process; each program is an instance of it with its own memory. */
function compiledProgram(): Promise<{ module: object; Go: new () => GoGlue }> {
  compiled ??= (async () => ({ Go: installGoGlue(), module: await WebAssembly.compile(programBytes()) }))().catch((err: unknown) => {
    compiled = undefined;
    throw err;
  });
  return compiled;
}

/** One running instance of the converter's program. */
export class HclProgram {
  #exitCode: number | undefined;
  /** Left half-way by an exception thrown inside it, or by a call it never answered. */
  #broken = false;
  #output = '';
  readonly #decoder = new TextDecoder();

  private constructor(
    private readonly go: GoGlue,
    private readonly root: Record<string, unknown>,
  ) {}

  /** Starts a program; rejects with V8's RangeError when its memory cannot be reserved. */
  static async start(): Promise<HclProgram> {
    const { module, Go } = await compiledProgram();
    const go = new Go();
    const instance = await WebAssembly.instantiate(module, go.importObject);
    const root: Record<string, unknown> = {};
    const program = new HclProgram(go, root);
    latest = program;
    go.exit = (code) => (program.#exitCode = code);
    (globalThis as Record<string, unknown>)[ROOT_GLOBAL] = root;
    // The program's main runs until it waits for calls; `run` settles only when it exits.
    speakingAs(program, () => void go.run(instance));
    return program;
  }

  /** Whether the program has exited (or was left half-way by an exception): no call can reach it. */
  get stopped(): boolean {
    return this.go.exited || this.#exitCode !== undefined || this.#broken;
  }

  /** Keeps what the program wrote, up to MAX_OUTPUT. */
  heard(buffer: Uint8Array): number {
    if (this.#output.length < MAX_OUTPUT) this.#output += this.#decoder.decode(buffer).slice(0, MAX_OUTPUT - this.#output.length);
    return buffer.length;
  }

  /**
   * Calls one of the program's functions, which answers through a callback before it returns.
   * A program that stopped, before or during the call, is a ProgramStopped; an exception thrown
   * from inside it (V8's stack overflow) leaves it half-way, so it takes no further call.
   */
  call(name: string, ...args: unknown[]): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.#stoppedError());
    const fn = this.root[name];
    if (typeof fn !== 'function') return Promise.reject(new Error(`the converter's program has no function ${name}`));
    let answer: { error: unknown; value: unknown } | undefined;
    try {
      speakingAs(this, () => fn(...args, (error: unknown, value: unknown) => (answer = { error, value })));
    } catch (err) {
      this.#broken = true;
      return Promise.reject(err);
    }
    if (answer === undefined) {
      this.#broken = true;
      return Promise.reject(this.#stoppedError());
    }
    return answer.error ? Promise.reject(new Error(String(answer.error))) : Promise.resolve(answer.value);
  }

  #stoppedError(): ProgramStopped {
    const said = this.#output
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '');
    return new ProgramStopped(this.#exitCode, said);
  }
}
