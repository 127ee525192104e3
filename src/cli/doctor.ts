/**
 * `tenantform doctor`: what a team runs first on its real account. Read only. Each check is
 * data (a finding), so that the command prints them and tests assert them.
 */
import type { PlatformClient } from '../api';
import { PlatformError, ResponseShapeError } from '../api/errors';
import { checkPlatform } from '../engine/preflight';

export type FindingStatus = 'ok' | 'warning' | 'failed';

export interface Finding {
  readonly check: string;
  readonly status: FindingStatus;
  readonly detail: string;
  /** Where an answer differs from the shape tenantform expects: each difference. */
  readonly mismatches?: readonly string[];
}

export interface DoctorReport {
  readonly findings: readonly Finding[];
  /** Whether tenantform can work there: no check failed (warnings name what is out of reach). */
  readonly usable: boolean;
}

/** One read tenantform relies on, and what depends on it when it fails. */
interface Read {
  readonly check: string;
  readonly run: (client: PlatformClient, tenantId: string) => Promise<string>;
  /** Set for reads that only some kinds or commands need: a failure is then a warning naming them. */
  readonly neededFor?: string;
}

const first = async <T>(items: AsyncIterable<T>): Promise<T | undefined> => {
  for await (const item of items) return item;
  return undefined;
};
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The reads of every kind's plan, each checked against the shape tenantform expects. */
const READS: readonly Read[] = [
  {
    check: "Tenants below the caller's",
    run: async (client, tenantId) => ((await first(client.tenants({ parentId: tenantId, limit: 1 }))) ? 'listed' : 'none yet'),
  },
  { check: 'Applications', run: async (client) => count((await client.listApplications()).length, 'application') },
  { check: "The caller's applications", run: async (client, tenantId) => count((await client.listTenantApplications(tenantId)).length, 'application') },
  { check: 'Offering items', run: async (client, tenantId) => count((await client.listOfferingItems(tenantId, { edition: '*' })).length, 'item') },
  {
    check: 'Users',
    run: async (client, tenantId) => {
      const ids = await client.listTenantUsers(tenantId);
      // One user read in full: its shape is what import and drift rely on.
      if (ids.length > 0) await client.getUser(ids[0]);
      return count(ids.length, 'user');
    },
  },
  { check: 'Infrastructure components', run: async (client, tenantId) => count((await client.listTenantInfra(tenantId)).length, 'component') },
  { check: 'Usage reports', run: async (client, tenantId) => count((await client.listTenantReports(tenantId)).length, 'report') },
  {
    check: 'Agents',
    neededFor: 'tenantform_agent_update_settings and the agents data source',
    run: async (client, tenantId) => ((await first(client.agents({ tenantId, limit: 1 }))) ? 'listed' : 'none yet'),
  },
  {
    check: 'Alerts',
    neededFor: '`drift --alert`',
    // Only alerts raised from now on: one short answer, whatever the account holds.
    run: async (client) => count((await client.listAlerts({ createdAt: `ge(${BigInt(Date.now()) * 1_000_000n})`, limit: 1 })).length, 'alert'),
  },
  { check: 'Event topics', neededFor: 'tenantform_event_subscription', run: async (client) => count((await client.listTopics()).length, 'topic') },
];

/** Runs every check in order; the later ones only once the address and the credentials work. */
export async function diagnose(client: PlatformClient): Promise<DoctorReport> {
  const findings: Finding[] = [];
  const done = () => ({ findings, usable: findings.every((f) => f.status !== 'failed') });
  try {
    await checkPlatform(client);
    findings.push({
      check: 'Address and credentials',
      status: 'ok',
      detail: `${client.baseUrl} answers as the platform and issues a token to API client ${client.clientId}`,
    });
  } catch (err) {
    findings.push({ check: 'Address and credentials', status: 'failed', detail: (err as Error).message });
    return done();
  }
  let tenantId: string;
  try {
    tenantId = await client.ownTenantId();
    const tenant = await client.getTenant(tenantId);
    const where =
      tenant.kind === 'root'
        ? "the root tenant: every tenant is in reach (an MSP's API client usually sits on its partner tenant)"
        : `a ${String(tenant.kind)} tenant: tenantform reaches this tenant and those below it`;
    findings.push({ check: "The caller's tenant", status: 'ok', detail: `${JSON.stringify(tenant.name)} (${tenantId}), ${where}` });
  } catch (err) {
    findings.push(failure("The caller's tenant", err));
    return done();
  }
  for (const read of READS) {
    try {
      findings.push({ check: read.check, status: 'ok', detail: await read.run(client, tenantId) });
    } catch (err) {
      const found = failure(read.check, err);
      findings.push(
        read.neededFor && found.mismatches === undefined ? { ...found, status: 'warning', detail: `${found.detail}; out of reach: ${read.neededFor}` } : found,
      );
    }
  }
  return done();
}

/** A failed read: the platform's refusal, or each place its answer differs from the expected shape. */
function failure(check: string, err: unknown): Finding {
  if (err instanceof ResponseShapeError) {
    return {
      check,
      status: 'failed',
      detail: `${err.method} ${err.endpoint} answers in a shape tenantform does not expect`,
      mismatches: err.issues.map((i) => `${i.fieldPath || '(the answer)'}: ${i.problem}`),
    };
  }
  if (err instanceof PlatformError) {
    const refusal = err.status === 0 ? err.message : `${err.status} ${err.code}: ${err.platformMessage}`;
    return { check, status: 'failed', detail: `${err.method} ${err.endpoint}: ${refusal}` };
  }
  return { check, status: 'failed', detail: (err as Error).message };
}
