import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PlatformClient } from '../api';
import { startEmulator, type RunningEmulator } from '../emulator';
import { importResource } from '../resources/operations';
import { resourceKind } from '../resources/registry';
import { canonicalJson } from '../resources/values';
import { readTerraformFolder } from '../config/folder';
import { exportTenant, renderHcl, renderImportList, renderTerraformJson, renderTypescript, writeExportState, type TenantExport } from '.';
import { resourceName, slug, uniqueNames } from './names';
import { DR_LOCATION, seedNorthwind, type SeededNorthwind } from './testing';

/** The platform lists no tenant's settings: the names an export looks for are given. */
const SETTING_NAMES = ['backup_window', 'retention_days', 'encryption_required', 'odd value'];

const ROOT = join(__dirname, '../..');
const ODD_TENANT = 'bbbbbbbb-0000-4000-8000-000000000001';
const ODD_NAME = `O'Brien "Labs" */ Ünïcode\nGmbH`;
const ODD_VALUE = { "it's": 'a "quote" \\ and \u2028', ['__proto__']: 1, ü: [1, null, true, { 'key with space': {} }] };

/**
 * Starts the emulator on a world kept in `dataFile`, so that a test can edit the world between runs.
 * As the root: the export of the platform root, and objects outside the exported partner, need it.
 */
async function start(dataFile: string): Promise<{ emulator: RunningEmulator; client: PlatformClient }> {
  const emulator = await startEmulator({ port: 0, seed: 5, dataFile, account: 'root' });
  const client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
  return { emulator, client };
}

