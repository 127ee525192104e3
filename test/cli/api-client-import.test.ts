import { configWith, run, startWorld, writeConfig, type World } from './helpers';

describe('tenantform import of an API client', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('says the secret cannot be imported and how to get one, and records no secret', async () => {
    const globex = world.tenant('Globex Retail');
    const created = await world.client.createApiClient({
      tenant_id: globex,
      type: 'api_client',
      token_endpoint_auth_method: 'client_secret_basic',
      data: {},
      redirect_uris: [],
    });
    const file = writeConfig(world, configWith({ tenantform_api_client: { monitoring: { tenant_id: '${data.tenantform_tenant.globex.id}' } } }));

    const imported = await run(world, ['import', 'tenantform_api_client.monitoring', created.client_id, '-config', file, '-state', 'imported.tfstate']);
    expect(imported.code).toBe(0);
    const output = imported.stdout + imported.stderr;
    expect(output).toContain('Import successful!');
    expect(output).toContain('The client secret cannot be imported');
    expect(output).toContain('tenantform_api_client.monitoring is recorded with client_secret null');
    expect(output).toContain('tenantform destroy -target=tenantform_api_client.monitoring');
    expect(output).toContain('terraform apply -replace=tenantform_api_client.monitoring');
    expect(output).not.toContain(created.client_secret);

    const pulled = await run(world, ['state', 'pull', '--config', file, '--state', 'imported.tfstate']);
    expect(pulled.stderr).toBe('');
    const state = JSON.parse(pulled.stdout) as { resources: Array<{ type: string; instances: Array<{ attributes: Record<string, unknown> }> }> };
    const client = state.resources.find((r) => r.type === 'tenantform_api_client')!;
    expect(client.instances[0].attributes).toMatchObject({ id: created.client_id, client_secret: null });
  });
});
