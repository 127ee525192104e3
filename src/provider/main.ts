/**
 * The provider executable (what the mirror's launcher runs). Start-up time counts: Terraform
 * launches the provider several times per command, so modules load only once they are needed
 * and the kinds load after the handshake line, while Terraform connects.
 */
import * as nodeModule from 'node:module';
import { launchProblem } from './handshake';
import { configureProviderLogging } from '../logging';

// Node's own compile cache, where the running Node has it (22.1 and later): the modules that
// load from here on are compiled once, not at every launch.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

function log(line: string): void {
  process.stderr.write(`[tenantform provider] ${line}\n`);
}

async function run(): Promise<void> {
  const problem = launchProblem(process.env);
  if (problem) {
    process.stderr.write(problem);
    process.exit(1);
  }
  configureProviderLogging(process.env);
  // stdout carries the handshake line and nothing else.
  const toStderr = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  // Ctrl-C reaches the whole process group; Terraform follows it with StopProvider.
  process.on('SIGINT', () => undefined);
  // Taken first: the parent is the Terraform that launched us only until it is gone.
  const parent = process.ppid;

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { servePlugin } = require('./handshake') as typeof import('./handshake');
  let provider: import('./server').TenantformProvider | undefined;
  /** The resource modules (and zod under them) load after the handshake line, while Terraform connects. */
  const loadProvider = () => {
    if (!provider) {
      // Terraform launches the provider in its working directory, again for each command: each launch
      // starts below the rate limits the launches before it met.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const memory = require('../api/limit-memory') as typeof import('../api/limit-memory');
      memory.keepLimitsIn(memory.limitMemoryFile(process.cwd()), {
        onRecall: (dataCenter, perSecond) => log(`starting below the rate limit an earlier launch met at ${dataCenter}: ${perSecond} requests a second`),
      });
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { TenantformProvider } = require('./server') as typeof import('./server');
      provider = new TenantformProvider({
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        kinds: () => (require('../resources/registry') as typeof import('../resources/registry')).KINDS,
        log,
      });
      provider.kinds();
    }
    return provider;
  };

  let plugin: import('./handshake').RunningPlugin | undefined;
  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    await Promise.race([Promise.all([plugin?.stop(), provider?.close()]), new Promise((r) => setTimeout(r, 300))]);
    process.exit(code);
  };
  process.on('SIGTERM', () => void exit(0));
  plugin = await servePlugin({
    env: process.env,
    handlers: () => loadProvider().handlers(),
    onListening: (line) => process.stdout.write(line),
    onShutdown: () => void exit(0),
    log,
  });
  setImmediate(loadProvider);
  watchParent(parent, () => {
    log('Terraform is gone; exiting');
    void exit(0);
  });
}

/** An orphaned provider exits: Terraform killed hard never sends Shutdown. */
function watchParent(parent: number, onGone: () => void): void {
  const timer = setInterval(() => {
    let alive = process.ppid === parent;
    if (alive) {
      try {
        process.kill(parent, 0);
      } catch {
        alive = false;
      }
    }
    if (!alive) {
      clearInterval(timer);
      onGone();
    }
  }, 1000);
  timer.unref();
}

run().catch((err: unknown) => {
  log(`could not start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exit(1);
});
