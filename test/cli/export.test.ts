import { spawn } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlatformClient } from '../../src/api';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { seedNorthwind, type SeededNorthwind } from '../../src/export/testing';

const ROOT = join(__dirname, '../..');
const CLI = join(ROOT, 'bin/tenantform.js');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI as a process (asynchronously: the emulator answers from this process). */
function tenantform(args: string[], env: Record<string, string | undefined>, cwd = ROOT): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('tenantform export (the built CLI)', () => {
  let emulator: RunningEmulator;
  let seeded: SeededNorthwind;
  let env: Record<string, string>;
  let work: string;

  beforeAll(async () => {
    // The built CLI (dist/) comes from `npm test`'s pretest build, as for the other CLI suites.
    work = mkdtempSync(join(tmpdir(), 'tenantform-cli-export-'));
    emulator = await startEmulator({ port: 0, seed: 3 });
    const client = new PlatformClient({ baseUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret });
    seeded = await seedNorthwind(client, emulator.world());
    await client.close();
    env = {
      TENANTFORM_BASE_URL: emulator.url,
      TENANTFORM_CLIENT_ID: emulator.clientId,
      TENANTFORM_CLIENT_SECRET: emulator.clientSecret,
    };
  }, 180_000);

  afterAll(async () => {
    await emulator.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('writes Terraform JSON, the import list and a state', async () => {
    const out = join(work, 'cdk.tf.json');
    const imports = join(work, 'imports.sh');
    const state = join(work, 'terraform.northwind.tfstate');
    const run = await tenantform(
      // The platform lists no tenant's settings: the names to export are given.
      [
        'export',
        '--tenant',
        seeded.northwind,
        '--format',
        'json',
        '--out',
        out,
        '--imports',
        imports,
        '--state',
        state,
        '--stack',
        'northwind',
        '--setting',
        'backup_window',
        '--setting',
        'retention_days',
      ],
      env,
    );
    expect(run.stderr).toMatch(/Exported 17 objects from "Northwind Partner" and 3 tenants below it \(stack "northwind"\)/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');

    const config = JSON.parse(readFileSync(out, 'utf8'));
    expect(config.resource.tenantform_infra_component.northwind_dr_site.owner_tenant_id).toBe(seeded.northwind);
    expect(config.resource.tenantform_usage_report.northwind_partner_monthly_usage_summary.parameters.kind).toBe('usage_summary');

    const lines = readFileSync(imports, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('tenantform import '));
    // 11 objects of the tenants, the 2 users made in the console, the 3 sub-tenants themselves and the partner's offering items.
    expect(lines).toHaveLength(17);
    expect(lines).toContain(`tenantform import tenantform_tenant.acme_manufacturing_tenant ${seeded.acme}`);
    expect(lines).toContain(`tenantform import tenantform_infra_component.northwind_dr_site ${seeded.infraId}`);

    const written = JSON.parse(readFileSync(state, 'utf8'));
    expect(written).toMatchObject({ version: 4, serial: 1 });
    const ids = written.resources.map((r: any) => r.instances[0].attributes.id);
    expect(ids).toEqual(expect.arrayContaining([seeded.infraId, seeded.reportId, `tenant/${seeded.acme}`, `${seeded.backup}/${seeded.acme}/retention_days`]));
    expect(readFileSync(state, 'utf8')).not.toContain(emulator.clientSecret);
  });

  it('brings the subtree under management: export, then plan shows no changes', async () => {
    const out = join(work, 'roundtrip.tf.json');
    const state = join(work, 'terraform.roundtrip.tfstate');
    const exported = await tenantform(
      ['export', '--tenant', seeded.northwind, '--format', 'json', '--out', out, '--state', state, '--setting', 'retention_days'],
      env,
    );
    expect(exported.code).toBe(0);
    const plan = await tenantform(['plan', '--config', out, '--state', state, '--detailed-exitcode'], env);
    // Progress lines only: no warning, no error.
    expect(plan.stderr).toMatch(/^Reading \d+ objects from the platform\.\.\.\nRead \d+ objects in \d+\.\ds\.\n$/);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  it('adopts the subtree through import blocks instead of a state: one plan imports everything, apply creates nothing', async () => {
    const out = join(work, 'import-blocks.tf.json');
    const state = join(work, 'terraform.import-blocks.tfstate');
    const exported = await tenantform(
      ['export', '--tenant', seeded.northwind, '--format', 'json', '--out', out, '--import-blocks', '--setting', 'retention_days'],
      env,
    );
    expect(exported.code).toBe(0);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    const count = Object.values(doc.resource as Record<string, object>).reduce((n, blocks) => n + Object.keys(blocks).length, 0);
    expect(doc.import).toHaveLength(count);

    const plan = await tenantform(['plan', '--config', out, '--state', state, '--detailed-exitcode'], env);
    expect(plan.stdout).toContain(`Plan: ${count} to import, 0 to add, 0 to change, 0 to destroy.`);
    expect(plan.code).toBe(2);
    const applied = await tenantform(['apply', '--config', out, '--state', state, '--auto-approve'], env);
    expect(applied.stdout).toContain(`Apply complete! Resources: ${count} imported, 0 added, 0 changed, 0 destroyed.`);
    const again = await tenantform(['plan', '--config', out, '--state', state, '--detailed-exitcode'], env);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);

    const app = await tenantform(['export', '--tenant', seeded.northwind, '--import-blocks'], env);
    expect(app.stdout).toContain(`.importFrom('${seeded.infraId}');`);
  });

  it('writes a Terraform folder in HCL whose first native plan imports everything and creates nothing', async () => {
    const folder = join(work, 'hcl');
    mkdirSync(folder);
    const exported = await tenantform(
      ['export', '--tenant', seeded.northwind, '--format', 'hcl', '--out', join(folder, 'main.tf'), '--import-blocks', '--setting', 'retention_days'],
      env,
    );
    expect(exported.code).toBe(0);
    const count = (readFileSync(join(folder, 'main.tf'), 'utf8').match(/^import \{$/gm) ?? []).length;
    expect(count).toBeGreaterThan(5);
    const plan = await tenantform(['plan', '--config', folder, '--detailed-exitcode'], env);
    expect(plan.stdout).toContain(`Plan: ${count} to import, 0 to add, 0 to change, 0 to destroy.`);
    expect(plan.code).toBe(2);
  });

  it('prints a cdktf app on standard output by default', async () => {
    const run = await tenantform(['export', '--tenant', seeded.northwind], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("from 'tenantform';");
    expect(run.stdout).toContain("new NorthwindPartnerStack(app, 'northwind-partner');");
    expect(run.stdout).toContain(`acmeManufacturing: '${seeded.acme}', // Acme Manufacturing (customer)`);
  });

  it("writes the app for the project's own CDK library: CDK Terrain in a project that depends on it", async () => {
    const project = join(work, 'terrain-project');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'platform', devDependencies: { cdktn: '^0.24.0', tenantform: '*' } }));
    const run = await tenantform(['export', '--tenant', seeded.northwind], env, join(project, 'src'));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("import { App, TerraformStack } from 'cdktn';");
    expect(run.stdout).toContain('`npx cdktn synth && npx tenantform plan`');
    expect(run.stdout).not.toContain("'cdktf'");
  });

  it('never overwrites a state file', async () => {
    const state = join(work, 'existing.tfstate');
    writeFileSync(state, '{"version":4}');
    const run = await tenantform(['export', '--tenant', seeded.northwind, '--state', state], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/already exists/);
    expect(readFileSync(state, 'utf8')).toBe('{"version":4}');
  });

  it('never overwrites a configuration or import list unless asked, and never writes through a symbolic link', async () => {
    const folder = join(work, 'existing');
    mkdirSync(folder);
    const main = join(folder, 'main.tf');
    writeFileSync(main, "# the team's own configuration\n");
    const refused = await tenantform(['export', '--tenant', seeded.northwind, '--format', 'hcl', '--out', main], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${main} already exists; an export never overwrites a file`);
    expect(readFileSync(main, 'utf8')).toBe("# the team's own configuration\n");

    const victim = join(folder, 'terraform.tfvars');
    writeFileSync(victim, 'region = "eu"\n');
    const link = join(folder, 'imports.sh');
    symlinkSync(victim, link);
    for (const overwrite of [[], ['--overwrite']]) {
      const through = await tenantform(['export', '--tenant', seeded.northwind, '--imports', link, ...overwrite], env);
      expect(through.code).toBe(1);
      expect(through.stderr).toContain(`${link} is a symbolic link`);
    }
    expect(readFileSync(victim, 'utf8')).toBe('region = "eu"\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);

    const replaced = await tenantform(['export', '--tenant', seeded.northwind, '--format', 'hcl', '--out', main, '--overwrite'], env);
    expect(replaced.code).toBe(0);
    expect(readFileSync(main, 'utf8')).toContain('resource "tenantform_infra_component"');
  });

  it('says which credentials are missing', async () => {
    const run = await tenantform(['export', '--tenant', seeded.northwind], { ...env, TENANTFORM_CLIENT_SECRET: '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/TENANTFORM_CLIENT_SECRET/);
  });

  it('refuses a tenant that is not an id', async () => {
    const run = await tenantform(['export', '--tenant', 'Northwind Partner'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--tenant must be a tenant id/);
  });
});
