/** `tenantform validate`: the configuration alone, offline, with Terraform's exit codes and JSON document. */
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

describe('tenantform validate', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  // No credentials and no platform: validate reads neither.
  const offline = { TENANTFORM_BASE_URL: undefined, TENANTFORM_CLIENT_ID: undefined, TENANTFORM_CLIENT_SECRET: undefined };

  it('says a valid configuration is valid, exit 0, without a request', async () => {
    const file = writeConfig(world, configWith({ tenantform_infra_component: { a: infra('Valid A') } }));
    const before = world.requests.length;
    const r = await run(world, ['validate', '--config', file], offline);
    expect(r.stdout).toBe('Success! The configuration is valid.\n');
    expect(r.code).toBe(0);
    const json = JSON.parse((await run(world, ['validate', '-json', '--config', file], offline)).stdout);
    expect(json).toEqual({ format_version: '1.0', valid: true, error_count: 0, warning_count: 0, diagnostics: [] });
    expect(world.requests.slice(before)).toEqual([]);
  });

  it('names every problem by address and attribute path, exit 1', async () => {
    const file = writeConfig(
      world,
      configWith({ tenantform_infra_component: { a: infra('Invalid A', { capabilities: ['teleport'] }), b: infra('Invalid B', { url: 'not a url' }) } }),
    );
    const r = await run(world, ['validate', '--config', file], offline);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('tenantform_infra_component.a');
    expect(r.stderr).toContain('tenantform_infra_component.b');
    const json = JSON.parse((await run(world, ['validate', '-json', '--config', file], offline)).stdout);
    expect(json.valid).toBe(false);
    expect(json.error_count).toBe(2);
    expect(json.diagnostics.map((d: { address: string; attribute_path: unknown[] }) => [d.address, d.attribute_path[0]])).toEqual([
      ['tenantform_infra_component.a', 'capabilities'],
      ['tenantform_infra_component.b', 'url'],
    ]);
  });
});
