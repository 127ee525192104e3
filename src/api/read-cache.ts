import type { PlatformClient } from './client';

/**
 * The client's reads that answer the same for the same arguments within one run (nothing
 * in the run writes in between). Writes, token handling and paging generators are left alone.
 */
const CACHED_READS = [
  'listApplications',
  'getApplication',
  'listTenantApplications',
  'getSetting',
  'getInfra',
  'listTenantInfra',
  'getReport',
  'listTenantReports',
  'getAgentUpdateSettings',
  'getSubscriptionOffset',
  'listTopics',
  'listEventTypes',
  'getAlertType',
  'listAgents',
  'getTenants',
  'search',
] as const satisfies ReadonlyArray<keyof PlatformClient>;

const cachedNames: ReadonlySet<PropertyKey> = new Set(CACHED_READS);

/**
 * A view of `client` on which each read is sent at most once: a repeat with the same
 * arguments, even while the first is still in flight, shares its answer (or its error).
 * Meant for one refresh, whose reads all describe the same moment; never for apply.
 */
export function withReadCache(client: PlatformClient): PlatformClient {
  const answers = new Map<string, Promise<unknown>>();
  // Once the platform could not be reached (or refused the credentials) after all retries,
  // every further read would wait out the same retries: it gets the same error at once.
  let unreachable: unknown;
  const remember = (err: unknown) => {
    const status = (err as { status?: unknown } | undefined)?.status;
    if (err instanceof Error && (status === 0 || status === 401)) unreachable ??= err;
    throw err;
  };
  return new Proxy(client, {
    get(target, name) {
      const member: unknown = Reflect.get(target, name, target);
      if (typeof member !== 'function') return member;
      const method = member as (...args: unknown[]) => unknown;
      if (!cachedNames.has(name)) return method.bind(target);
      return (...args: unknown[]) => {
        if (unreachable) return Promise.reject(unreachable);
        const key = `${String(name)}\0${JSON.stringify(args)}`;
        let answer = answers.get(key);
        if (!answer) {
          answer = Promise.resolve(method.apply(target, args)).catch(remember);
          answers.set(key, answer);
        }
        return answer;
      };
    },
  });
}
