import { closeSync, openSync, writeSync } from 'node:fs';
import { devNull } from 'node:os';
import type { CommandModule } from 'yargs';
import { cliErrors } from '../errors';

interface Args {
  port: number;
  data?: string;
  seed: number;
  quiet: boolean;
  versions?: 'counters' | 'timestamps';
  account: 'root' | 'msp';
}

/** `tenantform emulator`: the platform's local stand-in, for demos, tests and CI. */
export const emulatorCommand: CommandModule<object, Args> = {
  command: 'emulator',
  describe: 'Run a local stand-in of the platform on loopback (prints four `export` lines, then logs to stderr)',
  builder: (y) =>
    y
      .option('port', { type: 'number', default: 0, describe: 'Port to listen on (0 picks a free port)' })
      .option('data', { type: 'string', describe: 'Keep the world in this file between runs (written atomically)' })
      .option('seed', { type: 'number', default: 1, describe: 'Seed for ids, secrets and injected faults (runs are repeatable)' })
      .option('quiet', { type: 'boolean', default: false, describe: 'Do not log requests' })
      .option('versions', {
        choices: ['counters', 'timestamps'] as const,
        describe:
          "Objects' versions: counters from 1, or millisecond timestamps of the last change, as the live platform answers (the default with --account msp)",
      })
      .option('account', {
        choices: ['root', 'msp'] as const,
        default: 'msp' as const,
        describe:
          "Whose API client the exported credentials are: an MSP's on its partner tenant, whose customers hold console-made users and alerts, or the platform root's",
      })
      .example('eval "$(tenantform emulator --port 8080 &)"', 'Start it and export its address and credentials')
      .example('tenantform emulator --data world.json', 'Keep the world between runs'),
  handler: async (args) => {
    // Loaded here: every other command starts without the emulator.
    const { emulatorEnvLines, startEmulator } = await import('../../emulator');
    const emulator = await startEmulator({
      port: args.port,
      dataFile: args.data,
      seed: args.seed,
      versions: args.versions,
      account: args.account,
      log: args.quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
    }).catch((err: unknown) => {
      throw (err as NodeJS.ErrnoException).code === 'EADDRINUSE' ? cliErrors.portInUse(args.port) : err;
    });
    const exports = `${emulatorEnvLines(emulator).join('\n')}\n`;
    if (process.stdout.isTTY) process.stdout.write(exports);
    else {
      // stdout carries the export lines only: closing it once they are written lets
      // `eval "$(tenantform emulator &)"` go on while the emulator runs.
      writeSync(1, exports);
      process.stdout.on('error', () => undefined);
      closeSync(1);
      // fd 1 must not stay free: the next connection accepted would take it, and libuv never
      // closes descriptors 0 to 2, so that client would never learn its connection was dropped.
      for (let fd = openSync(devNull, 'w'); fd < 1; fd = openSync(devNull, 'w'));
    }
    process.stderr.write(`Emulator listening on ${emulator.url} (Ctrl-C to stop)\n`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await emulator.close();
  },
};
