import { log } from '../logging';
import type { StateBackend } from './types';

/**
 * The backend with its operations in the debug log (`TF_LOG`): reads and writes of the state
 * with their size and duration, locks taken, refused and released. The location never holds a
 * password; the state's text is never written to the log.
 */
export function logged(backend: StateBackend): StateBackend {
  const where = { backend: backend.type, location: backend.location };
  const timed = async <T>(what: string, run: () => Promise<T>, fields: (result: T) => Record<string, string | number | undefined>): Promise<T> => {
    const started = Date.now();
    try {
      const result = await run();
      log('debug', what, { ...where, ...fields(result), ms: Date.now() - started });
      return result;
    } catch (err) {
      log('warn', `${what} failed`, { ...where, ms: Date.now() - started, reason: (err as Error).name });
      throw err;
    }
  };
  const overrides: Partial<StateBackend> = {
    read: () =>
      timed(
        'state read',
        () => backend.read(),
        (text) => ({ bytes: text === undefined ? 0 : Buffer.byteLength(text) }),
      ),
    write: (text) =>
      timed(
        'state written',
        () => backend.write(text),
        () => ({ bytes: Buffer.byteLength(text) }),
      ),
    tryLock: (info) =>
      timed(
        'state lock',
        async () => {
          const attempt = await backend.tryLock(info);
          if (!('held' in attempt)) return attempt;
          const { held } = attempt;
          return {
            held: {
              info: held.info,
              release: () =>
                timed(
                  'state lock released',
                  () => held.release(),
                  () => ({ lock_id: held.info.ID }),
                ),
            },
          };
        },
        (attempt) =>
          'held' in attempt
            ? { outcome: 'taken', lock_id: attempt.held.info.ID }
            : { outcome: 'held by another run', holder: attempt.busy.Who ?? attempt.busy.description },
      ),
    forceUnlock: (id) =>
      timed(
        'state lock removed by force-unlock',
        () => backend.forceUnlock(id),
        () => ({ lock_id: id }),
      ),
  };
  // Everything else (the journal a backend keeps, its own settings) is the backend's, as it is.
  return new Proxy(backend, {
    get(target, property, receiver) {
      if (typeof property === 'string' && property in overrides) return overrides[property as keyof StateBackend];
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' && receiver !== target ? value.bind(target) : value;
    },
  });
}
