/**
 * The `tenantform` command run in the test's own process: `main` from the sources, with what a
 * command takes from its process (environment, working directory, standard output and error,
 * exit code) given to it for the run and taken back after, so that a test pays neither Node's
 * start nor the loading of the command's modules for every command it runs.
 *
 * What only a process shows stays with the process runner (test/cli/helpers.ts `start`): a
 * signal, standard input, the launcher, two commands at once, a crash.
 */
import { main } from '../../src/cli/main';

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `process.exit` called by the command: the run ends there, as its process would. */
class ExitCalled extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

let running: string[] | undefined;

type Write = NodeJS.WriteStream['write'];
type Log = (...args: unknown[]) => void;

function collector(into: string[]): Write {
  return (chunk: string | Uint8Array, encoding?: unknown, done?: unknown) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = typeof encoding === 'function' ? encoding : done;
    if (typeof callback === 'function') process.nextTick(callback);
    return true;
  };
}

/** Runs `tenantform ARGS` in `dir` with exactly `env` as its environment. */
export async function runInProcess(dir: string, env: NodeJS.ProcessEnv, args: readonly string[]): Promise<CommandResult> {
  if (running) {
    throw new Error(
      `\`tenantform ${args.join(' ')}\` was started while \`tenantform ${running.join(' ')}\` runs in this process: ` +
        'commands that run at the same time are started as processes (start in test/cli/helpers.ts).',
    );
  }
  running = [...args];
  const stdout: string[] = [];
  const stderr: string[] = [];
  const saved = {
    env: process.env,
    cwd: process.cwd(),
    stdoutWrite: process.stdout.write,
    stderrWrite: process.stderr.write,
    exit: process.exit,
    exitCode: Object.getOwnPropertyDescriptor(process, 'exitCode'),
    console: { log: console.log, info: console.info, warn: console.warn, error: console.error },
  };
  let exitCode: number | undefined;
  const toOut: Log = (...parts) => void stdout.push(`${parts.map(String).join(' ')}\n`);
  const toErr: Log = (...parts) => void stderr.push(`${parts.map(String).join(' ')}\n`);
  try {
    process.env = { ...env };
    process.chdir(dir);
    process.stdout.write = collector(stdout);
    process.stderr.write = collector(stderr);
    Object.defineProperty(process, 'exitCode', {
      configurable: true,
      get: () => exitCode,
      set: (code: number | undefined) => void (exitCode = code),
    });
    process.exit = (code?: number) => {
      throw new ExitCalled(code ?? exitCode ?? 0);
    };
    Object.assign(console, { log: toOut, info: toOut, warn: toErr, error: toErr });
    await main([...args]);
  } catch (err) {
    if (err instanceof ExitCalled) exitCode = err.code;
    else {
      // What Node prints of an error nothing caught, and its exit code.
      stderr.push(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      exitCode = 1;
    }
  } finally {
    Object.assign(console, saved.console);
    process.exit = saved.exit;
    if (saved.exitCode) Object.defineProperty(process, 'exitCode', saved.exitCode);
    else delete (process as { exitCode?: number }).exitCode;
    process.stderr.write = saved.stderrWrite;
    process.stdout.write = saved.stdoutWrite;
    process.chdir(saved.cwd);
    process.env = saved.env;
    running = undefined;
  }
  return { code: exitCode ?? 0, signal: null, stdout: stdout.join(''), stderr: stderr.join('') };
}
