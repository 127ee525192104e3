import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, filesUnder, run, startWorld, writeConfig, type World } from './helpers';

/**
 * A value derived from a sensitive one is sensitive too, as Terraform marks it: here a setting's
 * value is `jsonencode({ s = <an API client's secret> })`. No output and no file tenantform writes
 * may show the secret, when the setting is planned, applied, drifted or refreshed.
 */
describe('a value derived from a secret', () => {
  let world: World;
  let file: string;
  let secret: string;
  let northwind: string;
  let backup: string;
  const outputs: Array<{ what: string; text: string }> = [];
  const record = async (what: string, args: string[]) => {
    const r = await run(world, args);
    outputs.push({ what: `${what} (stdout)`, text: r.stdout }, { what: `${what} (stderr)`, text: r.stderr });
    return r;
  };

  beforeAll(async () => {
    world = await startWorld();
    northwind = world.tenant('Northwind Partner');
    backup = world.application('backup');
    file = writeConfig(
      world,
      configWith({
        tenantform_api_client: { monitoring: { tenant_id: '${data.tenantform_tenant.northwind.id}' } },
        tenantform_tenant_setting: {
          handover: {
            application_id: '${data.tenantform_application.backup.id}',
            tenant_id: '${data.tenantform_tenant.northwind.id}',
            name: 'backup_window',
            value: '${jsonencode({ s = tenantform_api_client.monitoring.client_secret })}',
          },
        },
      }),
    );
    await record('plan', ['plan', '-config', file]);
    expect((await record('apply', ['apply', '-config', file, '-auto-approve'])).code).toBe(0);
    const live = await world.client.getSetting(backup, northwind, 'backup_window');
    secret = (live.own?.value as { s: string }).s;
    expect(secret.length).toBeGreaterThan(8);
    // Someone changes the setting by hand, keeping the secret in it: drift that holds the secret.
    await world.client.putSetting(backup, northwind, 'backup_window', { value: { s: secret, by: 'hand' }, lock: false, exclusive: false });
  });
  afterAll(() => world.close());

  it('is masked in every report of the drift', async () => {
    expect((await record('drift', ['drift', '-config', file, '-summary-file', 'summary.md'])).code).toBe(2);
    expect((await record('drift json', ['drift', '-config', file, '-format=json'])).code).toBe(2);
    expect((await record('drift markdown', ['drift', '-config', file, '-format=markdown'])).code).toBe(2);
    const drift = outputs.find((o) => o.what === 'drift (stdout)')!.text;
    expect(drift).toContain('tenantform_tenant_setting.handover');
    expect(drift).toContain('(sensitive value)');
  });

  it('is masked in the plan, its JSON and the refresh-only apply', async () => {
    expect((await record('plan', ['plan', '-config', file, '-out', 'saved.plan'])).code).toBe(0);
    expect((await record('plan json', ['plan', '-config', file, '-format=json'])).code).toBe(0);
    expect((await record('plan markdown', ['plan', '-config', file, '-format=markdown'])).code).toBe(0);
    expect((await record('refresh-only', ['apply', '-config', file, '-refresh-only', '-auto-approve'])).code).toBe(0);
    const shown = JSON.parse(outputs.find((o) => o.what === 'plan json (stdout)')!.text);
    const drifted = shown.resource_drift.find((c: { address: string }) => c.address === 'tenantform_tenant_setting.handover');
    expect(drifted.change.after_sensitive).toMatchObject({ value: true, effective_value: true });
  });

  it('appears in no output and no file but the state', () => {
    const leaks = outputs.filter((o) => o.text.includes(secret)).map((o) => o.what);
    for (const name of filesUnder(world.dir)) {
      if (/\.tfstate(\.backup)?$/.test(name) || name === 'saved.plan') continue;
      if (readFileSync(join(world.dir, name), 'utf8').includes(secret)) leaks.push(name);
    }
    expect(leaks).toEqual([]);
  });
});