describe('tenantform export against the emulator', () => {
  let work: string;
  let emulator: RunningEmulator;
  let client: PlatformClient;
  let seeded: SeededNorthwind;
  let exp: TenantExport;
  let json: Record<string, any>;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'tenantform-export-'));
    const dataFile = join(work, 'world.json');
    ({ emulator, client } = await start(dataFile));
    const world = emulator.world();
    seeded = await seedNorthwind(client, world);
    const globexAdmin = await client.createUser({ tenant_id: seeded.globex, login: 'globex-admin', contact: { email: 'admin@globex.example' } });
    const nil = '00000000-0000-0000-0000-000000000000';
    await client.putAccessPolicies(globexAdmin.id, [
      { id: nil, issuer_id: nil, trustee_id: globexAdmin.id, trustee_type: 'user', tenant_id: seeded.globex, role_id: 'company_admin', version: 0 },
    ]);
    // Outside the exported subtree: never exported.
    await client.createInfra({
      owner_tenant_id: world.tenants['Southridge Partner'].id,
      location_id: DR_LOCATION,
      name: 'Southridge vault',
      url: 'https://vault.southridge.example',
      capabilities: ['backup'],
    });
    await client.close();
    await emulator.close();

    // Components the platform owns, or that are readonly, exist only through the platform itself.
    const saved = JSON.parse(readFileSync(dataFile, 'utf8'));
    const template = saved.infra[seeded.infraId];
    saved.infra['aaaaaaaa-0000-4000-8000-000000000001'] = {
      ...template,
      id: 'aaaaaaaa-0000-4000-8000-000000000001',
      name: 'Platform storage',
      platform_owned: true,
    };
    saved.infra['aaaaaaaa-0000-4000-8000-000000000002'] = { ...template, id: 'aaaaaaaa-0000-4000-8000-000000000002', name: 'Shared storage', readonly: true };
    // A tenant whose name and setting value test the quoting of the generated code.
    saved.tenants.push({ ...saved.tenants.find((t: { id: string }) => t.id === seeded.globex), id: ODD_TENANT, name: ODD_NAME });
    saved.bindings[ODD_TENANT] = [seeded.platform];
    saved.settings.push({ application_id: seeded.platform, tenant_id: ODD_TENANT, name: 'odd value', value: ODD_VALUE, lock: false, exclusive: false });
    writeFileSync(dataFile, JSON.stringify(saved));
    ({ emulator, client } = await start(dataFile));

    exp = await exportTenant(client, { tenantId: seeded.northwind, settingNames: SETTING_NAMES });
    json = JSON.parse(renderTerraformJson(exp));
  });

  afterAll(async () => {
    await client.close();
    await emulator.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('declares every binding, own setting, owned component, own master settings and report of the subtree', () => {
    const r = json.resource;
    expect(Object.keys(r.tenantform_application_binding).sort()).toEqual([
      'acme_manufacturing_backup',
      'acme_manufacturing_platform',
      'globex_retail_platform',
      'initech_finance_platform',
      'northwind_partner_backup',
      'northwind_partner_platform',
      'o_brien_labs_unicode_gmbh_platform',
    ]);
    expect(r.tenantform_application_binding.acme_manufacturing_backup).toEqual({
      application_id: seeded.backup,
      tenant_id: seeded.acme,
      depends_on: ['tenantform_application_binding.northwind_partner_backup'],
    });
    expect(r.tenantform_tenant_setting).toEqual({
      northwind_partner_backup_window: {
        application_id: seeded.backup,
        tenant_id: seeded.northwind,
        name: 'backup_window',
        // Keys sorted, as jsonencode orders them, whatever order the platform keeps.
        value: JSON.stringify({ end: '04:00', start: '22:00' }),
        lock: true,
        depends_on: ['tenantform_application_binding.northwind_partner_backup'],
      },
      acme_manufacturing_backup_retention_days: {
        application_id: seeded.backup,
        tenant_id: seeded.acme,
        name: 'retention_days',
        value: '90',
        exclusive: true,
        depends_on: ['tenantform_application_binding.acme_manufacturing_backup'],
      },
      o_brien_labs_unicode_gmbh_platform_odd_value: {
        application_id: seeded.platform,
        tenant_id: ODD_TENANT,
        name: 'odd value',
        value: canonicalJson(ODD_VALUE),
        depends_on: ['tenantform_application_binding.o_brien_labs_unicode_gmbh_platform'],
      },
    });
    expect(r.tenantform_infra_component).toEqual({
      northwind_dr_site: {
        owner_tenant_id: seeded.northwind,
        name: 'Northwind DR site',
        url: 'https://dr.northwind.example',
        capabilities: ['backup', 'disaster_recovery'],
        location_id: DR_LOCATION,
        backend_type: 'acronis',
      },
    });
    expect(r.tenantform_agent_update_settings).toEqual({
      acme_manufacturing_agent_updates: {
        tenant_id: seeded.acme,
        update_channel: 'CURRENT',
        automatic: false,
        maintenance_window: { time_from: '01:00:00', time_to: '05:00:00', days_of_week: ['SATURDAY', 'SUNDAY'] },
      },
    });
    expect(r.tenantform_usage_report).toEqual({
      northwind_partner_monthly_usage_summary: {
        result_action: 'save',
        // The period the platform chose is exported as it is live.
        parameters: {
          tenant_id: seeded.northwind,
          kind: 'usage_summary',
          level: 'all_customers',
          formats: ['csv', 'json_v2_0'],
          period: { start: expect.stringMatching(/^\d{4}-\d{2}-01$/), end: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
        },
        schedule: { type: 'monthly' },
        generation_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      },
    });
    // The sub-tenants themselves, and the partner's offering items with their limited quotas.
    expect(Object.keys(r.tenantform_tenant).sort()).toEqual([
      'acme_manufacturing_tenant',
      'globex_retail_tenant',
      'initech_finance_tenant',
      'o_brien_labs_unicode_gmbh_tenant',
    ]);
    expect(r.tenantform_tenant.initech_finance_tenant).toEqual({
      parent_id: seeded.northwind,
      kind: 'customer',
      name: 'Initech Finance',
      customer_type: 'default',
      language: 'en',
      ancestral_access: false,
      pricing_mode: 'production',
    });
    const items = r.tenantform_offering_items.northwind_partner_backup_offering_items.items;
    // Storage is per storage infrastructure component, in bytes: 10 TiB with 1 TiB of overage. On for
    // one component only, the item needs no infra_id, and is written without one, as a user writes it.
    expect(items).toContainEqual({ name: 'storage', quota: { value: 10 * 2 ** 40, overage: 2 ** 40 } });
    expect(items).toContainEqual({ name: 'servers' });
    expect(r.tenantform_user.globex_retail_user_globex_admin).toMatchObject({ tenant_id: seeded.globex, login: 'globex-admin', email: 'admin@globex.example' });
    expect(r.tenantform_user_roles.globex_retail_user_globex_admin_roles.roles).toEqual([{ tenant_id: seeded.globex, role_id: 'company_admin' }]);
    expect(exp.objects).toHaveLength(20);
    expect(exp.diagnostics).toEqual([]);
  });

  it('is Terraform JSON with the provider and the tenant names in a comment', () => {
    expect(json.terraform.required_providers.tenantform.source).toBe('tenantform/tenantform');
    expect(json.provider.tenantform).toEqual([{}]);
    expect(json['//'].tenants[seeded.acme]).toBe('Acme Manufacturing');
    expect(exp.stack).toBe('northwind-partner');
  });

  it('is HCL, laid out as terraform fmt lays it out, that reads back to the resources and import blocks of the JSON export', async () => {
    const hcl = renderHcl(exp, { importBlocks: true });
    const formatted = spawnSync('terraform', ['fmt', '-no-color', '-'], {
      input: hcl,
      encoding: 'utf8',
      env: { ...process.env, TF_CLI_CONFIG_FILE: '/dev/null' },
    });
    expect(formatted.stderr).toBe('');
    expect(formatted.stdout).toBe(hcl);
    expect(hcl).toContain(`#   ${ODD_TENANT}: ${JSON.stringify(ODD_NAME)}`);
    const folder = join(work, 'hcl');
    mkdirSync(folder);
    writeFileSync(join(folder, 'main.tf'), hcl);
    const { document } = await readTerraformFolder(folder);
    const withImports = JSON.parse(renderTerraformJson(exp, { importBlocks: true }));
    expect(document.resource).toEqual(withImports.resource);
    expect(document.import).toEqual(withImports.import);
    expect(document.provider).toEqual(withImports.provider);
    expect(document.terraform).toEqual(withImports.terraform);
  });

  it('writes one import line per object, with ids in each kind import format', () => {
    const lines = renderImportList(exp)
      .split('\n')
      .filter((l) => l.startsWith('tenantform import'));
    expect(lines).toHaveLength(exp.objects.length);
    expect(lines).toEqual(
      expect.arrayContaining([
        `tenantform import tenantform_application_binding.acme_manufacturing_backup ${seeded.backup}/${seeded.acme}`,
        `tenantform import tenantform_tenant_setting.acme_manufacturing_backup_retention_days ${seeded.backup}/${seeded.acme}/retention_days`,
        `tenantform import tenantform_infra_component.northwind_dr_site ${seeded.infraId}`,
        `tenantform import tenantform_agent_update_settings.acme_manufacturing_agent_updates tenant/${seeded.acme}`,
        `tenantform import tenantform_usage_report.northwind_partner_monthly_usage_summary ${seeded.reportId}`,
        `tenantform import tenantform_tenant_setting.o_brien_labs_unicode_gmbh_platform_odd_value '${seeded.platform}/${ODD_TENANT}/odd value'`,
      ]),
    );
  });

  it('writes a new state with the attributes import records, and never overwrites one', async () => {
    const path = join(work, 'terraform.northwind-partner.tfstate');
    await writeExportState(path, exp);
    const state = JSON.parse(readFileSync(path, 'utf8'));
    expect(state).toMatchObject({ version: 4, serial: 1, lineage: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(state.resources).toHaveLength(exp.objects.length);
    for (const r of state.resources) {
      expect(r.provider).toBe('provider["registry.terraform.io/tenantform/tenantform"]');
      const o = exp.objects.find((x) => x.address === `${r.type}.${r.name}`);
      const kind = resourceKind(r.type)!;
      const imported = await importResource({ kind, address: o!.address, ctx: { client }, id: o!.importId });
      expect(r.instances[0].attributes).toEqual(imported.value);
      expect(kind.identity(r.instances[0].attributes)).toBe(o!.importId);
    }
    await expect(writeExportState(path, exp)).rejects.toThrow(/already exists/);
  });

  it('compiles as TypeScript and synthesizes to the same resources and import blocks as the JSON export', () => {
    // Inside the project (in the ignored synth output folder), so that `cdktf` and `constructs`
    // resolve as they do for a user's app.
    mkdirSync(join(ROOT, 'cdktf.out'), { recursive: true });
    const app = mkdtempSync(join(ROOT, 'cdktf.out/export-test-'));
    try {
      const toRoot = relative(app, ROOT);
      writeFileSync(join(app, 'main.ts'), renderTypescript(exp, 'cdktf', { importBlocks: true }));
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          extends: `${toRoot}/tsconfig.json`,
          compilerOptions: { noEmit: true, paths: { tenantform: [`${toRoot}/src/index.ts`] } },
          files: ['main.ts'],
          include: [],
        }),
      );
      run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(app, 'tsconfig.json')]);
      run(join(ROOT, 'node_modules/.bin/tsx'), ['--tsconfig', join(app, 'tsconfig.json'), join(app, 'main.ts')], { CDKTF_OUTDIR: join(app, 'out') });
      const synthesized = JSON.parse(readFileSync(join(app, 'out/stacks/northwind-partner/cdk.tf.json'), 'utf8'));
      expect(comparable(synthesized.resource)).toEqual(json.resource);
      expect(synthesized.provider.tenantform).toEqual([{}]);
      const imports = JSON.parse(renderTerraformJson(exp, { importBlocks: true })).import as Array<{ to: string; id: string }>;
      expect(imports).toHaveLength(exp.objects.length);
      expect((synthesized.import as Array<{ to: string; id: string }>).map(({ to, id }) => ({ to, id }))).toEqual(imports);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  }, 120_000);

  it('exports only the settings of the names it is given', async () => {
    const without = await exportTenant(client, { tenantId: seeded.northwind });
    expect(without.objects.some((o) => o.kind.type === 'tenantform_tenant_setting')).toBe(false);
    const one = await exportTenant(client, { tenantId: seeded.northwind, settingNames: ['retention_days'] });
    expect(one.objects.filter((o) => o.kind.type === 'tenantform_tenant_setting').map((o) => o.config.name)).toEqual(['retention_days']);
  });

  it('exports the platform root without its implicit bindings, with its own settings and master settings', async () => {
    const root = await exportTenant(client, { tenantId: emulator.rootTenantId, stack: 'everything', settingNames: SETTING_NAMES });
    const rootObjects = root.objects.filter((o) => o.tenant.id === emulator.rootTenantId);
    expect(rootObjects.map((o) => o.kind.type).sort()).toEqual([
      'tenantform_agent_update_settings',
      'tenantform_tenant_setting',
      'tenantform_tenant_setting',
      'tenantform_tenant_setting',
    ]);
    expect(root.objects.some((o) => o.config.name === 'Southridge vault')).toBe(true);
    expect(new Set(root.objects.map((o) => o.name)).size).toBe(root.objects.length);
  });
});

/** Runs a command; a failure shows what it printed. */
function run(command: string, args: string[], env: Record<string, string> = {}): void {
  const result = spawnSync(command, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
}

/**
 * cdktf's output without what only cdktf adds: `//` metadata, and `${...}` around `depends_on`
 * entries (Terraform reads both forms alike).
 */
function comparable(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/^\$\{(.*)\}$/, '$1');
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== '//')
        .map(([k, v]) => [k, comparable(v)]),
    );
  }
  return value;
}

describe('export names', () => {
  it('are snake_case, readable and without stutter', () => {
    expect(slug('Müller & Söhne GmbH')).toBe('muller_sohne_gmbh');
    expect(slug('42 Labs')).toBe('n_42_labs');
    expect(slug('***')).toBe('unnamed');
    expect(resourceName('Northwind Partner', 'backup', 'backup_window')).toBe('northwind_partner_backup_window');
    expect(resourceName('Northwind Partner', 'Northwind DR site')).toBe('northwind_dr_site');
  });

  it('are unique in a stable order', () => {
    expect(uniqueNames(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a_2', 'a_3']);
  });
});
