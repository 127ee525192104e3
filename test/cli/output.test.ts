/**
 * `tenantform output`, as a pipeline hands a value to the next step: every output listed with
 * sensitive values masked, one value in full when named, `-raw` for a script, `-json`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

describe('tenantform output', () => {
  let world: World;
  let secret: string;
  beforeAll(async () => {
    world = await startWorld();
    const config = {
      ...configWith({
        tenantform_infra_component: { storage: infra('Output Storage') },
        tenantform_api_client: { monitoring: { tenant_id: '${data.tenantform_tenant.acme.id}' } },
      }),
      output: {
        storage_name: { value: '${tenantform_infra_component.storage.name}' },
        capabilities: { value: '${tenantform_infra_component.storage.capabilities}' },
        monitoring_secret: { value: '${tenantform_api_client.monitoring.client_secret}', sensitive: true },
      },
    };
    const applied = await run(world, ['apply', '--auto-approve', '--config', writeConfig(world, config)]);
    expect(applied.code).toBe(0);
    const state = JSON.parse(readFileSync(join(world.dir, 'terraform.main.tfstate'), 'utf8'));
    secret = state.resources.find((r: { type: string }) => r.type === 'tenantform_api_client').instances[0].attributes.client_secret;
    expect(secret).toEqual(expect.any(String));
  });
  afterAll(() => world.close());

  const output = (...args: string[]) => run(world, ['output', '--config', 'main.tf.json', ...args]);

  it('lists every output, a sensitive one masked', async () => {
    const listed = await output();
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe('capabilities = [\n  "backup",\n]\nmonitoring_secret = <sensitive>\nstorage_name = "Output Storage"\n');
    const json = JSON.parse((await output('-json')).stdout);
    expect(json.storage_name).toEqual({ sensitive: false, type: 'string', value: 'Output Storage' });
    expect(json.capabilities).toEqual({ sensitive: false, type: ['tuple', ['string']], value: ['backup'] });
    expect(json.monitoring_secret).toEqual({ sensitive: true, type: 'string' });
    expect(JSON.stringify(json)).not.toContain(secret);
  });

  it('prints one named value in full, -raw as it is for a script', async () => {
    expect((await output('storage_name')).stdout).toBe('"Output Storage"\n');
    expect((await output('-raw', 'storage_name')).stdout).toBe('Output Storage');
    expect((await output('-raw', 'monitoring_secret')).stdout).toBe(secret);
    expect((await output('-json', 'capabilities')).stdout).toBe('["backup"]\n');
  });

  it('refuses -raw for a list and an output the state does not record, naming them', async () => {
    const list = await output('-raw', 'capabilities');
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('Unsupported value for raw output');
    const missing = await output('nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Output "nope" not found');
  });

  it('show prints the state (objects and outputs) and a saved plan, never a sensitive value; -json as terraform show -json', async () => {
    const shown = await run(world, ['show', '--config', 'main.tf.json']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('# tenantform_infra_component.storage:');
    expect(shown.stdout).toContain('monitoring_secret = (sensitive value)');
    expect(shown.stdout).not.toContain(secret);
    const json = JSON.parse((await run(world, ['show', '-json', '--config', 'main.tf.json'])).stdout);
    expect(json.format_version).toBe('1.0');
    const storage = json.values.root_module.resources.find((r: { address: string }) => r.address === 'tenantform_infra_component.storage');
    expect(storage.values.name).toBe('Output Storage');
    expect(json.values.outputs.monitoring_secret).toEqual({ sensitive: true, type: 'string' });
    expect(JSON.stringify(json)).not.toContain(secret);

    expect((await run(world, ['plan', '--config', 'main.tf.json', '--out', 'saved.plan'])).code).toBe(0);
    expect((await run(world, ['show', 'saved.plan'])).stdout).toContain('No changes.');
    const planJson = JSON.parse((await run(world, ['show', '-json', 'saved.plan'])).stdout);
    expect(planJson.resource_changes.map((r: { address: string }) => r.address)).toContain('tenantform_infra_component.storage');
  });
});
