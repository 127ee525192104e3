import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, startWorld, writeConfig, type World } from './helpers';

interface DriftJson {
  checked_at: string;
  unmanaged: Array<{ type: string; id: string; tenant_id: string; tenant_name: string; label: string }> | null;
  coverage: { managed: number; unmanaged: number; percent: number | null } | null;
  resources: Array<{ address: string; status: string; ignored_changes: string[] }>;
}

describe('drift: unmanaged objects, coverage and the ignore file', () => {
  let world: World;
  let file: string;
  let northwind: string;
  let backup: string;
  // The platform lists no tenant's settings: a name the stack does not manage is looked for when asked.
  const LOOK_FOR = '-setting=retention_days';
  const driftJson = async (...extra: string[]) => {
    const r = await run(world, ['drift', '-config', file, '-format=json', LOOK_FOR, ...extra]);
    return { code: r.code, json: JSON.parse(r.stdout) as DriftJson, stdout: r.stdout };
  };

  beforeAll(async () => {
    world = await startWorld();
    northwind = world.tenant('Northwind Partner');
    backup = world.application('backup');
    file = writeConfig(
      world,
      configWith({
        tenantform_infra_component: { site: infra('Managed site') },
        tenantform_tenant_setting: {
          window: {
            application_id: '${data.tenantform_application.backup.id}',
            tenant_id: '${data.tenantform_tenant.northwind.id}',
            name: 'backup_window',
            value: JSON.stringify({ start: '22:00', end: '04:00' }),
          },
        },
      }),
    );
    expect((await run(world, ['apply', '-config', file, '-auto-approve'])).code).toBe(0);
  });
  afterAll(() => world.close());

  it('finds a setting made by hand in a managed tenant, with the coverage and the time of the check', async () => {
    const before = await driftJson();
    expect(before.code).toBe(0);
    await world.client.putSetting(backup, northwind, 'retention_days', { value: 45, lock: false, exclusive: false });
    // Not asked for, a setting of a name the stack does not manage cannot be found.
    const unasked = JSON.parse((await run(world, ['drift', '-config', file, '-format=json'])).stdout) as DriftJson;
    expect(unasked.unmanaged!.some((u) => u.type === 'tenantform_tenant_setting')).toBe(false);
    const { code, json } = await driftJson();
    // Unmanaged objects are reported, but are not drift.
    expect(code).toBe(0);
    expect(Date.now() - Date.parse(json.checked_at)).toBeLessThan(60_000);
    const setting = json.unmanaged!.find((u) => u.type === 'tenantform_tenant_setting');
    expect(setting).toEqual({
      type: 'tenantform_tenant_setting',
      id: `${backup}/${northwind}/retention_days`,
      tenant_id: northwind,
      tenant_name: 'Northwind Partner',
      label: 'backup retention_days',
    });
    expect(json.unmanaged!.every((u) => u.tenant_id === northwind)).toBe(true);
    const total = json.coverage!.managed + json.coverage!.unmanaged;
    expect(json.coverage).toEqual({ managed: 2, unmanaged: json.unmanaged!.length, percent: Math.round((2 / total) * 1000) / 10 });
    expect(json.coverage!.unmanaged).toBe(before.json.coverage!.unmanaged + 1);

    const text = await run(world, ['drift', '-config', file, LOOK_FOR]);
    expect(text.stdout).toContain(`  + tenantform_tenant_setting ${backup}/${northwind}/retention_days (Northwind Partner: backup retention_days)`);
    expect(text.stdout).toMatch(/Coverage: [\d.]+% \(2 of \d+ objects in the managed tenants are managed by this stack\)\./);
    const markdown = await run(world, ['drift', '-config', file, '-format=markdown', LOOK_FOR]);
    expect(markdown.stdout).toContain(`- \`tenantform_tenant_setting ${backup}/${northwind}/retention_days\``);
    // The job summary gets the same markdown report, appended.
    writeFileSync(join(world.dir, 'summary.md'), '# Earlier step\n');
    await run(world, ['drift', '-config', file, '-summary-file=summary.md', LOOK_FOR]);
    const summary = readFileSync(join(world.dir, 'summary.md'), 'utf8');
    expect(summary.startsWith('# Earlier step\n## Drift report for stack `main`')).toBe(true);
    expect(summary).toContain(`- \`tenantform_tenant_setting ${backup}/${northwind}/retention_days\``);
    expect(summary).toMatch(/Coverage: [\d.]+% \(2 of \d+ objects/);
  });

  it('exits 2 on unmanaged objects with -fail-on-unmanaged, as on drift', async () => {
    // The hand-made setting of the first test is still there, unmanaged.
    expect((await driftJson()).code).toBe(0);
    const failing = await driftJson('-fail-on-unmanaged');
    expect(failing.json.unmanaged!.length).toBeGreaterThan(0);
    expect(failing.code).toBe(2);
    const contradiction = await run(world, ['drift', '-config', file, '-fail-on-unmanaged', '-ignore-unmanaged']);
    expect(contradiction.code).toBe(1);
    expect(contradiction.stderr).toContain('-fail-on-unmanaged needs the search that -ignore-unmanaged skips');
    const help = await run(world, ['drift', '--help']);
    expect(help.stdout).toContain('--fail-on-unmanaged');
  });

  it('with nothing to compare claims no coverage: "no objects to compare", and null in JSON', async () => {
    const empty = writeConfig(world, configWith({}), 'empty.tf.json');
    const text = await run(world, ['drift', '-config', empty, '-state=empty.tfstate']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Coverage: no objects to compare');
    expect(text.stdout).not.toContain('100%');
    const json = JSON.parse((await run(world, ['drift', '-config', empty, '-state=empty.tfstate', '-format=json'])).stdout) as DriftJson;
    expect(json.coverage).toEqual({ managed: 0, unmanaged: 0, percent: null });
  });

  it('shows names made on the platform inert: no escape sequence reaches the terminal, no line break the summary', async () => {
    const hostile = '\u001b[2J\u001b]52;c;cGF5bG9hZA==\u0007Evil\n## Forged heading\u202e \u0085\u009b2J \u2066\u200f';
    const made = await world.client.createTenant({ name: hostile, parent_id: northwind, kind: 'customer' });
    try {
      const text = await run(world, ['drift', '-config', file, LOOK_FOR]);
      expect(text.stdout).toContain('\\u001b[2J');
      expect(text.stdout).not.toContain('\u001b');
      expect(text.stdout).not.toContain('\u202e');
      const markdown = await run(world, ['drift', '-config', file, '-format=markdown', LOOK_FOR]);
      expect(markdown.stdout).not.toMatch(/^## Forged heading/m);
      expect(markdown.stdout).not.toContain('\u001b');
      // JSON.stringify leaves C1 controls and bidirectional marks as they are: written as escapes, read back the same.
      const json = await run(world, ['drift', '-config', file, '-format=json', LOOK_FOR]);
      expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
      expect(json.stdout).toContain('\\u202e \\u0085\\u009b2J \\u2066\\u200f');
      expect((JSON.parse(json.stdout) as DriftJson).unmanaged!.map((u) => u.label)).toContainEqual(expect.stringContaining(hostile));
    } finally {
      await world.client.updateTenant(made.id, { version: made.version ?? 1, enabled: false });
      await world.client.deleteTenant(made.id, (made.version ?? 1) + 1);
    }
  });

  it('honours .tenantformignore and --ignore-unmanaged', async () => {
    writeFileSync(join(world.dir, '.tenantformignore'), '# set by the support team\ntenantform_tenant_setting.*/retention_days\n');
    const { json } = await driftJson();
    expect(json.unmanaged!.some((u) => u.id.endsWith('/retention_days'))).toBe(false);
    const skipped = await driftJson('-ignore-unmanaged');
    expect(skipped.json.unmanaged).toBeNull();
    expect(skipped.json.coverage).toBeNull();
  });

  it('ignores drift of one attribute named in the ignore file', async () => {
    const [site] = await world.client.getInfra(await world.client.listTenantInfra(northwind));
    await world.client.updateInfra(site.id, {
      name: 'Renamed by support',
      location_id: site.location_id!,
      url: site.url,
      capabilities: site.capabilities,
      version: site.version,
    });
    expect((await driftJson()).code).toBe(2);
    writeFileSync(join(world.dir, '.tenantformignore'), `tenantform_infra_component.${site.id}.name\n`);
    const { code, json } = await driftJson();
    expect(code).toBe(0);
    expect(json.resources.find((r) => r.address === 'tenantform_infra_component.site')).toMatchObject({ status: 'in_sync', ignored_changes: ['name'] });
  });

  it('finds users and child tenants made by hand in a managed tenant, but not what lies inside those children', async () => {
    const child = await world.client.createTenant({ name: 'Handmade Customer', parent_id: northwind, kind: 'customer' });
    const user = await world.client.createUser({ tenant_id: northwind, login: 'handmade-admin', contact: { email: 'admin@handmade.example' } });
    const childUser = await world.client.createUser({ tenant_id: child.id, login: 'handmade-child-admin', contact: { email: 'child@handmade.example' } });
    // Whatever the ignore file holds so far (the renamed site's attribute) stays.
    const ignoreFile = join(world.dir, '.tenantformignore');
    const attributeRules = existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : '';
    const { code, json } = await driftJson();
    expect(code).toBe(0);
    expect(json.unmanaged).toContainEqual({
      type: 'tenantform_tenant',
      id: child.id,
      tenant_id: northwind,
      tenant_name: 'Northwind Partner',
      label: 'tenant Handmade Customer',
    });
    expect(json.unmanaged).toContainEqual({
      type: 'tenantform_user',
      id: user.id,
      tenant_id: northwind,
      tenant_name: 'Northwind Partner',
      label: 'user handmade-admin',
    });
    // The child tenant is not managed by the stack: its own users are not the stack's concern.
    expect(json.unmanaged!.some((u) => u.id === childUser.id)).toBe(false);
    expect(json.unmanaged!.every((u) => u.tenant_id === northwind)).toBe(true);
    const text = await run(world, ['drift', '-config', file, LOOK_FOR]);
    expect(text.stdout).toContain(`  + tenantform_tenant ${child.id} (Northwind Partner: tenant Handmade Customer)`);

    writeFileSync(ignoreFile, `${attributeRules}tenantform_tenant.${child.id}\ntenantform_user.*\n`);
    const ignored = await driftJson();
    expect(ignored.json.unmanaged!.filter((u) => u.id === child.id || u.type === 'tenantform_user')).toEqual([]);
    expect(ignored.json.coverage!.unmanaged).toBe(json.coverage!.unmanaged - 1 - json.unmanaged!.filter((u) => u.type === 'tenantform_user').length);
  });
});
