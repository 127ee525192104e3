/**
 * Where the acceptance run runs: the data center the TENANTFORM_ACCEPTANCE_* variables name, or,
 * without them, the emulator as an MSP's account (so that CI runs it on every change). Either
 * way it works inside one customer tenant: one it creates under the partner named (and deletes
 * afterwards), or an empty one named; it refuses a tenant holding anything it did not create.
 */
import { randomBytes } from 'node:crypto';
import { PlatformClient } from '../../src/api';
import { isNotFound } from '../../src/api/errors';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { MSP_PARTNER } from '../../src/emulator/msp-account';

/** The variables that point the run at a real data center. */
export const ACCEPTANCE_ENV = {
  baseUrl: 'TENANTFORM_ACCEPTANCE_BASE_URL',
  clientId: 'TENANTFORM_ACCEPTANCE_CLIENT_ID',
  clientSecret: 'TENANTFORM_ACCEPTANCE_CLIENT_SECRET',
  partnerId: 'TENANTFORM_ACCEPTANCE_PARTNER_ID',
  tenantId: 'TENANTFORM_ACCEPTANCE_TENANT_ID',
} as const;

export interface Target {
  readonly name: string;
  readonly credentials: { readonly url: string; readonly clientId: string; readonly clientSecret: string };
  readonly client: PlatformClient;
  /** The customer tenant everything is made in. */
  readonly tenantId: string;
  /** A name unique to this run, for logins and names. */
  readonly run: string;
  /** Deletes what the run left in its tenant (and the tenant when it made it); returns what it could not. */
  close(): Promise<string[]>;
}

export async function openTarget(env: NodeJS.ProcessEnv = process.env): Promise<Target> {
  const named = Object.values(ACCEPTANCE_ENV).filter((v) => env[v]);
  let emulator: RunningEmulator | undefined;
  let credentials: Target['credentials'];
  let partnerId: string | undefined;
  let name: string;
  if (named.length === 0) {
    emulator = await startEmulator({ port: 0, account: 'msp' });
    credentials = { url: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret };
    partnerId = emulator.world().tenants[MSP_PARTNER].id;
    name = 'the emulator (an MSP account)';
  } else {
    const missing = [ACCEPTANCE_ENV.baseUrl, ACCEPTANCE_ENV.clientId, ACCEPTANCE_ENV.clientSecret].filter((v) => !env[v]);
    if (missing.length > 0) throw new Error(`The acceptance run on a data center needs ${missing.join(', ')} as well.`);
    if (!env[ACCEPTANCE_ENV.partnerId] && !env[ACCEPTANCE_ENV.tenantId]) {
      throw new Error(`Name the partner to create the run's customer under (${ACCEPTANCE_ENV.partnerId}), or an empty customer (${ACCEPTANCE_ENV.tenantId}).`);
    }
    credentials = { url: env[ACCEPTANCE_ENV.baseUrl]!, clientId: env[ACCEPTANCE_ENV.clientId]!, clientSecret: env[ACCEPTANCE_ENV.clientSecret]! };
    partnerId = env[ACCEPTANCE_ENV.partnerId];
    name = credentials.url;
  }
  const client = new PlatformClient({ baseUrl: credentials.url, clientId: credentials.clientId, clientSecret: credentials.clientSecret });
  const run = `tf-acc-${randomBytes(4).toString('hex')}`;
  const given = env[ACCEPTANCE_ENV.tenantId];
  let tenantId: string;
  let made = false;
  try {
    if (given) tenantId = given;
    else {
      tenantId = (await client.createTenant({ name: `tenantform acceptance ${run}`, parent_id: partnerId!, kind: 'customer' })).id;
      made = true;
    }
    const held = await holdings(client, tenantId);
    if (held.length > 0) throw new Error(`The acceptance run needs a tenant that holds nothing it did not create; ${tenantId} holds ${held.join(', ')}.`);
  } catch (err) {
    await client.close();
    await emulator?.close();
    throw err;
  }
  return {
    name,
    credentials,
    client,
    tenantId,
    run,
    close: async () => {
      try {
        return await cleanUp(client, tenantId, made);
      } finally {
        await client.close();
        await emulator?.close();
      }
    },
  };
}

/** What a tenant holds: child tenants, users, infrastructure components, usage reports. */
export async function holdings(client: PlatformClient, tenantId: string): Promise<string[]> {
  const children = await client.getTenants({ parentId: tenantId, lod: 'basic' });
  const users = await client.listTenantUsers(tenantId);
  const infra = await client.listTenantInfra(tenantId);
  const reports = await client.listTenantReports(tenantId);
  return [
    ...children.map((t) => `tenant ${t.id}`),
    ...users.map((id) => `user ${id}`),
    ...infra.map((id) => `infrastructure component ${id}`),
    ...reports.map((id) => `usage report ${id}`),
  ];
}

/** Deletes what is left inside the run's tenant, then the tenant when the run made it. */
async function cleanUp(client: PlatformClient, tenantId: string, made: boolean): Promise<string[]> {
  const left: string[] = [];
  const attempt = async (what: string, work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (err) {
      if (!isNotFound(err)) left.push(`${what}: ${(err as Error).message}`);
    }
  };
  for (const id of await client.listTenantReports(tenantId)) {
    await attempt(`usage report ${id}`, async () => client.deleteReport(id, (await client.getReport(id)).version));
  }
  for (const id of await client.listTenantInfra(tenantId)) {
    await attempt(`infrastructure component ${id}`, async () => {
      const [component] = await client.getInfra([id]);
      await client.deleteInfra(id, Number(component.version), { force: true });
    });
  }
  for (const id of await client.listTenantUsers(tenantId)) {
    await attempt(`user ${id}`, async () => {
      let user = await client.getUser(id);
      if (user.enabled) user = await client.updateUser(id, { version: user.version, enabled: false });
      await client.deleteUser(id, user.version);
    });
  }
  const tenants = made ? [tenantId] : [];
  for (const child of await client.getTenants({ parentId: tenantId, lod: 'basic' })) tenants.unshift(child.id);
  for (const id of tenants) {
    await attempt(`tenant ${id}`, async () => {
      let tenant = await client.getTenant(id);
      if (tenant.enabled) tenant = await client.updateTenant(id, { version: Number(tenant.version), enabled: false });
      await client.deleteTenant(id, Number(tenant.version));
    });
  }
  return left;
}
