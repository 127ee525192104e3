import { folderErrors } from './errors';

/** The HCL-to-JSON converter (`@cdktn/hcl2json`): a Go program compiled to WebAssembly. */
export interface HclConverter {
  parse(filename: string, contents: string): Promise<Record<string, unknown>>;
}

let loading: Promise<HclConverter> | undefined;

/**
 * The converter, loaded on first use: it starts a WebAssembly program that JSON stacks never
 * need. A program that cannot start is an error naming the likely cause, not a crash.
 */
export function hclConverter(): Promise<HclConverter> {
  loading ??= load();
  return loading;
}

/** V8's words when it cannot reserve a WebAssembly memory. */
const isWasmOutOfMemory = (err: unknown): err is RangeError => err instanceof RangeError && /WebAssembly\.\w+\(\): Out of memory/.test(err.message);

/** Where the library publishes its program's functions, once the program runs. */
const PROGRAM_GLOBAL = '__parse_terraform_config_wasm__';

/** Settles when the library publishes its program: the moment its calls stop waiting. */
function whenProgramRuns(): Promise<void> {
  if (Object.hasOwn(globalThis, PROGRAM_GLOBAL)) return Promise.resolve();
  return new Promise((resolve) => {
    Object.defineProperty(globalThis, PROGRAM_GLOBAL, {
      configurable: true,
      set(value: unknown) {
        Object.defineProperty(globalThis, PROGRAM_GLOBAL, { value, writable: true, configurable: true, enumerable: true });
        resolve();
      },
    });
  });
}

/**
 * The library starts its program when it is imported. When the start fails it leaves the error as
 * an unhandled rejection (which would end the process with a stack trace), and each call made
 * before or after waits for the program forever, keeping the process alive. So no call is made
 * until the program runs, and a failed start is taken from that rejection.
 */
async function load(): Promise<HclConverter> {
  let startFailed: (err: unknown) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => (startFailed = reject));
  const onUnhandledRejection = (reason: unknown): void => {
    if (!isWasmOutOfMemory(reason)) throw reason; // not the converter's: ends the process as Node would without this listener
    startFailed(reason);
  };
  const runs = whenProgramRuns();
  process.on('unhandledRejection', onUnhandledRejection);
  try {
    const library = await import('@cdktn/hcl2json');
    await Promise.race([runs, failure]);
    return library;
  } catch (err) {
    if (isWasmOutOfMemory(err)) throw folderErrors.converterOutOfMemory(err.message);
    throw err;
  } finally {
    process.off('unhandledRejection', onUnhandledRejection);
  }
}
