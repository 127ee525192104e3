import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { isNotFound } from '../../src/api/errors';
import { call } from '../../src/emulator/testing';
import { configWith, run, startWorld, writeConfig, type CliResult, type World } from './helpers';

/** A customer onboarded: its tenant, its administrator and an API client for its monitoring tool. */
function onboarding(over: { tenant?: Record<string, unknown>; client?: Record<string, unknown> } = {}): Record<string, Record<string, unknown>> {
  return {
    tenantform_tenant: {
      contoso: {
        parent_id: '${data.tenantform_tenant.northwind.id}',
        kind: 'customer',
        name: 'Contoso',
        contact: { email: 'it@contoso.example', first_name: 'Dana', types: ['primary'] },
        ...over.tenant,
      },
    },
    tenantform_user: {
      admin: { tenant_id: '${tenantform_tenant.contoso.id}', login: 'contoso-admin', email: 'admin@contoso.example', first_name: 'Dana' },
    },
    tenantform_api_client: {
      monitoring: { tenant_id: '${tenantform_tenant.contoso.id}', data: JSON.stringify({ purpose: 'monitoring' }), ...over.client },
    },
  };
}

const STATE = 'terraform.main.tfstate';

describe('tenantform: the tenant lifecycle (tenant, user, API client)', () => {
  let world: World;
  let admin: PlatformClient;
  const secrets: string[] = [];
  const state = () =>
    JSON.parse(readFileSync(join(world.dir, STATE), 'utf8')) as {
      resources: Array<{ mode: string; type: string; name: string; instances: Array<{ attributes: Record<string, any>; sensitive_attributes: unknown[] }> }>;
    };
  const attributes = (type: string) => state().resources.find((r) => r.type === type && r.mode === 'managed')!.instances[0];
  const apply = async (resources: Record<string, Record<string, unknown>>): Promise<CliResult> => {
    const file = writeConfig(world, configWith(resources));
    const result = await run(world, ['apply', '--config', file, '--auto-approve']);
    expectNoSecret(result);
    return result;
  };
  const plan = async (resources: Record<string, Record<string, unknown>>, ...extra: string[]): Promise<CliResult> => {
    const file = writeConfig(world, configWith(resources));
    const result = await run(world, ['plan', '--config', file, '--detailed-exitcode', ...extra]);
    expectNoSecret(result);
    return result;
  };
  function expectNoSecret(r: CliResult): void {
    for (const s of [...secrets, world.emulator.clientSecret]) {
      expect(r.stdout).not.toContain(s);
      expect(r.stderr).not.toContain(s);
    }
  }

  beforeAll(async () => {
    world = await startWorld();
    const created = await call(world.emulator.url, 'POST', '/_emulator/clients', { body: {} });
    admin = new PlatformClient({ baseUrl: world.emulator.url, clientId: created.json.client_id, clientSecret: created.json.client_secret });
  });
  afterAll(async () => {
    await admin?.close();
    await world.close();
  });

  it('creates the tenant, its administrator and an API client whose secret is kept only as a sensitive state value', async () => {
    const planned = await plan(onboarding());
    expect(planned.code).toBe(2);
    expect(planned.stdout).toContain('Plan: 3 to add, 0 to change, 0 to destroy.');
    expect(planned.stdout).toMatch(/client_secret\s+= \(sensitive value\)/);

    const applied = await apply(onboarding());
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
    const client = attributes('tenantform_api_client');
    expect(typeof client.attributes.client_secret).toBe('string');
    expect(client.attributes.client_secret).not.toMatch(/^sha256:/);
    expect(client.sensitive_attributes).toEqual([[{ type: 'get_attr', value: 'client_secret' }]]);
    secrets.push(client.attributes.client_secret);

    // The issued secret works: the monitoring tool obtains a token and sees its own tenant.
    const tool = new PlatformClient({ baseUrl: world.emulator.url, clientId: client.attributes.id, clientSecret: client.attributes.client_secret });
    try {
      expect(await tool.ownTenantId()).toBe(attributes('tenantform_tenant').attributes.id);
    } finally {
      await tool.close();
    }
    const user = await admin.getUser(attributes('tenantform_user').attributes.id);
    expect(user).toMatchObject({ login: 'contoso-admin', enabled: true, activated: true });
    expect((await plan(onboarding())).code).toBe(0);
  });

  it('updates the tenant in place with its version, and replaces the API client when its auth method changes', async () => {
    const before = attributes('tenantform_tenant').attributes;
    const changed = await apply(onboarding({ tenant: { internal_tag: 'gold' } }));
    expect(changed.stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
    const after = attributes('tenantform_tenant').attributes;
    expect(after).toMatchObject({ id: before.id, internal_tag: 'gold', version: before.version + 1 });

    const oldClient = attributes('tenantform_api_client').attributes.id;
    const replaced = await apply(onboarding({ tenant: { internal_tag: 'gold' }, client: { token_endpoint_auth_method: 'client_secret_post' } }));
    expect(replaced.stdout).toContain('Resources: 1 added, 0 changed, 1 destroyed.');
    const newClient = attributes('tenantform_api_client').attributes;
    secrets.push(newClient.client_secret);
    expect(newClient.id).not.toBe(oldClient);
    await expect(admin.getApiClient(oldClient)).rejects.toMatchObject({ status: 404 });
  });

  it('refuses to turn a production customer back into trial before sending any request', async () => {
    const config = (mode: string) =>
      onboarding({ tenant: { internal_tag: 'gold', pricing_mode: mode }, client: { token_endpoint_auth_method: 'client_secret_post' } });
    expect((await apply(config('production'))).code).toBe(0);
    expect(attributes('tenantform_tenant').attributes.pricing_mode).toBe('production');
    world.requests.length = 0;
    const refused = await plan(config('trial'));
    expect(refused.code).toBe(1);
    expect(refused.stderr + refused.stdout).toContain('tenantform_tenant.contoso');
    expect(refused.stderr + refused.stdout).toMatch(/production cannot return to trial/);
    expect(world.requests.filter((r) => r.startsWith('PUT'))).toEqual([]);
  });

  it('reports a change made in the console as drift, and the next apply repairs it', async () => {
    const config = onboarding({ tenant: { internal_tag: 'gold', pricing_mode: 'production' }, client: { token_endpoint_auth_method: 'client_secret_post' } });
    const t = attributes('tenantform_tenant').attributes;
    const live = await admin.getTenant(t.id);
    await admin.updateTenant(t.id, { version: live.version!, internal_tag: 'changed by hand' });
    const file = writeConfig(world, configWith(config));
    const drift = await run(world, ['drift', '--config', file]);
    expectNoSecret(drift);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('changed by hand');
    const repaired = await apply(config);
    expect(repaired.stdout).toContain('1 changed');
    expect((await admin.getTenant(t.id)).internal_tag).toBe('gold');
  });

  it('imports the tenant, the user and the API client (without its secret) into a fresh state', async () => {
    const config = onboarding({ tenant: { internal_tag: 'gold', pricing_mode: 'production' }, client: { token_endpoint_auth_method: 'client_secret_post' } });
    const file = writeConfig(world, configWith(config));
    for (const [address, type] of [
      ['tenantform_tenant.contoso', 'tenantform_tenant'],
      ['tenantform_user.admin', 'tenantform_user'],
      ['tenantform_api_client.monitoring', 'tenantform_api_client'],
    ]) {
      const imported = await run(world, ['import', address, attributes(type).attributes.id, '--config', file, '--state', 'imported.tfstate']);
      expectNoSecret(imported);
      expect(imported.code).toBe(0);
    }
    const importedClient = JSON.parse(readFileSync(join(world.dir, 'imported.tfstate'), 'utf8')).resources.find(
      (r: { type: string; mode: string }) => r.type === 'tenantform_api_client' && r.mode === 'managed',
    );
    expect(importedClient.instances[0].attributes.client_secret).toBeNull();
    const after = await run(world, ['plan', '--config', file, '--state', 'imported.tfstate', '--detailed-exitcode']);
    expect(after.stdout).toContain('No changes.');
    expect(after.code).toBe(0);
  });

  it('removing everything from the configuration warns, then disables and deletes the tenant, the user and the client', async () => {
    const ids = {
      tenant: attributes('tenantform_tenant').attributes.id,
      user: attributes('tenantform_user').attributes.id,
      client: attributes('tenantform_api_client').attributes.id,
    };
    const planned = await plan({});
    expect(planned.stdout).toContain('Plan: 0 to add, 0 to change, 3 to destroy.');
    expect(planned.stdout + planned.stderr).toMatch(/disables it, then deletes it with its users and data/);
    const destroyed = await apply({});
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toContain('0 added, 0 changed, 3 destroyed.');
    for (const read of [() => admin.getTenant(ids.tenant), () => admin.getUser(ids.user), () => admin.getApiClient(ids.client)]) {
      await read().then(
        () => {
          throw new Error('still there');
        },
        (err: unknown) => expect(isNotFound(err)).toBe(true),
      );
    }
    expect((await admin.getTenant(ids.tenant, { allowDeleted: true })).deleted_at).toEqual(expect.any(String));
  });
});
